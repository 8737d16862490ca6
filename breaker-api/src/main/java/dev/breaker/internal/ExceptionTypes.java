package dev.breaker.internal;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * Which exception types a declarative classifier may list (SPEC rule 10): the checks that
 * {@code FailureClassifier.builder()} and the {@code "exceptions"} provider share, so that both
 * refuse the same types for the same reason.
 */
public final class ExceptionTypes {

    private ExceptionTypes() {}

    /**
     * Why no exception of {@code type} (or of a subtype) is ever judged by a classifier, or null
     * when some may be.
     *
     * @param type a {@link Throwable} type
     * @return the reason, to put in a message, or null
     */
    public static String neverClassified(Class<?> type) {
        if (Error.class.isAssignableFrom(type)) {
            return "an Error never reaches a classifier: the breaker rethrows it and releases the permit"
                    + " (SPEC rule 10)";
        }
        if (CancellationException.class.isAssignableFrom(type) || InterruptedException.class.isAssignableFrom(type)) {
            return "a cancellation or an interruption is the caller giving up: the breaker releases the permit"
                    + " without asking the classifier (SPEC rule 10)";
        }
        if (CompletionException.class.isAssignableFrom(type) || ExecutionException.class.isAssignableFrom(type)) {
            return "a future's or stage's wrapper is judged by its cause, which is what the classifier is shown"
                    + " (SPEC rule 10); list the cause's type";
        }
        return null;
    }

    /**
     * The first of {@code ignored} that covers {@code recorded} (the same type or a supertype), or
     * null. An exception of {@code recorded} then always matches both lists, ignore wins, and the
     * recorded type could never count as a failure.
     *
     * @param recorded a type to record
     * @param ignored  the types to ignore
     * @return the covering ignored type, or null
     */
    public static Class<?> coveringIgnored(Class<?> recorded, Iterable<? extends Class<?>> ignored) {
        for (Class<?> i : ignored) {
            if (i.isAssignableFrom(recorded)) {
                return i;
            }
        }
        return null;
    }
}
