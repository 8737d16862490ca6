package dev.breaker.spi;

/**
 * What a window holds at one moment.
 *
 * @param calls     outcomes buffered in the window
 * @param failures  of those, failed
 * @param slowCalls of those, slow (whether they succeeded or failed)
 */
public record WindowCounts(long calls, long failures, long slowCalls) {

    /**
     * The counts of an empty window.
     *
     * @return zero calls, a shared instance
     */
    public static WindowCounts empty() {
        return Empty.INSTANCE;
    }

    /** Holds the empty instance outside the record (Lincheck's model checker cannot snapshot a record's static fields). */
    private static final class Empty {
        static final WindowCounts INSTANCE = new WindowCounts(0, 0, 0);
    }

    /**
     * Validates the counts.
     *
     * @param calls     outcomes buffered in the window
     * @param failures  of those, failed
     * @param slowCalls of those, slow
     * @throws IllegalArgumentException when a count is negative or exceeds {@code calls}
     */
    public WindowCounts {
        if (calls < 0 || failures < 0 || slowCalls < 0 || failures > calls || slowCalls > calls) {
            throw new IllegalArgumentException("inconsistent window counts: calls=" + calls + ", failures=" + failures
                    + ", slowCalls=" + slowCalls);
        }
    }

    /**
     * The failure rate.
     *
     * @return failures / calls, or 0 when the window is empty
     */
    public double failureRate() {
        return calls == 0 ? 0.0 : (double) failures / calls;
    }

    /**
     * The slow-call rate.
     *
     * @return slowCalls / calls, or 0 when the window is empty
     */
    public double slowCallRate() {
        return calls == 0 ? 0.0 : (double) slowCalls / calls;
    }
}
