package dev.breaker;

/** The states of a circuit breaker. */
public enum State {
    /** Calls pass; outcomes are recorded in the window. */
    CLOSED,
    /** Calls are rejected without touching the dependency until the cooldown has elapsed. */
    OPEN,
    /** A counted number of probe calls pass; their outcomes decide between closing and opening. */
    HALF_OPEN,
    /** Manually isolated with {@link CircuitBreaker#isolate()}: every call is rejected until {@link CircuitBreaker#reset()}. */
    ISOLATED
}
