package dev.breaker;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A registry's open-share cap (SPEC rule 18): at most {@code max(1, floor(share * members))} of
 * its breakers may be not CLOSED because of trips at once; isolated ones count too.
 *
 * <p><b>Concurrency.</b> One {@link AtomicInteger} of places taken, shared by the registry's
 * breakers and touched only on their rare paths (a trip, an isolation, a close, a removal), never
 * on a call. A trip takes a place with a compare-and-set loop that never goes above the limit; an
 * isolation takes one whatever the limit (it is never refused). Each breaker's {@link Member}
 * says whether it holds a place, flipped by compare-and-set, so a place is given back exactly
 * once however a breaker leaves (closing, reset, removal, eviction, racing each other).
 */
final class OpenShare {

    private final double share;
    /** Places taken. */
    private final AtomicInteger taken = new AtomicInteger();
    /** Breakers under the cap (shadow breakers are not). */
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

    /** A breaker joins the cap. */
    Member join() {
        members.incrementAndGet();
        return new Member();
    }

    /** One breaker's membership: whether it holds a place, and whether it still belongs. */
    final class Member {
        private final AtomicBoolean holds = new AtomicBoolean();
        private final AtomicBoolean left = new AtomicBoolean();
        private final java.util.concurrent.atomic.AtomicLong announced = new java.util.concurrent.atomic.AtomicLong(-1);

        /**
         * For a trip: takes a place if the cap allows, or finds one already held.
         *
         * @return false when the cap is full (the trip is suppressed)
         */
        boolean tryTake() {
            if (left.get() || holds.get()) {
                return true;
            }
            for (int t = taken.get(); ; t = taken.get()) {
                if (t >= limit()) {
                    return false;
                }
                if (taken.compareAndSet(t, t + 1)) {
                    if (!holds.compareAndSet(false, true)) {
                        taken.decrementAndGet(); // another thread of this breaker took it meanwhile
                    } else if (left.get()) {
                        giveBack(); // removed meanwhile: leave() may have looked before the place was held
                    }
                    return true;
                }
            }
        }

        /** For an isolation: takes a place whatever the limit, unless one is held. */
        void take() {
            if (!left.get() && holds.compareAndSet(false, true)) {
                taken.incrementAndGet();
                if (left.get()) {
                    giveBack();
                }
            }
        }

        /** The breaker is CLOSED again (or its trip did not happen): gives its place back, once. */
        void giveBack() {
            if (holds.compareAndSet(true, false)) {
                taken.decrementAndGet();
            }
        }

        /** Removed from the registry: gives its place back and leaves the cap for good. */
        void leave() {
            if (left.compareAndSet(false, true)) {
                giveBack();
                members.decrementAndGet();
            }
        }

        /** @return whether this CLOSED era's suppression is yet to be announced (once per generation) */
        boolean firstSuppression(long generation) {
            return announced.getAndSet(generation) != generation;
        }

        int limit() {
            return OpenShare.this.limit();
        }

        int taken() {
            return OpenShare.this.taken();
        }
    }
}
