package dev.breaker;

import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A circuit breaker in front of one dependency. Thread-safe; one instance is shared by every
 * thread that calls the dependency.
 *
 * <p>Two ways to use it: the execute methods ({@link #call}, {@link #get}, {@link #run},
 * {@link #callAsync}) wrap a call, time it when a slow-call threshold is set, classify its outcome
 * and report it; the permit API ({@link #tryAcquire()}) leaves the call and the reporting to the
 * caller. On a CLOSED breaker neither takes a lock nor allocates to admit a call (a call shed by a
 * ramp-up after recovery, SPEC rule 16, is a rejection: through the execute methods it gets its
 * {@link CallNotPermittedException}, as any rejection does).
 *
 * <p>The behaviour contract is the project's SPEC ({@code docs/SPEC.md} in the repository; "SPEC
 * rule N" in these docs points there): CLOSED, OPEN (strict, lazy cooldown),
 * HALF_OPEN (counted probes) and ISOLATED; one compare-and-set per transition; generations that
 * keep late results from deciding anything.
 */
public interface CircuitBreaker {

    /**
     * Starts building a breaker.
     *
     * @param name the breaker's name, with a visible character and no control character; appears
     *             in events, metrics and exceptions
     * @return a builder with the defaults of {@link CircuitBreakerConfig#defaults()}
     * @throws IllegalArgumentException when the name is blank
     */
    static CircuitBreakerBuilder builder(String name) {
        return new CircuitBreakerBuilder(name, CircuitBreakerConfig.defaults());
    }

    /**
     * Starts building a breaker from a config; the builder may still change any setting.
     *
     * @param name   the breaker's name, not blank
     * @param config the settings to start from
     * @return a builder
     * @throws IllegalArgumentException when the name is blank
     */
    static CircuitBreakerBuilder builder(String name, CircuitBreakerConfig config) {
        return new CircuitBreakerBuilder(name, config);
    }

    /**
     * The settings this breaker was built from.
     *
     * @return the config
     */
    CircuitBreakerConfig config();

    /**
     * The breaker's name.
     *
     * @return the name
     */
    String name();

    /**
     * Asks for permission for one call. Never blocks, never returns null. In OPEN this is where
     * the cooldown is checked, and the first request at or after its end becomes a probe.
     *
     * @return a permit; if {@link Permit#granted()}, report its outcome exactly once
     */
    Permit tryAcquire();

    /**
     * Runs a call through the breaker.
     *
     * @param callable the call
     * @param <T>      the result type
     * @return what the call returned
     * @throws CallNotPermittedException when the breaker rejects the call (it is not made)
     * @throws Exception                 whatever the call threw, after recording it
     */
    <T> T call(Callable<T> callable) throws Exception;

    /**
     * Runs a call through the breaker.
     *
     * @param supplier the call
     * @param <T>      the result type
     * @return what the call returned
     * @throws CallNotPermittedException when the breaker rejects the call (it is not made)
     */
    <T> T get(Supplier<T> supplier);

    /**
     * Runs a call through the breaker.
     *
     * @param runnable the call
     * @throws CallNotPermittedException when the breaker rejects the call (it is not made)
     */
    void run(Runnable runnable);

    /**
     * Starts an asynchronous call through the breaker. The outcome is recorded when the call's
     * stage completes, and the returned stage always completes, exactly once: with the call's
     * result or failure, or with the failure of a plugin (ticker, classifier) that failed while
     * the outcome was recorded; the permit is settled exactly once in every case.
     *
     * <p>The caller may finish the returned stage first. {@code orTimeout} (any
     * {@link java.util.concurrent.TimeoutException}) records a failure at once, slow too when a
     * slow-call threshold is set, since the dependency did not answer in time; cancelling releases
     * the permit with no outcome; both also cancel the call's stage when it is a
     * {@link java.util.concurrent.Future} that allows it. Completing it with a value releases the
     * permit. The call's own outcome, arriving later, is then ignored. A stage that nobody
     * finishes holds a probe slot only until the maximum half-open duration ends the round.
     *
     * @param supplier starts the call; an exception it throws is recorded like a failed stage (an
     *                 {@link Error} is rethrown, after the permit is released)
     * @param <T>      the result type
     * @return a stage with the call's result; failed with {@link CallNotPermittedException} when
     *         rejected, never thrown
     */
    <T> CompletionStage<T> callAsync(Supplier<? extends CompletionStage<T>> supplier);

    /**
     * Like {@link #call(Callable)}, but a rejection or an exception from the call goes to
     * {@code fallback}, whose answer is returned. Errors propagate.
     *
     * @param callable the call
     * @param fallback maps the {@link CallNotPermittedException} or the call's exception to a result
     * @param <T>      the result type
     * @return the call's or the fallback's result
     */
    default <T> T call(Callable<T> callable, Function<? super Exception, ? extends T> fallback) {
        Objects.requireNonNull(callable, "callable");
        Objects.requireNonNull(fallback, "fallback");
        try {
            return call(callable);
        } catch (Exception e) {
            return fallback.apply(e);
        }
    }

    /**
     * Like {@link #get(Supplier)}, but a rejection or an exception from the call goes to
     * {@code fallback}, whose answer is returned. Errors propagate.
     *
     * @param supplier the call
     * @param fallback maps the {@link CallNotPermittedException} or the call's exception to a result
     * @param <T>      the result type
     * @return the call's or the fallback's result
     */
    default <T> T get(Supplier<T> supplier, Function<? super RuntimeException, ? extends T> fallback) {
        Objects.requireNonNull(supplier, "supplier");
        Objects.requireNonNull(fallback, "fallback");
        try {
            return get(supplier);
        } catch (RuntimeException e) {
            return fallback.apply(e);
        }
    }

    /**
     * Like {@link #run(Runnable)}, but a rejection or an exception from the call goes to
     * {@code fallback}. Errors propagate.
     *
     * @param runnable the call
     * @param fallback handles the {@link CallNotPermittedException} or the call's exception
     */
    default void run(Runnable runnable, Consumer<? super RuntimeException> fallback) {
        Objects.requireNonNull(runnable, "runnable");
        Objects.requireNonNull(fallback, "fallback");
        try {
            run(runnable);
        } catch (RuntimeException e) {
            fallback.accept(e);
        }
    }

    /**
     * Like {@link #callAsync(Supplier)}, but a rejection or a failed call completes the returned
     * stage with {@code fallback}'s answer instead (or with what the fallback throws). The
     * fallback sees the cause, not a {@link CompletionException} wrapper. Cancelling or timing
     * out the returned stage settles the permit as {@link #callAsync(Supplier)} describes (in
     * this implementation; the default method, for other implementations, wraps the stage).
     *
     * @param supplier starts the call
     * @param fallback maps the failure to a result
     * @param <T>      the result type
     * @return a stage with the call's or the fallback's result
     */
    default <T> CompletionStage<T> callAsync(
            Supplier<? extends CompletionStage<T>> supplier, Function<? super Throwable, ? extends T> fallback) {
        Objects.requireNonNull(supplier, "supplier");
        Objects.requireNonNull(fallback, "fallback");
        return callAsync(supplier)
                .exceptionally(t ->
                        fallback.apply(t instanceof CompletionException && t.getCause() != null ? t.getCause() : t));
    }

    /**
     * The current state. Does not advance time: an OPEN breaker whose cooldown has elapsed
     * reports OPEN until a request arrives.
     *
     * @return the state
     */
    State state();

    /**
     * How long until this breaker would admit a request, read without changing anything (no
     * transition, no permit; SPEC rule 1 still leaves OPEN only on a request): while OPEN, what is
     * left of the cooldown, 0 once it has passed (the next request becomes a probe); while
     * ISOLATED, -1 (only {@link #reset()} admits again); in other states 0. What a health check or
     * a dashboard reads to tell an OPEN breaker that waits from one that is ready to probe.
     *
     * @return nanoseconds, 0, or -1 when only a reset admits; an implementation that does not
     *         track its cooldown answers 0 while OPEN
     */
    default long retryAfterNanos() {
        return state() == State.ISOLATED ? -1 : 0;
    }

    /**
     * A snapshot of the state and counters.
     *
     * @return the metrics
     */
    BreakerMetrics metrics();

    /**
     * How many transitions from {@code from} to {@code to} this breaker has made since it was made
     * (every generation begins with one; a {@link #reset()} of a CLOSED breaker counts as CLOSED to
     * CLOSED): what a dashboard's transition counter reads, with no listener attached. Counted by the thread whose
     * compare-and-set made each transition, so the counts lag nothing that {@link #state()} shows.
     *
     * @param from the state left
     * @param to   the state entered
     * @return the count, 0 for a pair that has not happened (or cannot); an implementation that
     *         does not count transitions answers 0 for every pair
     * @throws NullPointerException when a state is null
     */
    default long transitions(State from, State to) {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        return 0;
    }

    /**
     * Rejects every call until {@link #reset()}. Permits granted before are late from now on.
     */
    void isolate();

    /**
     * Returns to CLOSED with a fresh window, from any state. Permits granted before are late
     * from now on.
     */
    void reset();
}
