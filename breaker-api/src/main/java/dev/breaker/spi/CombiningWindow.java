package dev.breaker.spi;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicReferenceArray;

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
 * takes the lock and is decided at once, after everything buffered before it.
 *
 * <p><b>Healthy windows write nothing.</b> When the exact state would not change by one more
 * plain success (a count window full of plain successes, {@link #plainSuccessIsNoOp}), plain
 * successes are not written at all: each is ordered at its read of the health flag. That is
 * right only while no bad outcome is pending, or a thread's success could be ordered before its
 * own earlier failure. So before raising the flag the holder closes every stripe to bad
 * outcomes (a bit in the stripe's tail, set by compare-and-set only while none is pending); a
 * bad outcome then goes through the lock, and the holder that applies it lowers the flag before
 * it opens the stripes again. (Clearing the flag after appending, from the appender's side,
 * leaves an instant where a holder that raised it has not yet seen the append; the race
 * contract of the TCK caught that.)
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
 * <p><b>Order.</b> A thread always uses the same stripe, a stripe's buffer is first in, first
 * out, and the holder drains every stripe before applying its own outcome: each thread's
 * outcomes are applied in the thread's order, and a trip is decided on counts that an
 * interleaving of the threads' outcomes produces. Outcomes of different threads that were
 * buffered may be applied later than outcomes recorded after them by other threads, by at most
 * the buffer: that is the lag SPEC rule 8 allows, never an invented count.
 *
 * <p><b>Memory.</b> A thread's stripe is fixed by a hash of its id (no per-thread state, so
 * millions of virtual threads cost nothing more) among at most twice the processors, and made
 * when a thread first needs it: a window used by one thread has one stripe; each stripe is a
 * padded header and a {@value #BUFFER}-entry buffer of ints, about 280 bytes. A thread never moves
 * to another stripe, which keeps its outcomes in order.
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
    /**
     * The stripes, at a fixed index per thread (a hash of its id), made when first used: a
     * thread's outcomes always go to the same stripe, so its order is kept (a thread moved to
     * another stripe could have a later outcome drained before an earlier one).
     */
    private final AtomicReferenceArray<Stripe> stripes = new AtomicReferenceArray<>(MAX_STRIPES);
    /** Stripes made so far, for the shares; written by the holder. */
    private volatile int stripeCount;
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

    /** A thread made a stripe since the holder last published the shares: they need recomputing. */
    private volatile boolean stripesChanged;

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
            Stripe s = stripes.get(index());
            if (s != null && s.offer(entry, outcome != 0, share) == Stripe.TAKEN) {
                return false;
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
        Stripe s = stripeOf(index());
        for (; ; ) {
            int result = s.offer(entry, bad, Integer.MAX_VALUE);
            if (result == Stripe.TAKEN) {
                break;
            }
            // full, or closed to bad outcomes while the window is healthy: wait for the lock
            if (result != Stripe.COLLIDED && tryLock()) {
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
        for (int i = 0; i < MAX_STRIPES; i++) {
            Stripe s = stripes.get(i);
            if (s != null) {
                trips |= s.drain(this);
            }
        }
        return trips;
    }

    /** The stripe at {@code i}, made if it does not exist yet (then the shares are recomputed at the next publish). */
    private Stripe stripeOf(int i) {
        Stripe s = stripes.get(i);
        if (s == null) {
            stripes.compareAndSet(i, null, new Stripe()); // closed to bad outcomes until a holder opens it
            s = stripes.get(i);
            stripesChanged = true;
        }
        return s;
    }

    /** After a batch: make the holder's stripe if it has none, then publish each stripe's share and the health flag. */
    private void publish() {
        stripeOf(index());
        int count = stripeCount;
        if (stripesChanged) {
            stripesChanged = false;
            count = 0;
            for (int i = 0; i < MAX_STRIPES; i++) {
                if (stripes.get(i) != null) {
                    count++;
                }
            }
            stripeCount = count;
        }
        int safe = safeBadOutcomesLocked();
        int share = safe < 0 ? -1 : safe / Math.max(1, count);
        long g = ((long) (stampLocked() & STAMP_MASK) << 32) | (share & 0xFFFF_FFFFL);
        if (gate != g) {
            gate = g;
        }
        if (plainSuccessIsNoOp()) {
            if (((int) FLAGS.getOpaque(this) & HEALTHY) == 0 && closeAll()) {
                FLAGS.getAndBitwiseOr(this, HEALTHY);
            }
        } else {
            if (((int) FLAGS.getOpaque(this) & HEALTHY) != 0) {
                FLAGS.getAndBitwiseAnd(this, ~HEALTHY);
            }
            openAll(); // after the flag is down: no bad outcome is pending while the flag is up
        }
    }

    /**
     * Closes every stripe to bad outcomes, if none has one pending: then none can be appended
     * while the window is healthy, and a success skipped meanwhile can be behind no failure. False
     * (and every stripe open again) when some stripe has one.
     */
    private boolean closeAll() {
        for (int i = 0; i < MAX_STRIPES; i++) {
            Stripe s = stripes.get(i);
            if (s != null && !s.close()) {
                openAll();
                return false;
            }
        }
        return true;
    }

    private void openAll() {
        for (int i = 0; i < MAX_STRIPES; i++) {
            Stripe s = stripes.get(i);
            if (s != null) {
                s.open();
            }
        }
    }

    private void tripPending() {
        FLAGS.getAndBitwiseOr(this, TRIP_PENDING);
    }

    /** The calling thread's stripe index: fixed for the thread's life. */
    private static int index() {
        @SuppressWarnings("deprecation") // threadId() is Java 19+; getId() is the same number
        long id = Thread.currentThread().getId();
        long h = id * 0x9E3779B97F4A7C15L;
        return (int) (h >>> 40) & (MAX_STRIPES - 1);
    }

    /**
     * One stripe's buffer: a bounded queue with many producers (threads that hash here) and one
     * consumer (the lock holder). {@code tail} packs the entries ever claimed (low 32 bits,
     * modulo 2^32), the bad ones among them (30 bits, modulo 2^30) and a "closed to bad outcomes"
     * bit, so one compare-and-set claims a slot, counts it, and respects the bit; {@code head}
     * packs what the consumer has drained the same way. A claimed slot is written right after the
     * claim; a consumer that finds it still empty waits for the write (a thread's outcomes must be
     * applied in its order), as JCTools' MPSC queues do.
     */
    private static final class Stripe {
        static final int TAKEN = 0;
        static final int FULL = 1;
        static final int COLLIDED = 2;
        static final int CLOSED = 3;
        private static final int MASK = BUFFER - 1;
        private static final long POSITION = 0xFFFF_FFFFL;
        private static final int BAD_MASK = (1 << 30) - 1;
        private static final long NO_BAD = 1L << 62;
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

        /** Starts closed: a holder opens it at its next publish unless the window is healthy. */
        @SuppressWarnings("unused") // accessed through TAIL
        private volatile long tail = NO_BAD;

        @SuppressWarnings("unused") // accessed through HEAD
        private volatile long head;

        private final int[] entries = new int[BUFFER];

        @SuppressWarnings("unused")
        private long p11, p12, p13, p14, p15, p16;

        private static int bad(long packed) {
            return (int) (packed >>> 32) & BAD_MASK;
        }

        private static long pack(int position, int bad, long flags) {
            return (position & POSITION) | ((long) (bad & BAD_MASK) << 32) | flags;
        }

        /**
         * Appends an entry if there is room and, for a bad one, if the stripe is open to bad
         * outcomes and fewer than {@code share} are pending.
         */
        int offer(int entry, boolean isBad, int share) {
            long t = (long) TAIL.getVolatile(this);
            long h = (long) HEAD.getVolatile(this);
            if ((int) t - (int) h >= BUFFER) {
                return FULL;
            }
            int badCount = bad(t);
            if (isBad) {
                if ((t & NO_BAD) != 0) {
                    return CLOSED;
                }
                if (((badCount - bad(h)) & BAD_MASK) >= share) {
                    return FULL;
                }
                badCount++;
            }
            if (!TAIL.compareAndSet(this, t, pack((int) t + 1, badCount, t & NO_BAD))) {
                return COLLIDED;
            }
            ENTRIES.setRelease(entries, (int) t & MASK, entry);
            return TAKEN;
        }

        /** Closes the stripe to bad outcomes if none is pending; holder only. */
        boolean close() {
            for (; ; ) {
                long t = (long) TAIL.getVolatile(this);
                if ((t & NO_BAD) != 0) {
                    return true;
                }
                if (((bad(t) - bad((long) HEAD.getVolatile(this))) & BAD_MASK) != 0) {
                    return false;
                }
                if (TAIL.compareAndSet(this, t, t | NO_BAD)) {
                    return true;
                }
            }
        }

        /** Opens the stripe to bad outcomes again; holder only. */
        void open() {
            for (; ; ) {
                long t = (long) TAIL.getVolatile(this);
                if ((t & NO_BAD) == 0 || TAIL.compareAndSet(this, t, t & ~NO_BAD)) {
                    return;
                }
            }
        }

        /** Applies what is buffered, in order; holder only. */
        boolean drain(CombiningWindow window) {
            long h = (long) HEAD.getOpaque(this);
            int claimed = (int) (long) TAIL.getVolatile(this);
            int at = (int) h;
            int drainedBad = 0;
            boolean trips = false;
            while (at != claimed) {
                int slot = at & MASK;
                int entry = (int) ENTRIES.getAcquire(entries, slot);
                for (int spins = 0; entry == 0; spins++) {
                    // claimed, not yet written: its writer is between two instructions. Skipping it
                    // would let a later outcome of the same thread be applied first.
                    if (spins < 256) {
                        Thread.onSpinWait();
                    } else {
                        Thread.yield(); // the writer was preempted there
                    }
                    entry = (int) ENTRIES.getAcquire(entries, slot);
                }
                entries[slot] = 0;
                trips |= window.apply(entry);
                if ((entry & (FAILED | SLOW)) != 0) {
                    drainedBad++;
                }
                at++;
            }
            if (at != (int) h) {
                // after the zeroing, so a producer reusing a slot finds it empty
                HEAD.setRelease(this, pack(at, bad(h) + drainedBad, 0));
            }
            return trips;
        }
    }
}
