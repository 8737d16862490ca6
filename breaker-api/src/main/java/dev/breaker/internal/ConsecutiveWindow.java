package dev.breaker.internal;

import dev.breaker.Ticker;
import dev.breaker.spi.FailureStreak;
import dev.breaker.spi.Window;
import dev.breaker.spi.WindowCounts;
import dev.breaker.spi.WindowFactory;

/**
 * The consecutive-failure window (SPEC rule 7): {@code threshold} failures in a row trip; any
 * success resets the run. Slow calls do not count. The concurrency lives in {@link FailureStreak}.
 */
public final class ConsecutiveWindow implements Window {

    private final FailureStreak streak;

    private ConsecutiveWindow(int threshold) {
        this.streak = new FailureStreak(threshold);
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

    /**
     * The threshold of a factory made by {@link #factory}, so that a config can be read back
     * into settings (configuration from properties inherits it).
     *
     * @param factory any window factory
     * @return its threshold, or 0 when it is not this window's
     */
    public static int thresholdOf(WindowFactory factory) {
        return factory instanceof Factory f ? f.threshold() : 0;
    }

    @Override
    public boolean record(boolean failure, boolean slow) {
        return streak.record(failure);
    }

    @Override
    public WindowCounts counts() {
        long run = streak.length();
        return new WindowCounts(run, run, 0);
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
