package dev.breaker.internal;

import dev.breaker.Ticker;
import dev.breaker.spi.Window;
import dev.breaker.spi.WindowCounts;
import dev.breaker.spi.WindowFactory;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The consecutive-failure window (SPEC rule 7): {@code threshold} failures in a row trip;
 * any success resets the run.
 *
 * <p><b>Concurrency.</b> One shared int, the length of the current failure run. A failure is an
 * atomic increment and trips when it brings the run to the threshold or past it. A success writes
 * zero only when the run is not already zero, so a healthy dependency costs each call one plain
 * volatile read and no write: no cache line bounces between request threads. A success that reads
 * zero and skips its write is ordered as if it happened at that read, so every history is one
 * that some interleaving of whole outcomes would give.
 */
public final class ConsecutiveWindow implements Window {

    private static final VarHandle RUN;

    static {
        try {
            RUN = MethodHandles.lookup().findVarHandle(ConsecutiveWindow.class, "run", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final int threshold;
    @SuppressWarnings("unused") // accessed through RUN
    private volatile int run;

    private ConsecutiveWindow(int threshold) {
        this.threshold = threshold;
    }

    /**
     * Makes a validated factory.
     *
     * @param threshold failures in a row that trip, at least 1
     * @return the factory
     * @throws IllegalArgumentException when threshold is below 1
     */
    public static WindowFactory factory(int threshold) {
        if (threshold < 1) {
            throw new IllegalArgumentException("threshold must be >= 1, was " + threshold);
        }
        return new Factory(threshold);
    }

    @Override
    public boolean record(boolean failure, boolean slow) {
        if (failure) {
            int now = (int) RUN.getAndAdd(this, 1) + 1;
            if (now < 0) { // cannot reach in practice: 2^31 failures without tripping
                RUN.setVolatile(this, threshold);
                now = threshold;
            }
            return now >= threshold;
        }
        if ((int) RUN.getVolatile(this) != 0) {
            RUN.setVolatile(this, 0);
        }
        return false;
    }

    @Override
    public WindowCounts counts() {
        long failures = (int) RUN.getVolatile(this);
        return new WindowCounts(failures, failures, 0);
    }

    private record Factory(int threshold) implements WindowFactory {
        @Override
        public Window create(Ticker ticker) {
            return new ConsecutiveWindow(threshold);
        }

        @Override
        public String describe() {
            return "consecutive(threshold=" + threshold + ")";
        }
    }
}
