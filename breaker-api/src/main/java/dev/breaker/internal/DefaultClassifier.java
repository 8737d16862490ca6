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

    @Override
    public String toString() {
        return "default";
    }
}
