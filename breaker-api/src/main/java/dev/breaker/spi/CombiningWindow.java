package dev.breaker.spi;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A window whose exact state has one writer at a time, fed by striped buffers: the base of the
 * count and time windows. Subclasses keep the state in plain fields and say how one outcome
 * changes it ({@link #applyLocked}); this class decides who applies what, and when.
 *
 * <p><b>Why.</b> A lock-free window that updates shared counters on every call makes every call
 * fight for a few cache lines as soon as two threads record at once, and reading several counters
 * at different moments can show a rate the window never held. A plain lock is exact but
 * serialises every call. Here one thread at a time (the holder of a try-lock) applies outcomes to
 * the exact state and decides; the other threads append theirs to a small buffer of their own
 * stripe and go on, and the holder applies the buffers before its own outcome.
 *
 * <p><b>When an outcome may wait in a buffer.</b> Only when it cannot matter yet. After every
 * drain the holder computes, from the exact state, how many more bad outcomes (failed or slow) the
 * window could take, together with any number of successes in any order, without its trip
 * condition possibly holding ({@link #safeBadOutcomesLocked}); each stripe may hold its share of
 * that margin. An outcome within its stripe's share is buffered: whatever order the pending
 * outcomes are applied in, no trip is missed, so deferring them decides nothing differently, and
 * a single thread's decisions stay exact at the deciding outcome. An outcome beyond the share
 * takes the lock and is decided at once, after everything buffered before it. When a healthy
 * window is already full of plain successes (the count window), one more plain success changes
 * nothing and is not written at all ({@link #plainSuccessIsNoOp}).
 *
 * <p><b>Contention.</b> When the lock is busy, an outcome that should be decided is buffered
 * anyway and marks the window urgent: the holder, after releasing, drains again if it sees the
 * mark, so nothing waits for a next call (the mark is written after the append, and the holder
 * reads it after its release, so one of the two sees the other). Such a decision is late by at
 * most the holder's critical section; a full buffer makes its writer wait for the lock, so at
 * most {@value #BUFFER} outcomes per stripe are ever pending (the lag of SPEC rule 8, documented
 * by each window). Never is an outcome lost, and at rest {@link #counts} drains first, so the
 * counts are exact.
 *
 * <p><b>Order.</b> A stripe's buffer is first in, first out; the holder drains every stripe before
 * applying its own outcome, so an outcome whose append finished before another record began is
 * applied first. Every state the window passes through is therefore one that an order of whole
 * outcomes, consistent with real time, produces: a trip is decided on counts the window held.
 *
 * <p><b>Memory.</b> One stripe exists from the start; more are made, up to twice the processors,
 * only when threads are seen colliding on a stripe or on the lock (as {@code LongAdder}'s cells
 * are). Threads pick a stripe by a hash of their id: no per-thread state, so millions of virtual
 * threads cost nothing more. A stripe is a 128-byte padded header and a {@value #BUFFER}-entry
 * buffer of ints.
 */
@Helper
public abstract class CombiningWindow implements Window {

    /** Outcome bit: the call failed. */
    protected static final int FAILED = 1;
    /** Outcome bit: the call was slow. */
    protected static final int SLOW = 2;
    /** The bits of an entry's stamp; stamps are kept modulo 2^{@value #STAMP_BITS}. */
    protected static final int STAMP_BITS = 28;
    /** Entries buffered per stripe at most. */
    public static final int BUFFER = 32;

    private static final int PRESENT = 4;
    private static final int STAMP_SHIFT = 3;
    private static final int STAMP_MASK = (1 << STAMP_BITS) - 1;
    private static final int MAX_STRIPES =
            Math.min(64, Integer.highestOneBit(Math.max(1, Runtime.getRuntime().availableProcessors()) * 2 - 1) << 1);

    private static final VarHandle LOCK;
    private static final VarHandle URGENT;
    private static final VarHandle FLAGS;
    /** Flag: a plain success changes nothing and nothing bad is pending. */
    private static final int HEALTHY = 1;
    /** Flag: a drain made for another thread found the trip condition; the next offer reports it. */
    private static final int TRIP_PENDING = 2;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            LOCK = lookup.findVarHandle(CombiningWindow.class, "lock", int.class);
            URGENT = lookup.findVarHandle(CombiningWindow.class, "urgent", int.class);
            FLAGS = lookup.findVarHandle(CombiningWindow.class, "flags", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    // read by every record, written only by the holder: kept apart from the lock's line
    private volatile Stripe[] stripes = {new Stripe()};
    /** Packed {@code (stamp << 32) | share}: each stripe's share of the safe bad outcomes, valid at that stamp; share -1: none. */
    private volatile long gate = ((long) Integer.MAX_VALUE << 32) | 0xFFFF_FFFFL;
    /** {@link #HEALTHY} and {@link #TRIP_PENDING}. */
    @SuppressWarnings("unused") // accessed through FLAGS
    private volatile int flags;

    @SuppressWarnings("unused")
    private long p01, p02, p03, p04, p05, p06, p07, p08;

    @SuppressWarnings("unused") // accessed through LOCK
    private volatile int lock;

    @SuppressWarnings("unused") // accessed through URGENT
    private volatile int urgent;

    /** Written only by the holder: a thread found the lock busy or collided on a stripe. */
    private boolean contended;

    @SuppressWarnings("unused")
    private long p11, p12, p13, p14, p15, p16, p17, p18;

    /** For subclasses. */
    protected CombiningWindow() {}

    // ---------------------------------------------------------------- for subclasses

    /**
     * Applies one outcome to the exact state; called by the lock holder only, one at a time.
     *
     * @param outcome {@link #FAILED} and {@link #SLOW} bits
     * @param stamp   the stamp the outcome was offered with, modulo 2^{@value #STAMP_BITS}
     * @return whether the trip condition holds after it
     */
    protected abstract boolean applyLocked(int outcome, int stamp);

    /**
     * How many more bad outcomes (failed, slow, or both) the exact state could take, together with
     * any number of plain successes in any order, without the trip condition possibly holding,
     * as long as the stamp stays {@link #stampLocked()}; negative when even a success could trip.
     * Called by the lock holder after it applied a batch.
     *
     * @return the margin
     */
    protected abstract int safeBadOutcomesLocked();

    /**
     * The stamp at which {@link #safeBadOutcomesLocked()} holds (the time window's current epoch;
     * always 0 for a window without time).
     *
     * @return the stamp, modulo 2^{@value #STAMP_BITS}
     */
    protected int stampLocked() {
        return 0;
    }

    /**
     * Whether one more plain success would leave the exact state as it is (a count window full of
     * plain successes); called by the holder after a batch.
     *
     * @return true when a plain success may be skipped
     */
    protected boolean plainSuccessIsNoOp() {
        return false;
    }

    /**
     * Offers one outcome: buffers it when it cannot matter yet, else applies it (after everything
     * buffered) and decides.
     *
     * @param outcome {@link #FAILED} and {@link #SLOW} bits
     * @param stamp   a stamp for the outcome (the time window's epoch), kept modulo 2^{@value #STAMP_BITS}
     * @return whether the trip condition held at some outcome this call applied
     */
    protected final boolean offer(int outcome, int stamp) {
        int f = (int) FLAGS.getVolatile(this);
        if (f != 0) {
            if ((f & TRIP_PENDING) != 0 && ((int) FLAGS.getAndBitwiseAnd(this, ~TRIP_PENDING) & TRIP_PENDING) != 0) {
                offerNow(outcome, stamp);
                return true; // found by a drain that had no caller to tell: this caller tells
            }
            if (outcome == 0 && (f & HEALTHY) != 0) {
                return false; // healthy: changes nothing; linearized here, before any bad outcome still being appended
            }
        }
        return offerNow(outcome, stamp);
    }

    private boolean offerNow(int outcome, int stamp) {
        int entry = ((stamp & STAMP_MASK) << STAMP_SHIFT) | PRESENT | outcome;
        long g = gate;
        int share = (int) g;
        if (share >= 0 && (int) (g >>> 32) == (stamp & STAMP_MASK)) {
            Stripe[] ss = stripes;
            Stripe s = ss[index(ss.length)];
            int result = s.offer(entry, outcome != 0, share);
            if (result == Stripe.TAKEN) {
                if (outcome != 0) {
                    leaveHealthy();
                }
                return false;
            }
            if (result == Stripe.COLLIDED) {
                contended = true; // a benign race: the holder reads it when it next holds the lock
            }
        }
        return decide(entry, outcome != 0);
    }

    /**
     * The exact state's counts after every pending outcome is applied; called under the lock.
     *
     * @return the counts
     */
    protected abstract WindowCounts countsLocked();

    /**
     * Drains every buffer, runs {@code before} (a time window moves to the present), then reads
     * the counts: exact at rest.
     *
     * @param before changes the exact state first, under the lock; may be a no-op
     * @return the counts
     */
    protected final WindowCounts drainedCounts(Runnable before) {
        while (!tryLock()) {
            Thread.onSpinWait();
        }
        WindowCounts c;
        try {
            if (drainAll()) {
                tripPending();
            }
            before.run();
            publish();
            c = countsLocked();
        } finally {
            release();
        }
        return c;
    }

    /**
     * Runs {@code action} as the lock holder, after draining every buffer, then publishes the new
     * margins: for a subclass that must change the exact state for a reason other than an outcome
     * (time passing).
     *
     * @param action changes the exact state
     * @return whether the trip condition held at some outcome drained
     */
    protected final boolean whileHolding(Runnable action) {
        while (!tryLock()) {
            Thread.onSpinWait();
        }
        try {
            boolean trips = drainAll();
            action.run();
            publish();
            return trips;
        } finally {
            release();
        }
    }

    // ---------------------------------------------------------------- the lock path

    private boolean decide(int entry, boolean bad) {
        if (tryLock()) {
            boolean trips;
            try {
                trips = drainAll() | apply(entry);
                publish();
            } finally {
                release();
            }
            return trips;
        }
        // busy: buffer it anyway and have the holder look again before it leaves
        Stripe[] ss = stripes;
        Stripe s = ss[index(ss.length)];
        while (s.offer(entry, bad, Integer.MAX_VALUE) != Stripe.TAKEN) {
            if (tryLock()) { // a full buffer waits for the lock: the bound on what may be pending
                boolean trips;
                try {
                    trips = drainAll() | apply(entry);
                    publish();
                } finally {
                    release();
                }
                return trips;
            }
            Thread.onSpinWait();
        }
        if (bad) {
            leaveHealthy();
        }
        URGENT.setVolatile(this, 1);
        if (tryLock()) { // the holder left meanwhile: decide it here
            boolean trips;
            try {
                trips = drainAll();
                publish();
            } finally {
                release();
            }
            return trips;
        }
        return false;
    }

    private boolean tryLock() {
        return (int) LOCK.getOpaque(this) == 0 && LOCK.compareAndSet(this, 0, 1);
    }

    /** Releases the lock; drains again while an urgent outcome came in during the hold. */
    private void release() {
        for (; ; ) {
            LOCK.setVolatile(this, 0);
            if ((int) URGENT.getVolatile(this) == 0 || !tryLock()) {
                return;
            }
            try {
                if (drainAll()) {
                    tripPending(); // nobody to tell now: the next offer reports it
                }
                publish();
            } catch (RuntimeException | Error e) {
                LOCK.setVolatile(this, 0);
                throw e;
            }
        }
    }

    private boolean apply(int entry) {
        return applyLocked(entry & (FAILED | SLOW), entry >>> STAMP_SHIFT);
    }

    private boolean drainAll() {
        if ((int) URGENT.getOpaque(this) != 0) {
            URGENT.setVolatile(this, 0);
        }
        boolean trips = false;
        for (Stripe s : stripes) {
            trips |= s.drain(this);
        }
        return trips;
    }

    /** After a batch: grow the stripes if threads collided, then publish each stripe's share and the health flag. */
    private void publish() {
        Stripe[] ss = stripes;
        if (contended) {
            contended = false;
            if (ss.length < MAX_STRIPES) {
                Stripe[] more = java.util.Arrays.copyOf(ss, ss.length * 2);
                for (int i = ss.length; i < more.length; i++) {
                    more[i] = new Stripe();
                }
                stripes = ss = more;
            }
        }
        int safe = safeBadOutcomesLocked();
        int share = safe < 0 ? -1 : safe / ss.length;
        long g = ((long) (stampLocked() & STAMP_MASK) << 32) | (share & 0xFFFF_FFFFL);
        if (gate != g) {
            gate = g;
        }
        if (plainSuccessIsNoOp()) {
            FLAGS.getAndBitwiseOr(this, HEALTHY);
            for (Stripe s : ss) {
                if (s.pendingBad() != 0) { // appended while we looked: not healthy after all
                    leaveHealthy();
                    break;
                }
            }
        } else {
            leaveHealthy();
        }
    }

    private void leaveHealthy() {
        if (((int) FLAGS.getOpaque(this) & HEALTHY) != 0) {
            FLAGS.getAndBitwiseAnd(this, ~HEALTHY);
        }
    }

    private void tripPending() {
        FLAGS.getAndBitwiseOr(this, TRIP_PENDING);
    }

    private static int index(int stripes) {
        if (stripes == 1) {
            return 0;
        }
        @SuppressWarnings("deprecation") // threadId() is Java 19+; getId() is the same number
        long id = Thread.currentThread().getId();
        long h = id * 0x9E3779B97F4A7C15L;
        return (int) (h >>> 40) & (stripes - 1);
    }

    /**
     * One stripe's buffer: a bounded queue with many producers (threads that hash here) and one
     * consumer (the lock holder). {@code tail} packs the number of entries ever claimed (low 32
     * bits) and of bad ones among them (high 32 bits), so one compare-and-set claims a slot and
     * counts it; the consumer publishes how far it has drained. A claimed slot is written after
     * the claim; the consumer stops at a slot still empty and takes it next time.
     */
    private static final class Stripe {
        static final int TAKEN = 0;
        static final int FULL = 1;
        static final int COLLIDED = 2;
        private static final int MASK = BUFFER - 1;
        private static final VarHandle TAIL;
        private static final VarHandle HEAD;
        private static final VarHandle ENTRIES = MethodHandles.arrayElementVarHandle(int[].class);

        static {
            try {
                MethodHandles.Lookup lookup = MethodHandles.lookup();
                TAIL = lookup.findVarHandle(Stripe.class, "tail", long.class);
                HEAD = lookup.findVarHandle(Stripe.class, "head", long.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        @SuppressWarnings("unused")
        private long p01, p02, p03, p04, p05, p06, p07;

        @SuppressWarnings("unused") // accessed through TAIL
        private volatile long tail;
        /** Packed like {@code tail}: entries and bad entries drained so far. */
        @SuppressWarnings("unused") // accessed through HEAD
        private volatile long head;

        private final int[] entries = new int[BUFFER];

        @SuppressWarnings("unused")
        private long p11, p12, p13, p14, p15, p16;

        /**
         * Appends an entry if there is room and, for a bad one, if fewer than {@code share} bad
         * ones are pending.
         */
        int offer(int entry, boolean bad, int share) {
            long t = (long) TAIL.getVolatile(this);
            long h = (long) HEAD.getVolatile(this);
            if ((int) t - (int) h >= BUFFER || bad && (int) (t >>> 32) - (int) (h >>> 32) >= share) {
                return FULL;
            }
            long next = t + 1 + (bad ? 1L << 32 : 0);
            if (!TAIL.compareAndSet(this, t, next)) {
                return COLLIDED;
            }
            ENTRIES.setRelease(entries, (int) t & MASK, entry);
            return TAKEN;
        }

        int pendingBad() {
            return (int) ((long) TAIL.getVolatile(this) >>> 32) - (int) ((long) HEAD.getVolatile(this) >>> 32);
        }

        /** Applies what is buffered, in order; holder only. */
        boolean drain(CombiningWindow window) {
            long h = (long) HEAD.getOpaque(this);
            int claimed = (int) (long) TAIL.getVolatile(this);
            int at = (int) h;
            int bad = 0;
            boolean trips = false;
            while (at != claimed) {
                int slot = at & MASK;
                int entry = (int) ENTRIES.getAcquire(entries, slot);
                if (entry == 0) {
                    break; // claimed, not yet written
                }
                entries[slot] = 0;
                trips |= window.apply(entry);
                if ((entry & (FAILED | SLOW)) != 0) {
                    bad++;
                }
                at++;
            }
            if (at != (int) h) {
                long drained = ((h >>> 32) + bad) << 32 | (at & 0xFFFF_FFFFL);
                HEAD.setRelease(this, drained); // after the zeroing, so a producer reusing a slot sees it empty
            }
            return trips;
        }
    }
}
