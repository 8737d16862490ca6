package dev.breaker;

/**
 * The breaker moved from one state to another. Exactly one event is published per transition,
 * by the one thread whose compare-and-set performed it.
 *
 * <p><b>The figures</b> ({@code calls}, {@code failureRate}, {@code slowCallRate}) are those the
 * transition was decided on:
 * <ul>
 *   <li>leaving CLOSED (a trip, a back-off, isolation, a reset): the window's counts at that
 *       moment, as {@link BreakerMetrics} reads them for that window;
 *   <li>OPEN to HALF_OPEN: the counts of the window that tripped (the cooldown, not the figures,
 *       decided it; they are repeated so that a log line stands on its own);
 *   <li>leaving HALF_OPEN: the round's probes, the deciding one included; a slow probe counts as
 *       a failed one there, so {@code slowCallRate} is {@link Double#NaN} (not measured);
 *   <li>leaving OPEN or ISOLATED by a reset or isolation: the figures the breaker froze when it
 *       last left CLOSED.
 * </ul>
 *
 * @param breakerName  the breaker's name
 * @param from         the state left
 * @param to           the state entered
 * @param generation   the generation the transition started (every transition starts a new one)
 * @param reason       why the transition happened
 * @param atNanos      the breaker's ticker reading when it happened
 * @param calls        outcomes the decision was made on (see above)
 * @param failureRate  of those, the share that failed, in [0, 1]; 0 when there were none
 * @param slowCallRate of those, the share that were slow, in [0, 1]; {@code NaN} for a half-open round
 */
public record StateTransition(
        String breakerName,
        State from,
        State to,
        long generation,
        TransitionReason reason,
        long atNanos,
        long calls,
        double failureRate,
        double slowCallRate)
        implements BreakerEvent {

    /**
     * Checks the parts every listener relies on.
     *
     * @param breakerName see the record
     * @param from see the record
     * @param to see the record
     * @param generation see the record
     * @param reason see the record
     * @param atNanos see the record
     * @param calls see the record
     * @param failureRate see the record
     * @param slowCallRate see the record
     * @throws NullPointerException when the name, a state or the reason is null
     */
    public StateTransition {
        java.util.Objects.requireNonNull(breakerName, "breakerName");
        java.util.Objects.requireNonNull(from, "from");
        java.util.Objects.requireNonNull(to, "to");
        java.util.Objects.requireNonNull(reason, "reason");
    }

    /**
     * A transition without figures (no calls, rates 0): for tests and hand-made events.
     *
     * @param breakerName the breaker's name
     * @param from        the state left
     * @param to          the state entered
     * @param generation  the generation the transition started
     * @param reason      why the transition happened
     * @param atNanos     the breaker's ticker reading when it happened
     */
    public StateTransition(
            String breakerName, State from, State to, long generation, TransitionReason reason, long atNanos) {
        this(breakerName, from, to, generation, reason, atNanos, 0, 0.0, 0.0);
    }
}
