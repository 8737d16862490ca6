package dev.breaker;

/**
 * Sees every call a breaker counts, as it is counted: outcomes, rejections and late results.
 * Unlike a {@link BreakerListener}, which receives event objects, an observer is called with
 * primitives and the breaker itself, so observing allocates nothing; a breaker with no observer
 * pays one null check per call.
 *
 * <p>Each call reaches exactly one method, once, as {@link BreakerMetrics}'s running totals count
 * it: {@link #onOutcome} for a success, a failure or a release (ignored), {@link #onRejected}
 * for a rejection, {@link #onLate} for an outcome its generation no longer wanted. A shadow
 * breaker's calls it would have rejected (SPEC rule 17) are rejections here, as in the metrics.
 *
 * <p><b>Where it runs.</b> On the calling thread, after the breaker has decided (the observer
 * never sees a state before the call's own effect on it), under no lock. It must be quick and
 * must not block: a counter increment, not a log line or a queue that can fill (the
 * {@code breaker-events} module's {@code Slf4jEventLogger} shows how to summarise rejections
 * without a line per call). An observer that throws is logged once per breaker and otherwise
 * ignored: it changes no decision and costs the caller nothing.
 *
 * <p><b>Order against events.</b> Observer calls happen on the calling threads, as calls settle;
 * {@link BreakerListener}s get transitions through the breaker's event delivery, possibly on
 * another thread and later. Nothing orders the two: a rejection by an OPEN breaker may reach an
 * observer after a listener has already heard of the transition out of OPEN. An observer that
 * groups calls by the state they met should use the {@code state} it is given, not the last
 * transition it heard of.
 *
 * <p>Every method does nothing by default; implement the ones wanted.
 */
public interface CallObserver {

    /**
     * A permitted call's outcome was counted.
     *
     * @param breaker       the breaker
     * @param outcome       {@code SUCCESS}, {@code FAILURE} (a back-off verdict included) or
     *                      {@code IGNORED} (the permit was released, or the classifier ignored it)
     * @param slow          at or above the breaker's slow-call threshold (false without one)
     * @param durationNanos how long the call took, or -1 when not known (a back-off verdict)
     */
    default void onOutcome(CircuitBreaker breaker, Outcome outcome, boolean slow, long durationNanos) {}

    /**
     * A request was rejected (or, by a shadow breaker, would have been).
     *
     * @param breaker the breaker
     * @param state   the state that rejected it: {@code OPEN}, {@code HALF_OPEN} (no probe left),
     *                {@code ISOLATED}, or {@code CLOSED} (shed while ramping up, SPEC rule 16)
     */
    default void onRejected(CircuitBreaker breaker, State state) {}

    /**
     * An outcome arrived after its generation ended; it decided nothing. A {@link LateResult}
     * event is published too, to listeners.
     *
     * @param breaker the breaker
     * @param outcome the outcome reported
     */
    default void onLate(CircuitBreaker breaker, Outcome outcome) {}
}
