package dev.breaker;

/**
 * A snapshot of a breaker's state and counters. Window figures are those of the current
 * CLOSED era, or, while OPEN or HALF_OPEN, of the era that tripped. The running totals count
 * every call since the breaker was made, the same way for every window: each call once, as a
 * success, a failure, ignored (released, or classified {@code IGNORED}), rejected or late, so
 * that they add up to all calls (a second report on a permit is counted apart, in
 * {@code duplicateReports}).
 *
 * <p><b>What the window figures mean</b> ({@code bufferedCalls}, {@code failedCalls},
 * {@code slowCalls} and the two rates) depends on the window, because each holds what it decides
 * on and nothing else:
 * <ul>
 *   <li>{@code consecutive} (the default): the current run of consecutive failures. After 100
 *       successes and 1 failure it reads {@code bufferedCalls=1, failedCalls=1, failureRate=1.0}:
 *       one failure in a row, not a rate of calls. A success empties it. {@code slowCalls} is 0.
 *   <li>{@code count} (size N): the last N recorded outcomes (fewer until N have arrived), so the
 *       rates are those of the last N calls.
 *   <li>{@code time} (span T): the outcomes recorded in the buckets that still cover the last T,
 *       so the rates are those of roughly the last T.
 *   <li>a third party's window: whatever its {@link dev.breaker.spi.Window#counts()} says.
 * </ul>
 * A dashboard that wants the rate of all traffic, whatever the window, should use the running
 * totals ({@code totalFailures / (totalSuccesses + totalFailures)} over an interval), which every
 * window counts alike. While writers race, window figures may lag by the outcomes in flight
 * (SPEC rule 8); they are never invented.
 *
 * @param state            the state
 * @param generation       the generation (incremented by every transition)
 * @param bufferedCalls    outcomes held in the window
 * @param failedCalls      of those, failed
 * @param slowCalls        of those, slow
 * @param failureRate      failedCalls / bufferedCalls, 0 when empty
 * @param slowCallRate     slowCalls / bufferedCalls, 0 when empty
 * @param rejectedCalls    requests rejected since the breaker was built
 * @param lateResults      outcomes reported after their generation ended
 * @param duplicateReports second reports on a probe permit, ignored
 * @param probesAdmitted   HALF_OPEN: probe permits counted against this round's budget
 * @param probeSuccesses   HALF_OPEN: probes of this round that succeeded
 * @param droppedEvents    events no listener received because the backlog was full or the event
 *                         executor refused them (SPEC rule 13)
 * @param totalSuccesses     calls that succeeded, slow ones included, since the breaker was made
 * @param totalFailures      calls that failed (a back-off verdict included), slow ones included
 * @param totalSlowSuccesses of the successes, those at or above the slow-call threshold
 * @param totalSlowFailures  of the failures, those at or above the slow-call threshold
 * @param totalIgnored       calls released without an outcome
 * @param shadowSuccesses    a shadow breaker (SPEC rule 17): calls it would have rejected that
 *                           succeeded (counted as rejected, not in the totals above); 0 otherwise
 * @param shadowFailures     a shadow breaker: calls it would have rejected that failed, failures
 *                           it would have spared the dependency; 0 otherwise
 */
public record BreakerMetrics(
        State state,
        long generation,
        long bufferedCalls,
        long failedCalls,
        long slowCalls,
        double failureRate,
        double slowCallRate,
        long rejectedCalls,
        long lateResults,
        long duplicateReports,
        int probesAdmitted,
        int probeSuccesses,
        long droppedEvents,
        long totalSuccesses,
        long totalFailures,
        long totalSlowSuccesses,
        long totalSlowFailures,
        long totalIgnored,
        long shadowSuccesses,
        long shadowFailures) {}
