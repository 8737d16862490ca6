package dev.breaker.spi;

/**
 * The record of outcomes of one CLOSED era of a breaker, and its trip condition.
 *
 * <p>The breaker makes a fresh window (through its {@link WindowFactory}) each time it enters
 * CLOSED, so a window never has to be cleared while others write to it, and an outcome from an
 * earlier era can only reach a window that is already discarded.
 *
 * <p>Implementations are called concurrently from every request thread. {@link #record} is on
 * the hot path: it must take no lock and should allocate nothing.
 */
public interface Window {

    /**
     * Records one outcome and says whether the window's trip condition holds after it.
     * More than one thread may see {@code true} for the same condition; the breaker lets exactly
     * one of them open it.
     *
     * @param failure whether the call failed
     * @param slow    whether the call was slow (at or above the slow-call threshold)
     * @return true when the breaker should open
     */
    boolean record(boolean failure, boolean slow);

    /**
     * Records one outcome reported at {@code nowNanos}, a reading of the breaker's ticker that the
     * breaker has just made (the end of a timed call), so that a window that needs the time does
     * not read the ticker again. The default ignores the time and calls {@link #record}.
     *
     * @param failure  whether the call failed
     * @param slow     whether the call was slow
     * @param nowNanos the breaker's ticker reading when the outcome was reported
     * @return true when the breaker should open
     */
    default boolean recordAt(boolean failure, boolean slow, long nowNanos) {
        return record(failure, slow);
    }

    /**
     * The window's current counts, for metrics. May be a moment's approximation while writers run.
     *
     * @return the counts
     */
    WindowCounts counts();
}
