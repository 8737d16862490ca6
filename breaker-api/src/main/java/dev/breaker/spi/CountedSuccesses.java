package dev.breaker.spi;

import dev.breaker.internal.Stripes;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The plain successes a {@link CombiningWindow} took without its lock: a striped count, kept per
 * stamp, that can be closed.
 *
 * <p><b>Shared state.</b> A base word, and, once two threads were seen adding at once, an array
 * of padded cells at a fixed index per thread (as {@code LongAdder} does, so that a thread adding
 * alone pays one uncontended compare-and-set, and threads that collide add on lines of their own).
 * Each word packs a closed bit, the low 32 bits of the stamp its adds are for, and a 31-bit count.
 * Only the holder of the window's lock writes anything but the counts: it makes the cells (an add
 * whose compare-and-set on the base failed asks for them, and is refused once, so that its caller
 * takes the lock), it moves the count to another stamp, and it sums.
 *
 * <p><b>Stamps.</b> An add names its stamp and is refused by a word that holds another one. A
 * time window, whose successes belong to the bucket of their epoch, moves the count to a new
 * epoch ({@link #restamp}) by swapping every word, by compare-and-set, to the new stamp and a
 * count of 0, and keeps the counts it took in {@link #sum}, which never falls. An add of the old
 * stamp either lands before the swap of its word, and is in the sum the holder takes right after
 * (so it is applied at its own stamp), or is refused and applied by its caller under the lock, at
 * its stamp. A stamp that matches only modulo 2^32 needs a thread that read the window's stamp and
 * then stalled while the window moved on by a multiple of 2^32 epochs at once: the caller compares
 * the whole stamp before it adds. A count window's stamps are all 0, and it never restamps. A word
 * whose count is full refuses too, and asks the holder's next {@link #sum} to move the counts out
 * (a restamp to the same stamp), so a count window never runs out.
 *
 * <p><b>Closing.</b> When the breaker moves to another window, the window's count is handed to
 * the breaker's totals once, and a success that arrives later must be counted there instead. So
 * every add is a compare-and-set that fails on a closed word: {@link #close} sets the closed bit
 * of the base and of every cell (and puts a closed array in place of a missing one), each by an
 * atomic operation that returns the value it closed. An add either lands before that operation,
 * and is in the value {@link #close} returns, or finds the bit and reports that it did not count.
 * Nothing is counted twice or lost, without a lock.
 */
final class CountedSuccesses {

    private static final long CLOSED = Long.MIN_VALUE;
    /** The count's bits in a word. */
    private static final long COUNT = (1L << 31) - 1;
    /** Where the low 32 bits of the stamp sit in a word. */
    private static final int STAMP_SHIFT = 31;
    /** Longs between two cells: a cache line of 64 bytes or two of them, as the neighbours prefetch in pairs. */
    private static final int PAD = 16;
    /** {@link #asks}: an add found its word's count full. */
    private static final int FULL = 1;
    /** {@link #asks}: two adds collided on the base, and there are no cells yet. */
    private static final int CELLS_WANTED = 2;

    private static final VarHandle BASE;
    private static final VarHandle ASKS;
    private static final VarHandle CELL = MethodHandles.arrayElementVarHandle(long[].class);

    /** Cells that refuse every add: what a count closed before it had cells keeps. */
    private static final long[] CLOSED_CELLS = closedCells();

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            BASE = lookup.findVarHandle(CountedSuccesses.class, "base", long.class);
            ASKS = lookup.findVarHandle(CountedSuccesses.class, "asks", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") // accessed through BASE
    private volatile long base;

    /** Made by the holder, each word at its stamp; null until an add asks. */
    private volatile long[] cells;

    /** Set by an add to a cell when it finds it clear; cleared by {@link #sum} before it reads the cells again. */
    private volatile boolean cellsChanged;

    /** What adds asked of the holder: {@link #FULL}, {@link #CELLS_WANTED}. */
    @SuppressWarnings("unused") // written through ASKS
    private volatile int asks;

    /** The cells' sum when {@link #sum} last read them; holder only. */
    private long cellsSum;

    /** The stamp's word with a count of 0, as the holder last gave it to every word; holder only. */
    private long word;

    /** The counts moved out of the words so far; holder only. */
    private long moved;

    /** What {@link #sum} gave at the last {@link #take}; holder only. */
    private long taken;

    /** A count of successes at stamp 0 (a count window's). */
    CountedSuccesses() {
        this(0);
    }

    /**
     * A count of successes at a stamp.
     *
     * @param stamp what adds must name to be counted, until {@link #restamp}
     */
    CountedSuccesses(long stamp) {
        this.word = wordOf(stamp);
        this.base = word;
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

    /** The word of a stamp, with a count of 0. */
    private static long wordOf(long stamp) {
        return (stamp & 0xFFFF_FFFFL) << STAMP_SHIFT;
    }

    /**
     * Adds one success at stamp 0.
     *
     * @return false when refused (see {@link #increment(long)})
     */
    boolean increment() {
        return increment(0);
    }

    /**
     * Adds one success at a stamp, unless the count was closed, is at another stamp, or must wait
     * for the holder (a full word, or cells wanted).
     *
     * @param stamp the success's stamp
     * @return false when refused: the caller applies it under the lock, or counts it elsewhere
     */
    boolean increment(long stamp) {
        long w = wordOf(stamp);
        long b = base;
        // one test for all three refusals: the add carries into the stamp's bits when the count is
        // full, and a closed word or one at another stamp differs there already
        if (cells == null && ((b + 1) & ~COUNT) == w && BASE.compareAndSet(this, b, b + 1)) {
            return true;
        }
        return incrementContended(w);
    }

    private boolean incrementContended(long w) {
        long[] cs = cells;
        if (cs == null) {
            // closed (close() found no cells, and puts closed ones in place), another stamp, full,
            // or a compare-and-set lost to another add: the holder makes cells
            long b = base;
            if ((b & ~COUNT) == w) {
                ask((b & COUNT) == COUNT ? FULL : CELLS_WANTED);
            }
            return false;
        }
        int at = (Stripes.index() + 1) * PAD;
        for (; ; ) {
            long v = (long) CELL.getVolatile(cs, at);
            if ((v & ~COUNT) != w) {
                return false; // closed, or another stamp
            }
            if ((v & COUNT) == COUNT) {
                ask(FULL);
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

    private void ask(int what) {
        if ((asks & what) == 0) { // read first: every refused add comes here
            ASKS.getAndBitwiseOr(this, what);
        }
    }

    /**
     * The successes counted so far, at any stamp; exact when no add runs meanwhile, and never
     * less than an earlier call returned. For the holder of the window's lock (one caller at a
     * time), which also serves here what adds asked for.
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
        if (asks != 0) {
            serveAsks();
        }
        long[] cs = cells;
        if (cs == null) {
            return moved + (base & COUNT);
        }
        if (cellsChanged) {
            cellsChanged = false;
            cellsSum = sumOf(cs);
        }
        return moved + (base & COUNT) + cellsSum;
    }

    /**
     * The successes counted since the last take (or since the start): {@link #sum} less what it
     * was then. For the holder of the window's lock.
     *
     * @return how many, never negative
     */
    long take() {
        long s = sum();
        long n = s - taken;
        taken = s;
        return n;
    }

    private void serveAsks() {
        int a = (int) ASKS.getAndSet(this, 0); // before serving: an add that asks again after is served by the next sum
        if ((a & CELLS_WANTED) != 0 && cells == null && base >= 0) {
            long[] cs = new long[(Stripes.MAX + 1) * PAD];
            java.util.Arrays.fill(cs, word); // at the stamp: adds use them as soon as they see them
            cells = cs;
        }
        if ((a & FULL) != 0) {
            restampWords(word);
        }
    }

    private static long sumOf(long[] cells) {
        long s = 0;
        for (int at = PAD; at < cells.length; at += PAD) {
            s += (long) CELL.getVolatile(cells, at) & COUNT;
        }
        return s;
    }

    /**
     * Moves the count to a new stamp: every word gets it, with a count of 0 (a closed word stays
     * closed), and the counts taken stay in {@link #sum}. An add of the old stamp lands before its
     * word's swap, and is in the next sum, or is refused. For the holder of the window's lock.
     *
     * @param stamp the stamp later adds must name
     */
    void restamp(long stamp) {
        long w = wordOf(stamp);
        if (w != word) {
            restampWords(w);
        }
    }

    private void restampWords(long w) {
        word = w;
        moved += swap(w);
        long[] cs = cells;
        if (cs != null) {
            for (int at = PAD; at < cs.length; at += PAD) {
                for (; ; ) {
                    long v = (long) CELL.getVolatile(cs, at);
                    if (v < 0 || v == w) {
                        break;
                    }
                    if (CELL.compareAndSet(cs, at, v, w)) {
                        moved += v & COUNT;
                        break;
                    }
                }
            }
            cellsChanged = true; // the cached sum of the cells is stale: the next sum reads them again
        }
    }

    /** Swaps the base to {@code w} unless closed; returns the count it held. */
    private long swap(long w) {
        for (; ; ) {
            long b = (long) BASE.getVolatile(this);
            if (b < 0 || b == w) {
                return 0;
            }
            if (BASE.compareAndSet(this, b, w)) {
                return b & COUNT;
            }
        }
    }

    /**
     * Closes the count: every later add is refused. Call once, holding the window's lock.
     *
     * @return the successes counted before it closed, at every stamp
     */
    long close() {
        long s = moved + ((long) BASE.getAndBitwiseOr(this, CLOSED) & COUNT);
        long[] cs = cells;
        if (cs == null) {
            cells = CLOSED_CELLS;
            return s;
        }
        for (int at = PAD; at < cs.length; at += PAD) {
            s += (long) CELL.getAndBitwiseOr(cs, at, CLOSED) & COUNT;
        }
        return s;
    }

    private static long[] closedCells() {
        long[] cs = new long[(Stripes.MAX + 1) * PAD];
        java.util.Arrays.fill(cs, CLOSED);
        return cs;
    }
}
