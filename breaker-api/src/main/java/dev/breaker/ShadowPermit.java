package dev.breaker;

/**
 * What a shadow breaker (SPEC rule 17) hands a call it would have rejected: a granted permit of
 * no generation, shared by all such calls (allocation-free), whose outcome is counted apart and
 * decides nothing.
 */
final class ShadowPermit extends GrantedPermit {

    ShadowPermit(DefaultCircuitBreaker breaker) {
        super(breaker, -1);
    }

    @Override
    void record(Outcome outcome, long durationNanos, long endNanos, boolean endKnown) {
        breaker.shadowOutcome(outcome);
    }

    @Override
    void backOff(long delayNanos) {
        breaker.shadowOutcome(Outcome.FAILURE); // it asked for a pause: a failure spared, deciding nothing
    }

    @Override
    public String toString() {
        return "Permit[shadow: would have been rejected]";
    }
}
