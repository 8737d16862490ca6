package dev.breaker;

/**
 * The breaker moved from one state to another. Exactly one event is published per transition,
 * by the one thread whose compare-and-set performed it.
 *
 * @param breakerName the breaker's name
 * @param from        the state left
 * @param to          the state entered
 * @param generation  the generation the transition started (every transition starts a new one)
 * @param reason      why the transition happened
 * @param atNanos     the breaker's ticker reading when it happened
 */
public record StateTransition(
        String breakerName, State from, State to, long generation, TransitionReason reason, long atNanos)
        implements BreakerEvent {}
