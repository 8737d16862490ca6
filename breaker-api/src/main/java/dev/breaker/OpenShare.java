package dev.breaker;

import dev.breaker.internal.race.Races;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A registry's open-share cap (SPEC rule 18): at most {@code max(1, floor(share * members))} of
 * its breakers may be not CLOSED because of trips at once; isolated ones count too.
 *
 * <p><b>Concurrency.</b> One {@link AtomicInteger} of places taken, shared by the registry's
 * breakers and touched only on their rare paths (a trip, an isolation, a close, a removal), never
 * on a call. A trip takes a place with a compare-and-set loop that never goes above the limit; an
 * isolation takes one whatever the limit (it is never refused). Each breaker's {@link Member}
 * says which era holds its place: the generation of the CLOSED era whose trip took it (or of the
 * isolation), or none. A breaker that enters CLOSED at generation {@code g} gives back a place
 * held for an era before {@code g}, and only such a place: a trip of the new era that ran between
 * that transition's compare-and-set and its giving back keeps the place it found (it takes it
 * over for its own era), and a trip or isolation that lost a race to a close finds the CLOSED
 * breaker afterwards and gives its own place back ({@link Member#settle}). Each place is given
 * back exactly once, by compare-and-set, however a breaker leaves (closing, reset, removal,
 * eviction, racing each other).
 */
final class OpenShare {

    private final double share;
    /** Places taken. */
    private final AtomicInteger taken = new AtomicInteger();
    /** Breakers under the cap and in the registry (shadow breakers are not; nor one not yet published). */
    private final AtomicInteger members = new AtomicInteger();

    OpenShare(double share) {
        this.share = share;
    }

    /** The most that may be not CLOSED now. */
    int limit() {
        return Math.max(1, (int) Math.floor(share * members.get()));
    }

    int taken() {
        return taken.get();
    }

    /**
     * A breaker joins the cap, before anyone can use it; it counts toward the limit once
     * {@linkplain Member#admit admitted} (published in the registry). A breaker that loses the race
     * to make its name never counts: while two were made, the limit would count one too many.
     */
    Member join() {
        return new Member();
    }

    private static final int JOINED = 0;
    private static final int COUNTED = 1;
    private static final int LEFT = 2;

    /** One breaker's membership: which era holds its place, and whether it still belongs. */
    final class Member {
        /** The generation of the era that holds this breaker's place, or -1 when it holds none. */
        private final java.util.concurrent.atomic.AtomicLong heldBy = new java.util.concurrent.atomic.AtomicLong(-1);

        /** The latest CLOSED era a back-off ended (SPEC rule 19: it holds no place), or -1. */
        private final java.util.concurrent.atomic.AtomicLong backedOff = new java.util.concurrent.atomic.AtomicLong(-1);

        /** 0: joined, not counted yet; 1: counted among the members; 2: left for good. */
        private final AtomicInteger phase = new AtomicInteger();

        private final java.util.concurrent.atomic.AtomicLong announced = new java.util.concurrent.atomic.AtomicLong(-1);

        /**
         * For a trip of the CLOSED era {@code generation}: takes a place if the cap allows, or
         * finds one already held (by this era, or by an earlier one whose closing has not given it
         * back yet: this era takes it over).
         *
         * @return false when the cap is full (the trip is suppressed)
         */
        boolean tryTake(long generation) {
            return hold(generation, true);
        }

        /** For an isolation of generation {@code generation}: takes a place whatever the limit, unless one is held. */
        void take(long generation) {
            hold(generation, false);
        }

        private boolean hold(long generation, boolean refusable) {
            for (; ; ) {
                if (phase.get() == LEFT) {
                    return true;
                }
                long held = heldBy.get();
                Races.at(Races.PLACE_READ);
                if (held >= generation) {
                    return true; // this era's own (a racing trip of it took it), or a later one's: this trip is stale
                }
                if (held >= 0) {
                    if (heldBy.compareAndSet(held, generation)) {
                        return true; // an ended era's place, not given back yet: it is this era's now
                    }
                    continue;
                }
                int t = taken.get();
                if (refusable && t >= limit()) {
                    return false;
                }
                if (!taken.compareAndSet(t, t + 1)) {
                    continue;
                }
                if (!heldBy.compareAndSet(-1, generation)) {
                    taken.decrementAndGet(); // another thread of this breaker took one meanwhile: look again
                    continue;
                }
                if (phase.get() == LEFT) { // removed meanwhile: leave() may have looked before the place was held
                    giveBackBefore(Long.MAX_VALUE);
                }
                return true;
            }
        }

        /**
         * The breaker entered CLOSED at {@code generation} (or its trip did not happen): gives back a
         * place held for an era before it, once; a place of this era or a later one stays.
         */
        void giveBackBefore(long generation) {
            for (long held = heldBy.get(); held >= 0 && held < generation; held = heldBy.get()) {
                if (heldBy.compareAndSet(held, -1)) {
                    taken.decrementAndGet();
                    return;
                }
            }
        }

        /**
         * After a trip or an isolation took a place: if the breaker is CLOSED now (a close won a race
         * and may have looked before the place was held), gives back what an earlier era holds.
         *
         * @param state      the breaker's state, read after the place was taken
         * @param generation the breaker's generation, of the same reading
         */
        void settle(State state, long generation) {
            if (state == State.CLOSED) {
                giveBackBefore(generation);
            }
        }

        /**
         * A back-off opened the breaker from the CLOSED era {@code generation}: no trip of that era
         * will happen, so a place a racing trip of it took is nobody's and goes back (here, or by
         * that trip when it finds the era ended: {@link #settleTrip}).
         */
        void backedOff(long generation) {
            backedOff.accumulateAndGet(generation, Math::max);
            giveBackExactly(generation);
        }

        /**
         * After a trip of the CLOSED era {@code era} made (or lost) its compare-and-set: gives back
         * what is no longer needed, seen from the breaker's state now.
         *
         * @param era        the generation of the CLOSED era the trip was decided in
         * @param state      the breaker's state, read after the compare-and-set
         * @param generation the breaker's generation, of the same reading
         */
        void settleTrip(long era, State state, long generation) {
            settle(state, generation);
            if (backedOff.get() >= era) { // a back-off ended the era (or a later one): the trip did not happen
                giveBackExactly(era);
            }
        }

        private void giveBackExactly(long generation) {
            if (heldBy.compareAndSet(generation, -1)) {
                taken.decrementAndGet();
            }
        }

        /** Published in the registry: counts toward the limit from now on (unless it left already). */
        void admit() {
            if (phase.compareAndSet(JOINED, COUNTED)) {
                members.incrementAndGet();
            }
        }

        /** Removed from the registry (or never published): gives its place back and leaves the cap for good. */
        void leave() {
            int before = phase.getAndSet(LEFT);
            if (before != LEFT) {
                giveBackBefore(Long.MAX_VALUE);
                if (before == COUNTED) {
                    members.decrementAndGet();
                }
            }
        }

        /**
         * @return whether this CLOSED era's suppression is yet to be announced (once per generation;
         *     a late one of an era before the last announced is not)
         */
        boolean firstSuppression(long generation) {
            return announced.getAndAccumulate(generation, Math::max) < generation;
        }

        int limit() {
            return OpenShare.this.limit();
        }

        int taken() {
            return OpenShare.this.taken();
        }
    }
}
