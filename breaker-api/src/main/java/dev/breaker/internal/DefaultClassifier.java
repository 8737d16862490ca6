package dev.breaker.internal;

import dev.breaker.FailureClassifier;
import dev.breaker.Outcome;

/** SPEC rule 10: an exception is a failure, an error is ignored, a returned value is a success. */
public enum DefaultClassifier implements FailureClassifier {
    /** The singleton. */
    INSTANCE;

    @Override
    public Outcome classify(Object result, Throwable failure) {
        if (failure == null) {
            return Outcome.SUCCESS;
        }
        return failure instanceof Error ? Outcome.IGNORED : Outcome.FAILURE;
    }

    /**
     * The delay a {@link dev.breaker.RetryAfter} exception asks for.
     *
     * @param failure what the call threw, or null
     * @return the delay in nanoseconds (saturated), or 0 for none
     */
    public static long retryAfterNanos(Throwable failure) {
        if (!(failure instanceof dev.breaker.RetryAfter r)) {
            return 0;
        }
        java.time.Duration d = r.retryAfter();
        if (d == null || d.isNegative() || d.isZero()) {
            return 0;
        }
        return d.compareTo(Durations.MAX) >= 0 ? Long.MAX_VALUE : d.toNanos();
    }

    @Override
    public String toString() {
        return "default";
    }
}
