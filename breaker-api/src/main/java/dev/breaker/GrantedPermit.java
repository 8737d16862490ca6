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
    final void record(Outcome outcome, long durationNanos) {
        record(outcome, durationNanos, 0, false);
    }

    /**
     * Records one outcome of this permit; {@code IGNORED} releases it.
     *
     * @param endNanos the breaker's ticker reading at the end of the call, when {@code endKnown}
     */
    abstract void record(Outcome outcome, long durationNanos, long endNanos, boolean endKnown);

    /**
     * The dependency asked for a pause (SPEC rule 19): open at once for {@code delayNanos}, if this
     * permit's generation is still current; otherwise the report is late.
     */
    abstract void backOff(long delayNanos);

    /** {@link #onResult}, from the execute path, which has just read the ticker at the end of the call. */
    final void onResultAt(Object result, Throwable failure, long durationNanos, long endNanos, boolean endKnown) {
        checked(durationNanos);
        Outcome outcome;
        long backOff = 0;
        try {
            outcome = breaker.classify(result, failure);
            if (outcome == Outcome.FAILURE) {
                backOff = breaker.backOffNanos(result, failure);
            }
        } catch (Throwable classifierFailed) { // anything, checked ones thrown sneakily included: the slot comes back
            release();
            DefaultCircuitBreaker.rethrow(classifierFailed);
            return;
        }
        if (backOff > 0) {
            backOff(backOff);
        } else {
            record(outcome, durationNanos, endNanos, endKnown);
        }
    }

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
        checked(durationNanos);
        long backOff;
        try {
            backOff = breaker.retryAfterOf(failure); // the caller's verdict: no classifier, but a RetryAfter is heard
        } catch (Throwable retryAfterFailed) { // a RetryAfter whose getter throws: the slot comes back
            release();
            DefaultCircuitBreaker.rethrow(retryAfterFailed);
            return;
        }
        if (backOff > 0) {
            backOff(backOff);
        } else {
            record(Outcome.FAILURE, durationNanos);
        }
    }

    @Override
    public final void onResult(Object result, Throwable failure, long durationNanos) {
        onResultAt(result, failure, durationNanos, 0, false);
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
