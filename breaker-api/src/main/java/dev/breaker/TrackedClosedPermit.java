package dev.breaker;

import dev.breaker.spi.Window;

/**
 * A CLOSED permit of its own, made per call when the breaker was built with
 * {@code trackedPermits(true)}: costs one small object, and detects a second report exactly.
 */
final class TrackedClosedPermit extends OneShotPermit {

    private final Window window;
    private final boolean windowCounts;

    /** As {@link ClosedPermit}: the era's window travels with the permit. */
    TrackedClosedPermit(DefaultCircuitBreaker breaker, long generation, Window window, boolean windowCounts) {
        super(breaker, generation);
        this.window = window;
        this.windowCounts = windowCounts;
    }

    @Override
    void record(Outcome outcome, long durationNanos, long endNanos, boolean endKnown) {
        if (claimReport()) {
            breaker.recordClosed(generation, window, windowCounts, outcome, durationNanos, endNanos, endKnown);
        } else {
            breaker.duplicateReport();
        }
    }

    @Override
    void backOff(long delayNanos) {
        if (claimReport()) {
            breaker.backOffClosed(generation, delayNanos);
        } else {
            breaker.duplicateReport();
        }
    }

    @Override
    public String toString() {
        return "Permit[CLOSED, tracked, generation " + generation + "]";
    }
}
