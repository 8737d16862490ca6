package dev.breaker.replay;

import java.util.List;

/**
 * What one configuration did to the trace.
 *
 * @param config              the configuration's file name
 * @param calls               rows of the trace
 * @param permitted           calls the breaker let through
 * @param rejected            calls it rejected
 * @param failures            failures in the trace, permitted or not
 * @param failuresReached     permitted failures: the dependency saw them
 * @param failuresAvoided     rejected failures: spared the dependency
 * @param successesRejected   rejected successes: calls that would have worked
 * @param timeToTripNanos     from the start of the bad spell to the breaker's first opening; -1
 *                            when it never opened. The bad spell is the stretch of the trace, ending
 *                            at the opening, in which bad calls (failures, and calls at or above the
 *                            configuration's slow-call threshold) most outnumber good ones: where the
 *                            trouble began, whatever scattered failures came before
 * @param timeToRecoverNanos  from the end of the bad spell (the last call, between the first opening
 *                            and the first close after it, at which bad calls had most outnumbered
 *                            good ones since the trace began) to that close: how long the breaker
 *                            stayed away from a dependency that had recovered; -1 when it never
 *                            opened or never closed again
 * @param notClosedNanos      how long the breaker was not CLOSED (OPEN or HALF_OPEN) within the trace
 * @param transitionCount     every transition, also those not kept
 * @param transitions         the first {@link Simulation#KEPT_TRANSITIONS} transitions
 */
record Summary(
        String config,
        long calls,
        long permitted,
        long rejected,
        long failures,
        long failuresReached,
        long failuresAvoided,
        long successesRejected,
        long timeToTripNanos,
        long timeToRecoverNanos,
        long notClosedNanos,
        long transitionCount,
        List<Transition> transitions) {}
