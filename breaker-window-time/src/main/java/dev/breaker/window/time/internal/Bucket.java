package dev.breaker.window.time.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The counts of one time slice. Its epoch never changes: rotation replaces the whole bucket, so a
 * bucket is never cleared while someone writes to it.
 *
 * <p>Counters are striped: each thread adds to the cells of its own stripe, so two request
 * threads recording at once do not fight over one cache line. A stripe's three cells sit at
 * {@value #OFFSET} within a block of {@value #STRIDE} longs (128 bytes): at least 64 bytes lie
 * between two stripes' cells, and between stripe 0's cells and the array's header (whose length
 * every access reads for its bounds check), so no 64-byte line holds cells that two threads write,
 * or a written cell and the header, however the array is aligned. Reading sums the stripes.
 */
final class Bucket {

    static final int STRIDE = 16;
    static final int OFFSET = 8;
    private static final int CALLS = 0;
    private static final int FAILURES = 1;
    private static final int SLOW = 2;
    private static final VarHandle CELLS = MethodHandles.arrayElementVarHandle(long[].class);

    final long epoch;
    private final long[] cells;
    /** Set once, by the first failure or slow call of the bucket; read by every record. */
    private volatile boolean unhealthy;

    Bucket(long epoch, int stripes) {
        this.epoch = epoch;
        this.cells = new long[stripes * STRIDE];
    }

    void add(int stripe, boolean failure, boolean slow) {
        if ((failure || slow) && !unhealthy) {
            unhealthy = true; // before the counts, so a reader that sees a count of it sees the flag
        }
        int at = stripe * STRIDE + OFFSET;
        CELLS.getAndAdd(cells, at + CALLS, 1L);
        if (failure) {
            CELLS.getAndAdd(cells, at + FAILURES, 1L);
        }
        if (slow) {
            CELLS.getAndAdd(cells, at + SLOW, 1L);
        }
    }

    /**
     * Whether any failure or slow call was recorded here. False means the bucket's failure and
     * slow counts are zero, without reading the other threads' stripes.
     */
    boolean unhealthy() {
        return unhealthy;
    }

    /** Adds this bucket's counts into {@code sum} ({@code [calls, failures, slow]}). */
    void addTo(long[] sum) {
        for (int at = OFFSET; at < cells.length; at += STRIDE) {
            sum[CALLS] += (long) CELLS.getVolatile(cells, at + CALLS);
            sum[FAILURES] += (long) CELLS.getVolatile(cells, at + FAILURES);
            sum[SLOW] += (long) CELLS.getVolatile(cells, at + SLOW);
        }
    }

    long calls() {
        long n = 0;
        for (int at = OFFSET; at < cells.length; at += STRIDE) {
            n += (long) CELLS.getVolatile(cells, at + CALLS);
        }
        return n;
    }

    long failures() {
        long n = 0;
        for (int at = OFFSET; at < cells.length; at += STRIDE) {
            n += (long) CELLS.getVolatile(cells, at + FAILURES);
        }
        return n;
    }

    long slowCalls() {
        long n = 0;
        for (int at = OFFSET; at < cells.length; at += STRIDE) {
            n += (long) CELLS.getVolatile(cells, at + SLOW);
        }
        return n;
    }
}
