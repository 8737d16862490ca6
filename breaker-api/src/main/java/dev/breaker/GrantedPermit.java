package dev.breaker;

/** A permit that was granted: checks the reported duration and hands the outcome to the breaker. */
abstract class GrantedPermit implements Permit {

    final DefaultCircuitBreaker breaker;
    final long generation;

    GrantedPermit(DefaultCircuitBreaker breaker, long generation) {
        this.breaker = breaker;
        this.generation = generation;
    }

    /** Records one outcome of this permit; {@code IGNORED} releases it. */
    abstract void record(Outcome outcome, long durationNanos);

    @Override
    public final boolean granted() {
        return true;
    }

    @Override
    public final long generation() {
        return generation;
    }

    @Override
    public final void onSuccess(long durationNanos) {
        record(Outcome.SUCCESS, checked(durationNanos));
    }

    @Override
    public final void onFailure(long durationNanos, Throwable failure) {
        record(Outcome.FAILURE, checked(durationNanos));
    }

    @Override
    public final void onResult(Object result, Throwable failure, long durationNanos) {
        checked(durationNanos);
        Outcome outcome;
        try {
            outcome = breaker.classify(result, failure);
        } catch (Throwable classifierFailed) { // anything, checked ones thrown sneakily included: the slot comes back
            release();
            DefaultCircuitBreaker.rethrow(classifierFailed);
            return;
        }
        record(outcome, durationNanos);
    }

    @Override
    public final void release() {
        record(Outcome.IGNORED, 0);
    }

    private static long checked(long durationNanos) {
        if (durationNanos < 0) {
            throw new IllegalArgumentException("durationNanos must be >= 0, was " + durationNanos);
        }
        return durationNanos;
    }
}
