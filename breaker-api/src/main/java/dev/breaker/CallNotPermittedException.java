package dev.breaker;

import dev.breaker.internal.Durations;

/**
 * A breaker rejected a call. Says which breaker, in which state, and when a probe will next be
 * allowed.
 *
 * <p>By default it carries no stack trace: building one costs far more than the rejection it
 * reports, and the trace would only point at the breaker. Turn traces on with
 * {@link CircuitBreakerBuilder#rejectionStackTraces(boolean)}.
 */
public final class CallNotPermittedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String breakerName;
    private final State state;
    private final long retryAfterNanos;

    /**
     * Makes the exception.
     *
     * @param breakerName     the rejecting breaker
     * @param state           its state when it rejected
     * @param retryAfterNanos nanoseconds until a probe may be allowed (0 or more), or -1 when
     *                        only {@code reset()} will (ISOLATED)
     * @param stackTrace      whether to fill in a stack trace
     * @throws IllegalArgumentException when {@code retryAfterNanos} is below -1
     */
    public CallNotPermittedException(String breakerName, State state, long retryAfterNanos, boolean stackTrace) {
        super(null, null, true, stackTrace); // suppression on: a failure on the way may ride along
        if (retryAfterNanos < -1) {
            throw new IllegalArgumentException("retryAfterNanos must be >= -1, was " + retryAfterNanos);
        }
        this.breakerName = breakerName;
        this.state = state;
        this.retryAfterNanos = retryAfterNanos;
    }

    /**
     * The rejecting breaker's name.
     *
     * @return the name
     */
    public String breakerName() {
        return breakerName;
    }

    /**
     * The state the breaker rejected in.
     *
     * @return OPEN, HALF_OPEN or ISOLATED; CLOSED when the breaker was ramping up after recovery
     *         and shed this call (SPEC rule 16)
     */
    public State state() {
        return state;
    }

    /**
     * Nanoseconds until a probe may be allowed: the rest of the cooldown when OPEN, the latest
     * end of the round when HALF_OPEN, -1 when ISOLATED; when CLOSED (ramping up), the rest of
     * the ramp, after which every call is admitted.
     *
     * @return the delay in nanoseconds, or -1
     */
    public long retryAfterNanos() {
        return retryAfterNanos;
    }

    @Override
    public String getMessage() {
        if (state == State.CLOSED) {
            return "circuit breaker '" + breakerName + "' is CLOSED and ramping up after recovery: this call was shed;"
                    + " every call admitted again in " + Durations.human(Math.max(0, retryAfterNanos));
        }
        String when = state == State.ISOLATED || retryAfterNanos < 0
                ? "only reset() closes it"
                : "next probe allowed in " + Durations.human(retryAfterNanos);
        return "circuit breaker '" + breakerName + "' is " + state + " and does not permit calls; " + when;
    }
}
