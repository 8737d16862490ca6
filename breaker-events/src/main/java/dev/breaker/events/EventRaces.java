package dev.breaker.events;

import dev.breaker.internal.race.Races;

/**
 * This module's {@link Races race points} (numbers from 100; {@code dev.breaker}'s are 1 to 99):
 * places between two steps of {@link AsyncDelivery}'s and {@link Slf4jEventLogger}'s lock-free
 * protocols where no caller's or plugin's code runs, so that only a point lets a test hold a thread
 * there, or act from it, while other threads move on. Each is one line, {@code Races.at(..)}, which
 * the JIT compiles away unless the JVM runs with {@code -Ddev.breaker.races=true}. Most sit on
 * rarely taken paths (a refusal, a close, a thread's end, a rescue); two are on busy ones because
 * no other place shows their interleaving: {@link #PUBLISH_OPEN} on every publication, and
 * {@link #ROUND_ACCOUNTED} once per round of the bus's own thread.
 */
final class EventRaces {

    private EventRaces() {}

    /**
     * {@code AsyncDelivery.publish}: a publisher found the bus open and has neither reserved a place
     * nor counted its event in {@code wip}; meanwhile a close may run to its end and the bus's own
     * thread end, leaving the count negative (gone) for this publisher to find.
     */
    static final int PUBLISH_OPEN = 100;

    /**
     * {@code AsyncDelivery.runOwnThread}: the bus's own thread has ended a round and subtracted what
     * it saw from {@code wip}, and has not yet read the count again; meanwhile publishers may count
     * new events (the one that moves the count from 0 unparks this thread) and a close may begin.
     */
    static final int ROUND_ACCOUNTED = 101;

    /**
     * {@code AsyncDelivery.discard}: the executor refused a drain task, and the thread that offered
     * it has dropped what waited and brought {@code wip} to 0, giving the drain up, and has not yet
     * returned; meanwhile a publisher may move the count from 0 and hand a new drain to the executor.
     */
    static final int DISCARDED = 102;

    /**
     * {@code AsyncDelivery.close}: the closer has given up waiting and set {@code stopped}, and has
     * not yet taken what is queued; meanwhile the drainer may take queued events itself (and must
     * count them as dropped, not deliver them).
     */
    static final int CLOSE_GAVE_UP = 103;

    /**
     * {@code AsyncDelivery.runOwnThread}: the bus's own thread, closed and idle, has set {@code wip}
     * to gone and has not yet returned, so it is still alive; meanwhile the closer may be joining it.
     */
    static final int THREAD_GONE = 104;

    /**
     * {@code Slf4jEventLogger.rescue}: a rescuer took counts from a retired record and has found or
     * made the breaker's current record, and has not yet added them to it; meanwhile a transition
     * to CLOSED may remove, retire and empty that record.
     */
    static final int RESCUE_TARGET = 105;
}
