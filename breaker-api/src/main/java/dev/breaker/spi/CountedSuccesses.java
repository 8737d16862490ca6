package dev.breaker.spi;

import dev.breaker.internal.Stripes;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The plain successes a {@link CombiningWindow} took without its lock: a striped count that can
 * be closed.
 *
 * <p><b>Shared state.</b> A base count, and, once two threads were seen adding at once, an array
 * of padded cells at a fixed index per thread (as {@code LongAdder} does, so that a thread adding
 * alone pays one uncontended compare-and-set, and threads that collide add on lines of their own).
 *
 * <p><b>Closing.</b> When the breaker moves to another window, the window's count is handed to
 * the breaker's totals once, and a success that arrives later must be counted there instead. So
 * every add is a compare-and-set that fails on a closed count: {@link #close} sets the closed bit
 * of the base and of every cell (and puts a closed array in place of a missing one), each by an
 * atomic operation that returns the value it closed. An add either lands before that operation,
 * and is in the value {@link #close} returns, or finds the bit and reports that it did not count.
 * Nothing is counted twice or lost, without a lock.
 */
final class CountedSuccesses {

    private static final long CLOSED = Long.MIN_VALUE;
    /** Longs between two cells: a cache line of 64 bytes or two of them, as the neighbours prefetch in pairs. */
    private static final int PAD = 16;

    private static final VarHandle BASE;
    private static final VarHandle CELLS;
    private static final VarHandle CELL = MethodHandles.arrayElementVarHandle(long[].class);

    /** Cells that refuse every add: what a count closed before it had cells keeps. */
    private static final long[] CLOSED_CELLS = closedCells();

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            BASE = lookup.findVarHandle(CountedSuccesses.class, "base", long.class);
            CELLS = lookup.findVarHandle(CountedSuccesses.class, "cells", long[].class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * A count closed from the start: what a window retired before it ever counted a success
     * keeps, so that one it counts later goes to the breaker's totals.
     *
     * @return a new closed count
     */
    static CountedSuccesses closed() {
        CountedSuccesses c = new CountedSuccesses();
        c.close();
        return c;
    }

    @SuppressWarnings("unused") // accessed through BASE
    private volatile long base;

    private volatile long[] cells;

    /** Set by an add to a cell when it finds it clear; cleared by {@link #sum} before it reads the cells again. */
    private volatile boolean cellsChanged;

    /** The cells' sum when {@link #sum} last read them; for its caller, who holds the window's lock. */
    private long cellsSum;

    /**
     * Adds one success, unless the count was closed.
     *
     * @return false when closed: the caller counts it elsewhere
     */
    boolean increment() {
        long b = base;
        if (cells == null && b >= 0 && BASE.compareAndSet(this, b, b + 1)) {
            return true;
        }
        return incrementContended();
    }

    private boolean incrementContended() {
        long[] cs = cells;
        if (cs == null) {
            long b = base;
            if (b < 0) {
                return false; // closed: close() found no cells, and puts closed ones in place
            }
            CELLS.compareAndSet(this, null, new long[(Stripes.MAX + 1) * PAD]);
            cs = cells;
        }
        int at = (Stripes.index() + 1) * PAD;
        for (; ; ) {
            long v = (long) CELL.getVolatile(cs, at);
            if (v < 0) {
                return false;
            }
            if (CELL.compareAndSet(cs, at, v, v + 1)) {
                if (!cellsChanged) { // read first: under contention it is mostly up already
                    cellsChanged = true;
                }
                return true;
            }
        }
    }

    /**
     * The successes counted so far; exact when no add runs meanwhile, and never less than an
     * earlier call returned. For the holder of the window's lock (one caller at a time).
     *
     * <p>The cells are read again only when an add changed one since the last read: the window's
     * holder asks for every outcome it applies, and reading every cell each time cost a third of
     * a 2-thread run once the cells existed. An add sets {@code cellsChanged} after its
     * compare-and-set; this clears it before reading the cells: either the read sees the add, or
     * the add sees the flag clear and sets it for the next read (both are volatile).
     *
     * @return the count
     */
    long sum() {
        long[] cs = cells;
        if (cs == null) {
            return base & ~CLOSED;
        }
        if (cellsChanged) {
            cellsChanged = false;
            cellsSum = sumOf(cs);
        }
        return (base & ~CLOSED) + cellsSum;
    }

    private static long sumOf(long[] cells) {
        long s = 0;
        for (int at = PAD; at < cells.length; at += PAD) {
            s += (long) CELL.getVolatile(cells, at) & ~CLOSED;
        }
        return s;
    }

    /**
     * Closes the count: every later add is refused. Call once.
     *
     * @return the successes counted before it closed
     */
    long close() {
        long s = (long) BASE.getAndBitwiseOr(this, CLOSED) & ~CLOSED;
        long[] cs = cells;
        if (cs == null && CELLS.compareAndSet(this, null, CLOSED_CELLS)) {
            return s;
        }
        cs = cells;
        for (int at = PAD; at < cs.length; at += PAD) {
            s += (long) CELL.getAndBitwiseOr(cs, at, CLOSED) & ~CLOSED;
        }
        return s;
    }

    private static long[] closedCells() {
        long[] cs = new long[(Stripes.MAX + 1) * PAD];
        java.util.Arrays.fill(cs, CLOSED);
        return cs;
    }
}
