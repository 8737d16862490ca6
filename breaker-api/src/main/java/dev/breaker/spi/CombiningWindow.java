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
 * <p><b>Two modes.</b> While one thread at a time records, every outcome takes the lock and is
 * applied at once: one uncontended compare-and-set, no buffer. The first thread that finds the
 * lock busy switches the window to buffering (below); a long run of holds that found no other
 * thread's entries switches it back.
 *
 * <p><b>When an outcome may wait in a buffer.</b> Only when it cannot matter yet. After every
 * batch the holder computes, from the exact state, how many more bad outcomes (failed or slow) the
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
 * anyway and raises the urgent bit of the flags word, which every offer reads: the next offer,
 * by any thread, takes the lock path and drains it, and a holder drains again before it leaves
 * if it sees the bit. So such a decision is late by at most one outcome; a full buffer makes its
 * writer wait for the lock, so at most {@value #BUFFER} outcomes per stripe are ever pending
 * (the lag of SPEC rule 8, documented by each window). No outcome is lost, and at rest
 * {@link #drainedCounts} drains first, so the counts are exact.
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
 * when a thread first needs it: a window used by one thread has one stripe. A thread never moves
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
    public static final int BUFFER = 64;

    private static final int PRESENT = 4;
    private static final int STAMP_SHIFT = 3;
    private static final int STAMP_MASK = (1 << STAMP_BITS) - 1;
    private static final int MAX_STRIPES =
            Math.min(64, Integer.highestOneBit(Math.max(1, Runtime.getRuntime().availableProcessors()) * 2 - 1) << 1);

    /** Flag: a plain success changes nothing and nothing bad is pending. */
    private static final int HEALTHY = 1;
    /** Flag: a drain made for another thread found the trip condition; the next offer reports it. */
    private static final int TRIP_PENDING = 2;
    /** Flag: an outcome that should be decided was buffered while the lock was busy. */
    private static final int URGENT = 4;

    private static final VarHandle LOCK;
    private static final VarHandle FLAGS;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            LOCK = lookup.findVarHandle(CombiningWindow.class, "lock", int.class);
            FLAGS = lookup.findVarHandle(CombiningWindow.class, "flags", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * The stripes, at a fixed index per thread (a hash of its id), made when first used: a
     * thread's outcomes always go to the same stripe, so its order is kept (a thread moved to
     * another stripe could have a later outcome drained before an earlier one).
     */
    private final AtomicReferenceArray<Stripe> stripes = new AtomicReferenceArray<>(MAX_STRIPES);
    /** Packed {@code (stamp << 32) | share}: each stripe's share of the safe bad outcomes, valid at that stamp; -1: none. */
    private volatile long gate = ((long) Integer.MAX_VALUE << 32) | 0xFFFF_FFFFL;
    /** {@link #HEALTHY}, {@link #TRIP_PENDING} and {@link #URGENT}. */
    @SuppressWarnings("unused") // accessed through FLAGS
    private volatile int flags;
    /** Set by a thread that made a stripe; the holder then refreshes {@link #known}. */
    private volatile boolean stripesChanged;

    @SuppressWarnings("unused") // accessed through LOCK
    private volatile int lock;

    /**
     * True while threads are seen colliding: outcomes are buffered within their margins. False
     * (the start) while one thread at a time records: every outcome takes the lock and is applied
     * at once, and the gate allows no buffering, so no margin needs upkeep.
     */
    private volatile boolean buffering;

    // holder-only state: plain fields, ordered by the lock
    /** Holds in a row that found no other thread's entries; enough of them end the buffering mode. */
    private int quietHolds;
    /** Whether the window ever buffered: then a stale append may still come, and holders drain their own stripe. */
    private boolean everBuffered;
    /** The stripes made so far, as the holder last saw them. */
    private Stripe[] known = new Stripe[0];
    /** Whether the holder declared the window healthy (stripes closed to bad outcomes). */
    private boolean declaredHealthy;
    /** The last share published, to publish only changes. */
    private long lastGate = Long.MIN_VALUE;

    /** For subclasses. */
    protected CombiningWindow() {}

    /**
     * Whether outcomes are being buffered (threads were seen colliding); for tests and metrics.
     *
     * @return true in the buffering mode
     */
    public final boolean isBuffering() {
        return buffering;
    }

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
     * Called by the lock holder after every batch: keep it cheap (a conservative, smaller answer
     * is always allowed).
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
     * The exact state's counts after every pending outcome is applied; called under the lock.
     *
     * @return the counts
     */
    protected abstract WindowCounts countsLocked();

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
        int entry = ((stamp & STAMP_MASK) << STAMP_SHIFT) | PRESENT | outcome;
        if (f != 0) {
            if ((f & TRIP_PENDING) != 0 && ((int) FLAGS.getAndBitwiseAnd(this, ~TRIP_PENDING) & TRIP_PENDING) != 0) {
                decide(entry, outcome != 0);
                return true; // found by a drain that had no caller to tell: this caller tells
            }
            if ((f & URGENT) != 0) {
                return decide(entry, outcome != 0); // an outcome waits for a decision: take the lock path
            }
            if (outcome == 0 && (f & HEALTHY) != 0) {
                return false; // healthy: changes nothing; ordered here, and no bad outcome is pending
            }
        }
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

    /** The number of holds in a row without another thread's entries after which buffering stops. */
    private static final int QUIET_HOLDS = 4096;

    /**
     * Drains every buffer, runs {@code before} (a time window moves to the present), then reads
     * the counts: exact at rest.
     *
     * @param before changes the exact state first, under the lock; may be a no-op
     * @return the counts
     */
    protected final WindowCounts drainedCounts(Runnable before) {
        lockWaiting();
        WindowCounts c;
        try {
            if (drainAll()) {
                FLAGS.getAndBitwiseOr(this, TRIP_PENDING);
            }
            before.run();
            publish();
            c = countsLocked();
        } finally {
            release();
        }
        return c;
    }

    // ---------------------------------------------------------------- the lock path

    private boolean decide(int entry, boolean bad) {
        if (tryLock()) {
            return holdAndApply(entry);
        }
        // busy: threads collide. Buffer it anyway and raise the urgent bit, so the next offer or
        // the holder decides it; and have outcomes buffered from now on, within their margins
        if (!buffering) {
            buffering = true;
        }
        Stripe s = stripeOf(index());
        for (; ; ) {
            int result = s.offer(entry, bad, Integer.MAX_VALUE);
            if (result == Stripe.TAKEN) {
                break;
            }
            // full, or closed to bad outcomes while the window is healthy: wait for the lock
            if (result != Stripe.COLLIDED && tryLock()) {
                return holdAndApply(entry);
            }
            Thread.onSpinWait();
        }
        if (((int) FLAGS.getVolatile(this) & URGENT) == 0) { // read first: under contention it is mostly up already
            FLAGS.getAndBitwiseOr(this, URGENT);
        }
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

    private boolean holdAndApply(int entry) {
        boolean trips = false;
        try {
            // without buffering, entries reach a stripe only through the busy path, which raises
            // the urgent bit after appending: nothing to drain unless one of these says so
            if (buffering || ((int) FLAGS.getOpaque(this) & URGENT) != 0 || stripesChanged) {
                trips = drainAll();
            } else if (everBuffered) {
                // after buffering stopped, a thread that read the old gate may still append: the
                // holder's own earlier outcomes must be applied before this one
                Stripe mine = stripes.get(index());
                if (mine != null) {
                    trips = mine.drain(this);
                }
            }
            trips |= applyLocked(entry & (FAILED | SLOW), entry >>> STAMP_SHIFT);
            publish();
        } finally {
            release();
        }
        return trips;
    }

    private boolean tryLock() {
        return (int) LOCK.getOpaque(this) == 0 && LOCK.compareAndSet(this, 0, 1);
    }

    private void lockWaiting() {
        while (!tryLock()) {
            Thread.onSpinWait();
        }
    }

    /**
     * Releases the lock, then drains again while an urgent outcome came in during the hold. The
     * release needs no fence: an urgent outcome this check misses is seen by the next offer.
     */
    private void release() {
        for (; ; ) {
            LOCK.setRelease(this, 0);
            if (((int) FLAGS.getOpaque(this) & URGENT) == 0 || !tryLock()) {
                return;
            }
            try {
                if (drainAll()) {
                    FLAGS.getAndBitwiseOr(this, TRIP_PENDING); // nobody to tell now: the next offer reports it
                }
                publish();
            } catch (RuntimeException | Error e) {
                LOCK.setRelease(this, 0);
                throw e;
            }
        }
    }

    private boolean drainAll() {
        if (((int) FLAGS.getOpaque(this) & URGENT) != 0) {
            FLAGS.getAndBitwiseAnd(this, ~URGENT); // before draining: an outcome appended after is marked again
        }
        if (stripesChanged) {
            refreshKnown();
        }
        boolean trips = false;
        int drained = 0;
        for (Stripe s : known) {
            long before = s.drainedSoFar();
            trips |= s.drain(this);
            drained += (int) (s.drainedSoFar() - before);
        }
        lastDrained = drained;
        return trips;
    }

    /** Entries the last {@link #drainAll} applied (holder only). */
    private int lastDrained;

    private void refreshKnown() {
        stripesChanged = false;
        Stripe[] now = new Stripe[MAX_STRIPES];
        int n = 0;
        for (int i = 0; i < MAX_STRIPES; i++) { // one pass: stripes may be made meanwhile
            Stripe s = stripes.get(i);
            if (s != null) {
                now[n++] = s;
            }
        }
        known = java.util.Arrays.copyOf(now, n);
        if (!declaredHealthy) { // a new stripe starts closed; open it unless the window is declared healthy
            for (Stripe s : known) {
                s.open();
            }
        }
    }

    /** The stripe at {@code i}, made if it does not exist yet. */
    private Stripe stripeOf(int i) {
        Stripe s = stripes.get(i);
        if (s == null) {
            stripes.compareAndSet(i, null, new Stripe()); // closed to bad outcomes until a holder opens it
            s = stripes.get(i);
            stripesChanged = true;
        }
        return s;
    }

    /** After a batch: publish each stripe's share and the health of the window; holder only. */
    private void publish() {
        if (stripesChanged) {
            refreshKnown();
        }
        long g;
        if (buffering && stripes.get(index()) == null) {
            stripeOf(index()); // the holder's own stripe, so its next outcomes can be buffered
        }
        if (buffering) {
            if (lastDrained == 0 && ++quietHolds >= QUIET_HOLDS) {
                buffering = false; // one thread at a time again: back to taking the lock
            } else if (lastDrained != 0) {
                quietHolds = 0;
            }
        }
        if (buffering) {
            everBuffered = true;
            int safe = safeBadOutcomesLocked();
            int count = Math.max(1, known.length);
            g = ((long) (stampLocked() & STAMP_MASK) << 32)
                    | ((safe < 0 ? -1 : count == 1 ? safe : safe / count) & 0xFFFF_FFFFL);
        } else {
            g = 0xFFFF_FFFFL; // no buffering: every outcome takes the lock
        }
        if (g != lastGate) {
            lastGate = g;
            gate = g;
        }
        boolean healthy = plainSuccessIsNoOp();
        if (healthy != declaredHealthy) {
            if (healthy) {
                if (closeAll()) {
                    declaredHealthy = true;
                    FLAGS.getAndBitwiseOr(this, HEALTHY);
                }
            } else {
                declaredHealthy = false;
                FLAGS.getAndBitwiseAnd(this, ~HEALTHY);
                openAll(); // after the flag is down: no bad outcome is pending while the flag is up
            }
        }
    }

    /**
     * Closes every stripe to bad outcomes, if none has one pending: then none can be appended
     * while the window is healthy. False (and every stripe open again) when some stripe has one.
     */
    private boolean closeAll() {
        for (Stripe s : known) {
            if (!s.close()) {
                openAll();
                return false;
            }
        }
        return true;
    }

    private void openAll() {
        for (Stripe s : known) {
            s.open();
        }
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

        /** Starts closed: a holder opens it at its next batch unless the window is healthy. */
        @SuppressWarnings("unused") // accessed through TAIL
        private volatile long tail = NO_BAD;

        @SuppressWarnings("unused") // accessed through HEAD
        private volatile long head;

        private final int[] entries = new int[BUFFER];

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

        /** Entries drained so far, modulo 2^32; holder only. */
        long drainedSoFar() {
            return (int) (long) HEAD.getOpaque(this) & POSITION;
        }

        /** Applies what is buffered, in order; holder only. */
        boolean drain(CombiningWindow window) {
            long h = (long) HEAD.getOpaque(this);
            int claimed = (int) (long) TAIL.getVolatile(this);
            int at = (int) h;
            if (at == claimed) {
                return false;
            }
            int drainedBad = 0;
            boolean trips = false;
            do {
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
                int outcome = entry & (FAILED | SLOW);
                trips |= window.applyLocked(outcome, entry >>> STAMP_SHIFT);
                if (outcome != 0) {
                    drainedBad++;
                }
                at++;
            } while (at != claimed);
            // after the zeroing, so a producer reusing a slot finds it empty
            HEAD.setRelease(this, pack(at, bad(h) + drainedBad, 0));
            return trips;
        }
    }
}
