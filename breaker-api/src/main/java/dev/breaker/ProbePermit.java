package dev.breaker;

/** One HALF_OPEN probe. */
final class ProbePermit extends OneShotPermit {

    ProbePermit(DefaultCircuitBreaker breaker, long generation) {
        super(breaker, generation);
    }

    @Override
    public boolean isProbe() {
        return true;
    }

    @Override
    void record(Outcome outcome, long durationNanos, long endNanos, boolean endKnown) {
        breaker.recordProbe(this, outcome, durationNanos);
    }

    @Override
    void backOff(long delayNanos) {
        breaker.backOffProbe(this, delayNanos);
    }

    @Override
    public String toString() {
        return "Permit[HALF_OPEN probe, generation " + generation + "]";
    }
}
