package dev.breaker;

/**
 * Permission for one call, from {@link CircuitBreaker#tryAcquire()}. If {@link #granted()},
 * make the call, then report its outcome exactly once with one of the reporting methods.
 *
 * <p>A permit remembers the generation it was granted in. An outcome reported after the breaker
 * has moved on (opened, closed, reset) is counted as late and decides nothing.
 *
 * <p>Reporting twice: a probe permit (granted in HALF_OPEN) detects a second report, ignores it
 * and counts it in {@link BreakerMetrics#duplicateReports()}. By default a permit granted in
 * CLOSED is shared by all the calls of that CLOSED generation so that the hot path allocates
 * nothing; a second report on it cannot be told from another call's report, so report once, or
 * build the breaker with {@link CircuitBreakerBuilder#trackedPermits(boolean)} to have every
 * CLOSED permit detect it too.
 *
 * <p>Reporting on a permit that was not granted throws {@link IllegalStateException}.
 */
public interface Permit {

    /**
     * Whether the call may go ahead.
     *
     * @return true when granted
     */
    boolean granted();

    /**
     * Reports a success.
     *
     * @param durationNanos how long the call took, at least 0
     * @throws IllegalArgumentException when the duration is negative (nothing is recorded)
     */
    void onSuccess(long durationNanos);

    /**
     * Reports a failure, whatever the classifier would say. A {@link RetryAfter} failure with a
     * positive delay opens the breaker for that delay (capped) instead (SPEC rule 19); should its
     * {@code retryAfter()} throw, the permit is released and that exception propagates.
     *
     * @param durationNanos how long the call took, at least 0
     * @param failure       what went wrong, or null when there was no exception (a 503, say)
     * @throws IllegalArgumentException when the duration is negative (nothing is recorded)
     */
    void onFailure(long durationNanos, Throwable failure);

    /**
     * Reports a finished call and lets the breaker's classifier judge it. An {@link Error}
     * releases the permit without an outcome.
     *
     * @param result        what the call returned, or null
     * @param failure       what it threw, or null
     * @param durationNanos how long it took, at least 0
     * @throws IllegalArgumentException when the duration is negative (nothing is recorded)
     */
    void onResult(Object result, Throwable failure, long durationNanos);

    /**
     * Gives the permit back without an outcome; in HALF_OPEN the probe slot is freed.
     */
    void release();

    /**
     * Whether this permit is a HALF_OPEN probe, whose outcome decides between closing and opening
     * (callers may, for example, give probes a shorter timeout).
     *
     * @return true for a probe
     */
    default boolean isProbe() {
        return false;
    }

    /**
     * The breaker generation this permit was granted in (compare with
     * {@link BreakerMetrics#generation()} and {@link LateResult#permitGeneration()} in logs).
     *
     * @return the generation, or -1 for a permit that was not granted
     */
    long generation();
}
