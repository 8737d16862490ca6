package dev.breaker.spi;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The length of the current run of consecutive failures, shared by all threads, for windows that
 * trip on "N failures in a row".
 *
 * <p><b>Concurrency.</b> One int. A failure is an atomic increment. A success writes zero only
 * when the run is not already zero, so while a dependency is healthy each call costs one volatile
 * read and no write, and no cache line bounces between request threads. A success that reads zero
 * and skips its write is ordered as if it happened at that read, so every history is one that an
 * interleaving of whole outcomes would give.
 */
@Helper
public final class FailureStreak {

    private static final VarHandle RUN;

    static {
        try {
            RUN = MethodHandles.lookup().findVarHandle(FailureStreak.class, "run", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final int threshold;

    @SuppressWarnings("unused") // accessed through RUN
    private volatile int run;

    /**
     * Makes an empty streak.
     *
     * @param threshold the run length that trips, at least 1
     * @throws IllegalArgumentException when threshold is below 1
     */
    public FailureStreak(int threshold) {
        if (threshold < 1) {
            throw new IllegalArgumentException("threshold must be >= 1, was " + threshold);
        }
        this.threshold = threshold;
    }

    /**
     * Records one outcome.
     *
     * @param failure whether the call failed
     * @return true when the run has reached the threshold
     */
    public boolean record(boolean failure) {
        if (failure) {
            int now = (int) RUN.getAndAdd(this, 1) + 1;
            if (now < 0) { // 2^31 failures without tripping: hold at the threshold
                RUN.setVolatile(this, threshold);
                return true;
            }
            return now >= threshold;
        }
        if ((int) RUN.getVolatile(this) != 0) {
            RUN.setVolatile(this, 0);
        }
        return false;
    }

    /**
     * The current run length.
     *
     * @return failures in a row so far
     */
    public int length() {
        return (int) RUN.getVolatile(this);
    }

    /**
     * The run length that trips.
     *
     * @return the threshold
     */
    public int threshold() {
        return threshold;
    }
}
