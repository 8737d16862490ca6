package dev.breaker;

import dev.breaker.internal.DefaultClassifier;
import dev.breaker.internal.Discovery;
import dev.breaker.spi.FailureClassifierProvider;
import java.util.Map;
import java.util.Objects;

/**
 * Judges a finished call: {@link Outcome#SUCCESS}, {@link Outcome#FAILURE} or
 * {@link Outcome#IGNORED}. Use it to keep a caller's own mistakes (a 404, a validation error)
 * from opening the breaker for everyone.
 *
 * <p>{@link Error}s never reach a classifier: the breaker rethrows them and releases the permit,
 * as if {@code IGNORED}.
 */
@FunctionalInterface
public interface FailureClassifier {

    /**
     * Classifies one call.
     *
     * @param result  what the call returned, or null (also null when it threw)
     * @param failure what the call threw, or null when it returned; never an {@link Error}
     * @return the outcome, never null
     */
    Outcome classify(Object result, Throwable failure);

    /**
     * For a call classified as a {@code FAILURE}: whether the dependency asked the breaker to back
     * off, and for how long (SPEC rule 19). The breaker then opens at once for that delay (capped
     * by the configured maximum) instead of recording an ordinary failure. The default answers
     * the delay of a {@link RetryAfter} exception and 0 otherwise; override it to read, say, the
     * {@code Retry-After} header of a 503 response returned as a result.
     *
     * @param result  what the call returned, or null
     * @param failure what it threw (the cause under future and stage wrappers), or null
     * @return the delay in nanoseconds; 0 or less for an ordinary failure
     */
    default long retryAfterNanos(Object result, Throwable failure) {
        return DefaultClassifier.retryAfterNanos(failure);
    }

    /**
     * The default (SPEC rule 10): a thrown exception is a {@code FAILURE}, an {@code Error}
     * is {@code IGNORED}, any returned value (null included) is a {@code SUCCESS}.
     *
     * @return the default classifier, a singleton
     */
    static FailureClassifier defaults() {
        return DefaultClassifier.INSTANCE;
    }

    /**
     * Finds a classifier by name through {@link java.util.ServiceLoader}. Built in:
     * {@code "default"} (no settings).
     *
     * @param name     the provider's name
     * @param settings the provider's settings
     * @return the classifier
     * @throws IllegalArgumentException when the name is unknown or taken twice, or a setting is bad
     */
    static FailureClassifier named(String name, Map<String, String> settings) {
        Objects.requireNonNull(settings, "settings");
        return Discovery.find(
                        FailureClassifierProvider.class, "failure classifier", name, FailureClassifierProvider::name)
                .create(settings);
    }
}
