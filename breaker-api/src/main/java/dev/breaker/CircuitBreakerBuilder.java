package dev.breaker;

import dev.breaker.internal.ConsecutiveWindowProvider;
import dev.breaker.internal.Durations;
import dev.breaker.internal.FixedHalfOpenPolicyProvider;
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
 * Builds a {@link CircuitBreaker}. Every setter checks its argument at once and names the
 * setting and the value in its exception; a rejected value leaves the builder unchanged.
 *
 * <table>
 * <caption>Defaults</caption>
 * <tr><th>setting</th><th>default</th></tr>
 * <tr><td>window</td><td>{@code Windows.consecutiveFailures(5)}</td></tr>
 * <tr><td>cooldown / probes</td><td>60 s / 1 (the fixed half-open policy)</td></tr>
 * <tr><td>maxHalfOpenDuration</td><td>60 s: a round without a decision by then is failed</td></tr>
 * <tr><td>slowCallThreshold</td><td>none: calls are not timed, none is slow</td></tr>
 * <tr><td>classifier</td><td>{@link FailureClassifier#defaults()}</td></tr>
 * <tr><td>ticker</td><td>{@link Ticker#system()}</td></tr>
 * <tr><td>rejectionStackTraces</td><td>false</td></tr>
 * <tr><td>trackedPermits</td><td>false: CLOSED permits are shared, allocation-free</td></tr>
 * <tr><td>eventExecutor</td><td>{@link ForkJoinPool#commonPool()} (a new daemon thread per hand-off when it has no
 *     parallelism)</td></tr>
 * <tr><td>eventBacklog</td><td>{@value #DEFAULT_EVENT_BACKLOG}</td></tr>
 * </table>
 */
public final class CircuitBreakerBuilder {

    /** The maximum half-open duration when none is configured. */
    public static final Duration DEFAULT_MAX_HALF_OPEN = Duration.ofSeconds(60);
    /** How many events may wait for the listeners when none is configured. */
    public static final int DEFAULT_EVENT_BACKLOG = 128;
    /** The most events that may wait for the listeners. */
    public static final int MAX_EVENT_BACKLOG = 1 << 20;

    private final String name;
    private WindowFactory window = Windows.consecutiveFailures(ConsecutiveWindowProvider.DEFAULT_THRESHOLD);
    private Duration cooldown;
    private Integer probes;
    private HalfOpenPolicy halfOpen;
    /** 0: no threshold. */
    private long slowCallNanos;
    private long maxHalfOpenNanos = DEFAULT_MAX_HALF_OPEN.toNanos();
    private FailureClassifier classifier = FailureClassifier.defaults();
    private Ticker ticker = Ticker.system();
    private final List<BreakerListener> listeners = new ArrayList<>();
    private boolean rejectionStackTraces;
    private boolean trackedPermits;
    private Executor eventExecutor;
    private int eventBacklog = DEFAULT_EVENT_BACKLOG;

    CircuitBreakerBuilder(String name) {
        this.name = Names.check("name", name);
    }

    /**
     * The window that decides when CLOSED trips.
     *
     * @param window from {@link Windows} or a window module
     * @return this builder
     */
    public CircuitBreakerBuilder window(WindowFactory window) {
        this.window = Objects.requireNonNull(window, "window");
        return this;
    }

    /**
     * The fixed cooldown of the default half-open policy. Not combinable with {@link #halfOpen}.
     *
     * @param cooldown at least zero
     * @return this builder
     */
    public CircuitBreakerBuilder cooldown(Duration cooldown) {
        Durations.nonNegative("cooldown", cooldown);
        this.cooldown = cooldown;
        return this;
    }

    /**
     * Probe permits per half-open round of the default policy. Not combinable with {@link #halfOpen}.
     *
     * @param probes at least 1
     * @return this builder
     */
    public CircuitBreakerBuilder probes(int probes) {
        if (probes < 1) {
            throw new IllegalArgumentException("probes must be >= 1, was " + probes);
        }
        this.probes = probes;
        return this;
    }

    /**
     * A half-open policy that replaces the default one (and its cooldown and probes settings).
     *
     * @param policy from {@link HalfOpenPolicies} or a half-open module
     * @return this builder
     */
    public CircuitBreakerBuilder halfOpen(HalfOpenPolicy policy) {
        this.halfOpen = Objects.requireNonNull(policy, "halfOpen");
        return this;
    }

    /**
     * Calls that take at least this long are slow. Setting it makes the execute methods read the
     * ticker twice per call; a slow probe counts as failed.
     *
     * @param threshold longer than zero
     * @return this builder
     */
    public CircuitBreakerBuilder slowCallThreshold(Duration threshold) {
        this.slowCallNanos = Durations.positive("slowCallThreshold", threshold);
        return this;
    }

    /**
     * How long a half-open round may go without a decision; on the first request or report after
     * that the round counts as failed and the breaker opens. Keeps a probe that never reports
     * from wedging the breaker.
     *
     * @param max longer than zero
     * @return this builder
     */
    public CircuitBreakerBuilder maxHalfOpenDuration(Duration max) {
        this.maxHalfOpenNanos = Durations.positive("maxHalfOpenDuration", max);
        return this;
    }

    /**
     * Which outcomes are failures.
     *
     * @param classifier the classifier
     * @return this builder
     */
    public CircuitBreakerBuilder classifier(FailureClassifier classifier) {
        this.classifier = Objects.requireNonNull(classifier, "classifier");
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
     * Whether {@link CallNotPermittedException}s fill in a stack trace (default false: cheap
     * rejection).
     *
     * @param enabled true to fill in stack traces
     * @return this builder
     */
    public CircuitBreakerBuilder rejectionStackTraces(boolean enabled) {
        this.rejectionStackTraces = enabled;
        return this;
    }

    /**
     * Whether each CLOSED permit from {@link CircuitBreaker#tryAcquire()} is an object of its own
     * (default false). By default the calls of one CLOSED generation share one permit, so the happy
     * path allocates nothing, and a second report on it cannot be told from another call's report.
     * Turned on, each permit costs one small object and a second report on it is detected, ignored
     * and counted in {@link BreakerMetrics#duplicateReports()}. Probe permits are always tracked;
     * the execute methods never report twice either way.
     *
     * @param enabled true for one-shot CLOSED permits
     * @return this builder
     */
    public CircuitBreakerBuilder trackedPermits(boolean enabled) {
        this.trackedPermits = enabled;
        return this;
    }

    /**
     * Builds the breaker, CLOSED, generation 0.
     *
     * @return the breaker
     * @throws IllegalArgumentException when {@code halfOpen} is combined with {@code cooldown} or
     *                                  {@code probes}, or the half-open policy answers
     *                                  {@code probes() < 1} or a negative first cooldown
     */
    public CircuitBreaker build() {
        HalfOpenPolicy policy = halfOpen;
        if (policy != null && (cooldown != null || probes != null)) {
            throw new IllegalArgumentException("halfOpen(" + policy + ") sets the cooldown and probes itself; "
                    + "remove cooldown(" + cooldown + ") and probes(" + probes + ")");
        }
        if (policy == null) {
            policy = HalfOpenPolicies.fixed(cooldown != null ? cooldown : FixedHalfOpenPolicyProvider.DEFAULT_COOLDOWN,
                    probes != null ? probes : FixedHalfOpenPolicyProvider.DEFAULT_PROBES);
        }
        return new DefaultCircuitBreaker(name, window, policy, classifier, ticker, slowCallNanos,
                maxHalfOpenNanos, rejectionStackTraces, trackedPermits, List.copyOf(listeners),
                eventExecutor != null ? eventExecutor : defaultEventExecutor(), eventBacklog);
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
