package dev.breaker.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A breaker's running counts (calls by outcome, rejections, late and duplicate reports, a shadow
 * breaker's outcomes) in one object that many threads add to: what a
 * {@link java.util.concurrent.atomic.LongAdder} does for one counter, done for all of them at once.
 *
 * <p><b>Why one object.</b> Ten adders cost about 320 bytes per breaker (an object each, and the
 * holder), for counters that are nearly always uncontended. Here they cost one array of ten longs
 * until threads collide.
 *
 * <p><b>Shared state and protocol.</b> {@link #base} holds one long per counter. An add reads the
 * counter and compare-and-sets it, one atomic instruction while threads do not collide. The first
 * compare-and-set that fails (another thread added to the same base at the same moment) makes the
 * cells, and from then on every add goes to the cell of the adding thread's stripe
 * ({@link Stripes}: a fixed index per thread, so a virtual thread costs nothing), made by
 * compare-and-set on first use, with one atomic get-and-add that never fails. Each cell is padded
 * on both sides, so threads of different stripes write different cache lines. No lock: an add
 * never waits for another thread.
 *
 * <p><b>Reading.</b> A counter's value is its base plus its slot in every cell, each read once.
 * It is not a snapshot of a moment while adds go on, but every part only grows, so a read that
 * starts after another ended never sees less: counters read this way never go back.
 *
 * <p><b>Not final</b>, for the tests only: a test's subclass holds a thread inside {@link #add},
 * which is the one point of a rate window's busy path and of its lane hand-over where code outside
 * {@code CombiningWindow} runs, so that an interleaving there can be forced rather than hoped for.
 * Every other method is final. The package is not exported, and while no subclass is loaded the
 * JIT binds the calls as if the class were final.
 */
public class Totals {

    /** Calls that succeeded, not slow. The four call slots are the window outcome bits (1 failed, 2 slow). */
    public static final int FAST_SUCCESSES = 0;
    /** Calls that failed, not slow. */
    public static final int FAST_FAILURES = 1;
    /** Calls that succeeded, slow. */
    public static final int SLOW_SUCCESSES = 2;
    /** Calls that failed, slow. */
    public static final int SLOW_FAILURES = 3;
    /** Calls the classifier ignored, and permits released. */
    public static final int IGNORED = 4;
    /** Calls rejected. */
    public static final int REJECTED = 5;
    /** Results reported after their generation ended. */
    public static final int LATE = 6;
    /** Second reports of a permit. */
    public static final int DUPLICATES = 7;
    /** A shadow breaker's outcomes of calls it would have rejected: successes. */
    public static final int SHADOW_SUCCESSES = 8;
    /** ... and failures. */
    public static final int SHADOW_FAILURES = 9;

    private static final int SLOTS = 10;
    /** Longs before and after a cell's slots: 64 bytes each side keeps other stripes' cells off its cache lines. */
    private static final int PAD = 8;

    private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);
    private static final VarHandle CELL = MethodHandles.arrayElementVarHandle(long[][].class);
    private static final VarHandle CELLS;

    static {
        try {
            CELLS = MethodHandles.lookup().findVarHandle(Totals.class, "cells", long[][].class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final long[] base = new long[SLOTS];
    /** Null until threads collide on {@link #base}; then one padded cell per stripe, made on first use. */
    private volatile long[][] cells;

    /** Zero everywhere. */
    public Totals() {}

    /**
     * Adds one to a counter.
     *
     * @param slot one of the constants of this class
     */
    public final void increment(int slot) {
        add(slot, 1);
    }

    /**
     * Adds to a counter.
     *
     * @param slot one of the constants of this class
     * @param n    what to add, not negative
     */
    public void add(int slot, long n) {
        long[] b = base;
        long v;
        if (cells != null || !LONGS.compareAndSet(b, slot, v = (long) LONGS.getVolatile(b, slot), v + n)) {
            addContended(slot, n);
        }
    }

    /**
     * A call's outcome, in its slot.
     *
     * @param failed whether it failed
     * @param slow   whether it was slow
     */
    public final void record(boolean failed, boolean slow) {
        add((failed ? FAST_FAILURES : 0) | (slow ? SLOW_SUCCESSES : 0), 1);
    }

    private void addContended(int slot, long n) {
        long[][] cs = cells;
        if (cs == null) {
            CELLS.compareAndSet(this, null, new long[Stripes.MAX][]);
            cs = cells;
        }
        int i = Stripes.index();
        long[] c = (long[]) CELL.getVolatile(cs, i);
        if (c == null) {
            CELL.compareAndSet(cs, i, null, new long[PAD + SLOTS + PAD]);
            c = (long[]) CELL.getVolatile(cs, i);
        }
        LONGS.getAndAdd(c, PAD + slot, n);
    }

    /**
     * Adds the four call counters, by outcome, to {@code into}.
     *
     * @param into indexed {@link #FAST_SUCCESSES} to {@link #SLOW_FAILURES}
     */
    public final void addCalls(long[] into) {
        for (int slot = FAST_SUCCESSES; slot <= SLOW_FAILURES; slot++) {
            into[slot] += sum(slot);
        }
    }

    /**
     * A counter's value: every add that ended before this read began, and perhaps some that ran
     * meanwhile.
     *
     * @param slot one of the constants of this class
     * @return the sum
     */
    public final long sum(int slot) {
        long s = (long) LONGS.getVolatile(base, slot);
        long[][] cs = cells;
        if (cs != null) {
            for (int i = 0; i < cs.length; i++) {
                long[] c = (long[]) CELL.getVolatile(cs, i);
                if (c != null) {
                    s += (long) LONGS.getVolatile(c, PAD + slot);
                }
            }
        }
        return s;
    }
}
