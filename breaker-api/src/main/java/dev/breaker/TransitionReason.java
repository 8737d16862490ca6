package dev.breaker;

/** Why a breaker changed state; carried by every {@link StateTransition}. */
public enum TransitionReason {
    /** CLOSED to OPEN: the window's trip condition held after an outcome was recorded. */
    WINDOW_TRIPPED,
    /** OPEN to HALF_OPEN: the first request at or after the end of the cooldown. */
    COOLDOWN_ELAPSED,
    /** HALF_OPEN to CLOSED: the half-open policy judged the probes healthy. */
    PROBES_SUCCEEDED,
    /** HALF_OPEN to OPEN: the half-open policy judged a probe outcome unhealthy. */
    PROBE_FAILED,
    /** HALF_OPEN to OPEN: the round reached no decision within the maximum half-open duration. */
    HALF_OPEN_TIMEOUT,
    /**
     * CLOSED or HALF_OPEN to OPEN: the dependency asked the breaker to back off (SPEC rule 19); the
     * cooldown is the delay it asked for, capped by the configured maximum, and the opening does
     * not count as a consecutive one.
     */
    BACK_OFF,
    /** Any state to ISOLATED: {@link CircuitBreaker#isolate()}. */
    ISOLATED,
    /** Any state to CLOSED: {@link CircuitBreaker#reset()}. */
    RESET
}
