package dev.breaker;

import dev.breaker.internal.Names;
import dev.breaker.spi.HalfOpenPolicy;
import dev.breaker.spi.WindowFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;

/**
 * Builds a {@link CircuitBreaker}: a name, a {@link CircuitBreakerConfig} (every setting that
 * decides behaviour; the config's setters are repeated here for convenience) and what belongs to
 * one breaker alone: its ticker, its listeners and how their events are delivered. Every setter
 * checks its argument at once and names the setting and the value in its exception; a rejected
 * value leaves the builder unchanged.
 *
 * <table>
 * <caption>Per-breaker settings and their defaults (the config's are on {@link CircuitBreakerConfig})</caption>
 * <tr><th>setting</th><th>default</th></tr>
 * <tr><td>ticker</td><td>{@link Ticker#system()}</td></tr>
 * <tr><td>listeners</td><td>none</td></tr>
 * <tr><td>observers</td><td>none</td></tr>
 * <tr><td>eventExecutor</td><td>{@link ForkJoinPool#commonPool()} (a new daemon thread per hand-off when it has no
 *     parallelism)</td></tr>
 * <tr><td>eventBacklog</td><td>{@value #DEFAULT_EVENT_BACKLOG}</td></tr>
 * </table>
 */
public final class CircuitBreakerBuilder {

    /** How many events may wait for the listeners when none is configured. */
    public static final int DEFAULT_EVENT_BACKLOG = 128;
    /** The most events that may wait for the listeners. */
    public static final int MAX_EVENT_BACKLOG = 1 << 20;

    private final String name;
    private final CircuitBreakerConfig.Builder config;
    private Ticker ticker = Ticker.system();
    private final List<BreakerListener> listeners = new ArrayList<>();
    private final List<CallObserver> observers = new ArrayList<>();
    private Executor eventExecutor;
    private int eventBacklog = DEFAULT_EVENT_BACKLOG;

    CircuitBreakerBuilder(String name, CircuitBreakerConfig config) {
        this.name = Names.check("name", name);
        this.config = CircuitBreakerConfig.builder(Objects.requireNonNull(config, "config"));
    }

    /**
     * The window that decides when CLOSED trips; see {@link CircuitBreakerConfig.Builder#window}.
     *
     * @param window from {@link Windows} or a window module
     * @return this builder
     */
    public CircuitBreakerBuilder window(WindowFactory window) {
        config.window(window);
        return this;
    }

    /**
     * The fixed cooldown of the default half-open policy; see {@link CircuitBreakerConfig.Builder#cooldown}.
     *
     * @param cooldown at least zero
     * @return this builder
     */
    public CircuitBreakerBuilder cooldown(Duration cooldown) {
        config.cooldown(cooldown);
        return this;
    }

    /**
     * Probe permits per half-open round of the default policy; see {@link CircuitBreakerConfig.Builder#probes}.
     *
     * @param probes at least 1
     * @return this builder
     */
    public CircuitBreakerBuilder probes(int probes) {
        config.probes(probes);
        return this;
    }

    /**
     * A half-open policy instead of cooldown and probes; see {@link CircuitBreakerConfig.Builder#halfOpen}.
     *
     * @param policy from {@link HalfOpenPolicies} or a half-open module
     * @return this builder
     */
    public CircuitBreakerBuilder halfOpen(HalfOpenPolicy policy) {
        config.halfOpen(policy);
        return this;
    }

    /**
     * Calls at least this long are slow; see {@link CircuitBreakerConfig.Builder#slowCallThreshold}.
     *
     * @param threshold longer than zero
     * @return this builder
     */
    public CircuitBreakerBuilder slowCallThreshold(Duration threshold) {
        config.slowCallThreshold(threshold);
        return this;
    }

    /**
     * How long a half-open round may go without a decision; see
     * {@link CircuitBreakerConfig.Builder#maxHalfOpenDuration}.
     *
     * @param max longer than zero
     * @return this builder
     */
    public CircuitBreakerBuilder maxHalfOpenDuration(Duration max) {
        config.maxHalfOpenDuration(max);
        return this;
    }

    /**
     * Which outcomes are failures; see {@link CircuitBreakerConfig.Builder#classifier}.
     *
     * @param classifier the classifier
     * @return this builder
     */
    public CircuitBreakerBuilder classifier(FailureClassifier classifier) {
        config.classifier(classifier);
        return this;
    }

    /**
     * Whether rejections fill in a stack trace; see {@link CircuitBreakerConfig.Builder#rejectionStackTraces}.
     *
     * @param enabled true to fill in stack traces
     * @return this builder
     */
    public CircuitBreakerBuilder rejectionStackTraces(boolean enabled) {
        config.rejectionStackTraces(enabled);
        return this;
    }

    /**
     * Whether CLOSED permits are one-shot objects; see {@link CircuitBreakerConfig.Builder#trackedPermits}.
     *
     * @param enabled true for one-shot CLOSED permits
     * @return this builder
     */
    public CircuitBreakerBuilder trackedPermits(boolean enabled) {
        config.trackedPermits(enabled);
        return this;
    }

    /**
     * Shadow mode; see {@link CircuitBreakerConfig.Builder#shadow}.
     *
     * @param enabled true for a shadow breaker
     * @return this builder
     */
    public CircuitBreakerBuilder shadow(boolean enabled) {
        config.shadow(enabled);
        return this;
    }

    /**
     * The longest a dependency's "retry after" opens the breaker; see
     * {@link CircuitBreakerConfig.Builder#backOffMax}.
     *
     * @param max longer than zero
     * @return this builder
     */
    public CircuitBreakerBuilder backOffMax(java.time.Duration max) {
        config.backOffMax(max);
        return this;
    }

    /**
     * The time source; a fake one in tests.
     *
     * @param ticker monotonic nanoseconds
     * @return this builder
     */
    public CircuitBreakerBuilder ticker(Ticker ticker) {
        this.ticker = Objects.requireNonNull(ticker, "ticker");
        return this;
    }

    /**
     * Adds a listener; may be called more than once.
     *
     * @param listener receives the breaker's events
     * @return this builder
     */
    public CircuitBreakerBuilder listener(BreakerListener listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
        return this;
    }

    /**
     * Adds a call observer; may be called more than once (each sees every call, in the order
     * added). See {@link CallObserver} for where it runs and what it must not do.
     *
     * @param observer sees each call's outcome, rejection or late result
     * @return this builder
     */
    public CircuitBreakerBuilder observer(CallObserver observer) {
        observers.add(Objects.requireNonNull(observer, "observer"));
        return this;
    }

    /**
     * Where events go when the thread that caused them has delivered its share. A thread whose
     * request or report publishes an event delivers at most a few events itself (so a slow
     * listener holds no caller for long); what is left is handed to this executor, which keeps
     * delivering until nothing waits, even if the breaker publishes nothing more. An executor that
     * refuses the task makes the waiting events dropped (counted in
     * {@link BreakerMetrics#droppedEvents()}). Listeners are still called one at a time, and
     * transitions in generation order, whichever thread delivers.
     *
     * @param executor runs deliveries; a direct executor ({@code Runnable::run}) delivers
     *                 everything on the calling thread, which a slow listener then holds
     * @return this builder
     */
    public CircuitBreakerBuilder eventExecutor(Executor executor) {
        this.eventExecutor = Objects.requireNonNull(executor, "eventExecutor");
        return this;
    }

    /**
     * How many events may wait for the listeners (transitions, and separately other events)
     * before new ones are dropped and counted in {@link BreakerMetrics#droppedEvents()}.
     *
     * @param events 1 to {@value #MAX_EVENT_BACKLOG}
     * @return this builder
     */
    public CircuitBreakerBuilder eventBacklog(int events) {
        if (events < 1 || events > MAX_EVENT_BACKLOG) {
            throw new IllegalArgumentException("eventBacklog must be in [1, " + MAX_EVENT_BACKLOG + "], was " + events);
        }
        this.eventBacklog = events;
        return this;
    }

    /**
     * Builds the breaker, CLOSED, generation 0.
     *
     * @return the breaker
     * @throws IllegalArgumentException when the config's settings conflict (see
     *                                  {@link CircuitBreakerConfig.Builder#build()})
     */
    public CircuitBreaker build() {
        return new DefaultCircuitBreaker(
                name,
                config.build(),
                new DefaultCircuitBreaker.Wiring(
                        ticker,
                        List.copyOf(listeners),
                        eventExecutor != null ? eventExecutor : defaultEventExecutor(),
                        eventBacklog,
                        CallObservers.of(observers)));
    }

    /** Like {@code CompletableFuture}'s default: the common pool, or a thread per task when it cannot run tasks in parallel. */
    private static Executor defaultEventExecutor() {
        if (ForkJoinPool.getCommonPoolParallelism() > 1) {
            return ForkJoinPool.commonPool();
        }
        return task -> {
            Thread t = new Thread(task, "dev.breaker-events");
            t.setDaemon(true);
            t.start();
        };
    }
}
