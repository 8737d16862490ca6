package dev.breaker;

import dev.breaker.spi.Window;

/**
 * The permit shared by every call of one CLOSED generation: handing it out allocates nothing.
 * Being shared, it cannot tell a second report from another call's first one.
 *
 * <p>It carries its era's window, so a report goes to the window without first reading the
 * breaker's current snapshot for it (the breaker still reads the snapshot, to tell a late report).
 * A permit kept after its era keeps that era's window reachable until it is dropped.
 */
final class ClosedPermit extends GrantedPermit {

    private final Window window;
    private final boolean windowCounts;

    ClosedPermit(DefaultCircuitBreaker breaker, long generation, Window window, boolean windowCounts) {
        super(breaker, generation);
        this.window = window;
        this.windowCounts = windowCounts;
    }

    @Override
    void record(Outcome outcome, long durationNanos, long endNanos, boolean endKnown) {
        breaker.recordClosed(generation, window, windowCounts, outcome, durationNanos, endNanos, endKnown);
    }

    @Override
    void backOff(long delayNanos) {
        breaker.backOffClosed(generation, delayNanos);
    }

    @Override
    public String toString() {
        return "Permit[CLOSED, generation " + generation + "]";
    }
}
