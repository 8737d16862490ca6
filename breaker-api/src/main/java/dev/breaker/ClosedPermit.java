package dev.breaker;

/**
 * The permit shared by every call of one CLOSED generation: handing it out allocates nothing.
 * Being shared, it cannot tell a second report from another call's first one.
 */
final class ClosedPermit extends GrantedPermit {

    ClosedPermit(DefaultCircuitBreaker breaker, long generation) {
        super(breaker, generation);
    }

    @Override
    void record(Outcome outcome, long durationNanos, long endNanos, boolean endKnown) {
        breaker.recordClosed(generation, outcome, durationNanos, endNanos, endKnown);
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
