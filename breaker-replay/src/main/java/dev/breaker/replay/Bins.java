package dev.breaker.replay;

/**
 * Per-interval totals for the picture, in a fixed amount of memory however long the trace: at
 * most {@link #MAX_BINS} bins of one width, which grows as the trace goes on. Bins start at whole
 * multiples of their width; the width starts at 1 microsecond and goes 2, 10, 20, 100, 200 ...
 * microseconds (each a multiple of the one before, alternately 2 and 5 times it), so when a time
 * falls past the last bin, neighbouring bins merge into wider ones and nothing counted is lost. A
 * trace is thus drawn with {@code MAX_BINS / 5} to {@code MAX_BINS} bins of a round width.
 *
 * <p>Holds {@code long} series (call counts) and {@code double} series (sums: milliseconds spent in
 * a state, durations), numbered by the caller.
 */
final class Bins {

    /** The most bins ever held. */
    static final int MAX_BINS = 400;

    private static final long FIRST_WIDTH = 1_000;

    private final long[][] counts;
    private final double[][] sums;
    private long width = FIRST_WIDTH;
    private boolean doubleNext = true;
    private long first = -1;
    private int used;

    /**
     * Makes empty bins.
     *
     * @param countSeries how many {@code long} series
     * @param sumSeries   how many {@code double} series
     */
    Bins(int countSeries, int sumSeries) {
        counts = new long[countSeries][MAX_BINS];
        sums = new double[sumSeries][MAX_BINS];
    }

    /**
     * The bin of a time, widening the bins until it fits; times must not go back before the first.
     *
     * @param nanos a time of the trace
     * @return the bin's index, 0 to {@code MAX_BINS - 1}
     */
    int at(long nanos) {
        if (first < 0) {
            first = nanos / width;
        }
        while (nanos / width - first >= MAX_BINS) {
            widen();
        }
        int bin = (int) (nanos / width - first);
        used = Math.max(used, bin + 1);
        return bin;
    }

    private void widen() {
        int factor = doubleNext ? 2 : 5;
        doubleNext = !doubleNext;
        long newFirst = first / factor;
        for (long[] series : counts) {
            for (int i = 0; i < MAX_BINS; i++) {
                long v = series[i];
                series[i] = 0;
                series[(int) ((first + i) / factor - newFirst)] += v;
            }
        }
        for (double[] series : sums) {
            for (int i = 0; i < MAX_BINS; i++) {
                double v = series[i];
                series[i] = 0;
                series[(int) ((first + i) / factor - newFirst)] += v;
            }
        }
        used = (int) ((first + used - 1) / factor - newFirst) + 1;
        first = newFirst;
        width *= factor;
    }

    /**
     * Adds to a count.
     *
     * @param series the series
     * @param bin    from {@link #at(long)}
     * @param n      how much
     */
    void add(int series, int bin, long n) {
        counts[series][bin] += n;
    }

    /**
     * Adds to a sum.
     *
     * @param series the series
     * @param bin    from {@link #at(long)}
     * @param value  how much
     */
    void addSum(int series, int bin, double value) {
        sums[series][bin] += value;
    }

    /**
     * Adds the milliseconds of {@code [from, to)} that fall in each bin to a sum series; both times
     * within the bins already made (no later than the latest given to {@link #at(long)}).
     *
     * @param series the series
     * @param from   nanoseconds
     * @param to     nanoseconds, at least {@code from}
     */
    void spread(int series, long from, long to) {
        long t = from;
        while (t < to) {
            int bin = (int) (t / width - first);
            long end = Math.min(
                    to, saturatedAdd((first + bin) * width, width)); // the last bin may end past Long.MAX_VALUE
            sums[series][bin] += (end - t) / 1e6;
            t = end;
        }
    }

    /** {@code a + b} for {@code b >= 0}, or {@link Long#MAX_VALUE} where it would overflow. */
    static long saturatedAdd(long a, long b) {
        long sum = a + b;
        return sum < a ? Long.MAX_VALUE : sum;
    }

    long count(int series, int bin) {
        return counts[series][bin];
    }

    double sum(int series, int bin) {
        return sums[series][bin];
    }

    /** The width of every bin, in nanoseconds. */
    long width() {
        return width;
    }

    /** Where bin 0 starts, in nanoseconds of the trace. */
    long start() {
        return Math.max(first, 0) * width;
    }

    /** Bins from 0 up to the last one a time fell in. */
    int used() {
        return used;
    }
}
