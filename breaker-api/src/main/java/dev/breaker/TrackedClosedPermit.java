package dev.breaker;

/**
 * A CLOSED permit of its own, made per call when the breaker was built with
 * {@code trackedPermits(true)}: costs one small object, and detects a second report exactly.
 */
final class TrackedClosedPermit extends OneShotPermit {

    TrackedClosedPermit(DefaultCircuitBreaker breaker, long generation) {
        super(breaker, generation);
    }

    @Override
    void record(Outcome outcome, long durationNanos, long endNanos, boolean endKnown) {
        if (claimReport()) {
            breaker.recordClosed(generation, outcome, durationNanos, endNanos, endKnown);
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
