package dev.breaker;

import dev.breaker.internal.DefaultClassifier;
import dev.breaker.internal.Discovery;
import dev.breaker.internal.ExceptionTypes;
import dev.breaker.spi.FailureClassifierProvider;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Judges a finished call: {@link Outcome#SUCCESS}, {@link Outcome#FAILURE} or
 * {@link Outcome#IGNORED}. Use it to keep a caller's own mistakes (a 404, a validation error)
 * from opening the breaker for everyone.
 *
 * <p>{@link Error}s never reach a classifier: the breaker rethrows them and releases the permit,
 * as if {@code IGNORED}.
 *
 * <p>Most classifiers need no code: {@link #builder()} lists the exceptions to record and to
 * ignore and the returned values that count as failures, as Resilience4j's and Failsafe's users
 * write them in their config:
 *
 * <pre>{@code
 * FailureClassifier classifier = FailureClassifier.builder()
 *     .recordExceptions(IOException.class, TimeoutException.class)
 *     .ignoreExceptions(FileNotFoundException.class)
 *     .failWhen(r -> r instanceof HttpResponse<?> response && response.statusCode() >= 500)
 *     .build();
 * }</pre>
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
     * Starts a declarative classifier: exceptions to record and to ignore, by type, and
     * predicates that count a returned value as a failure. See {@link Builder}.
     *
     * @return an empty builder; built as it is, it gives {@link #defaults()}
     */
    static Builder builder() {
        return new Builder();
    }

    /**
     * Finds a classifier by name through {@link java.util.ServiceLoader}. Built in:
     * {@code "default"} (no settings) and {@code "exceptions"}, the {@link #builder()}'s
     * exception lists in text: {@code record-exceptions} and {@code ignore-exceptions}, each
     * fully qualified class names (binary names, {@code Outer$Inner}) separated by commas, loaded
     * with the thread's context class loader, then with this library's. An unknown class, a class
     * that is not a {@link Throwable} and a type the builder refuses are
     * {@link IllegalArgumentException}s naming the setting and its value.
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

    /**
     * Builds a classifier from lists instead of code. The rules, in this order:
     *
     * <ol>
     * <li>A call that returned is a {@code FAILURE} when any {@link #failWhen} predicate matches
     *     its result (null included), otherwise a {@code SUCCESS}. Exception lists play no part.</li>
     * <li>A call that threw an exception of an {@link #ignoreExceptions ignored} type (subtypes
     *     included) is {@code IGNORED}: its permit is released with no outcome (a probe's slot
     *     comes back). Ignore wins over record when both match, as in Resilience4j.</li>
     * <li>Otherwise, when no type was given to {@link #recordExceptions}, every exception is a
     *     {@code FAILURE}, as by default. When some were, an exception of one of them (subtypes
     *     included) is a {@code FAILURE} and any other a {@code SUCCESS}: the dependency
     *     answered, with an answer the user does not count against it (a "not found", a
     *     validation error). This is what Resilience4j's {@code recordExceptions} and Failsafe's
     *     {@code handle} do; list a type in {@link #ignoreExceptions} to have it count for
     *     nothing instead.</li>
     * </ol>
     *
     * <p>The breaker shows a classifier the cause under {@link java.util.concurrent.ExecutionException}
     * and {@link java.util.concurrent.CompletionException} wrappers, on every path (SPEC rule 10), so
     * a wrapped {@code IOException} matches {@code IOException.class}. {@link Error}s, cancellations
     * and interruptions never reach a classifier; listing them (or a wrapper type) is refused.
     *
     * <p>Back-off (SPEC rule 19) is the default's: a call classified {@code FAILURE} whose exception
     * is a {@link RetryAfter} opens the breaker for its delay; one that is ignored, or not among
     * the recorded types, asks for nothing.
     *
     * <p>A predicate is user code: one that throws makes the classifier throw, and the breaker then
     * releases the permit and lets that exception propagate to the caller in place of the result
     * (as for any classifier that fails).
     *
     * <p>Every method adds to what was given before; an argument that is refused leaves the
     * builder unchanged. A builder is not thread-safe; what it builds is an immutable value, equal
     * to another built from the same types and predicates (predicates by their own
     * {@code equals}: a lambda by identity), whose {@code toString} names the types, such as
     * {@code classifier(record=[java.io.IOException], ignore=[], failWhen=1 predicate)}.
     */
    final class Builder {

        private final Set<Class<? extends Throwable>> record = new LinkedHashSet<>();
        private final Set<Class<? extends Throwable>> ignore = new LinkedHashSet<>();
        private final Set<Predicate<Object>> failWhen = new LinkedHashSet<>();

        Builder() {}

        /**
         * Exceptions that count as failures, subtypes included. Once any is given, an exception
         * of no recorded (and no ignored) type is a {@code SUCCESS}.
         *
         * @param types the exception types
         * @return this builder
         * @throws NullPointerException     when {@code types} or one of them is null
         * @throws IllegalArgumentException when a type can never reach a classifier: an
         *                                  {@link Error}, a {@link java.util.concurrent.CancellationException},
         *                                  an {@link InterruptedException}, a future's or stage's
         *                                  wrapper, or their subtypes
         */
        @SafeVarargs
        public final Builder recordExceptions(Class<? extends Throwable>... types) {
            Objects.requireNonNull(types, "recordExceptions: types");
            List<Class<? extends Throwable>> list = new ArrayList<>(types.length);
            for (Class<? extends Throwable> type : types) { // read here: the array itself is not passed on
                list.add(type);
            }
            record.addAll(checked("recordExceptions", list));
            return this;
        }

        /**
         * Exceptions that count for nothing, subtypes included: the permit is released with no
         * outcome. Ignore wins over record when an exception matches both.
         *
         * @param types the exception types
         * @return this builder
         * @throws NullPointerException     when {@code types} or one of them is null
         * @throws IllegalArgumentException when a type can never reach a classifier, as for
         *                                  {@link #recordExceptions}
         */
        @SafeVarargs
        public final Builder ignoreExceptions(Class<? extends Throwable>... types) {
            Objects.requireNonNull(types, "ignoreExceptions: types");
            List<Class<? extends Throwable>> list = new ArrayList<>(types.length);
            for (Class<? extends Throwable> type : types) { // read here: the array itself is not passed on
                list.add(type);
            }
            ignore.addAll(checked("ignoreExceptions", list));
            return this;
        }

        /**
         * Counts a returned value as a failure when {@code result} matches it. May be given more
         * than once: any match fails the call. The predicate also sees null results, and is
         * never asked about a call that threw.
         *
         * @param result the predicate; it should not throw (see {@link Builder})
         * @return this builder
         * @throws NullPointerException when {@code result} is null
         */
        public Builder failWhen(Predicate<Object> result) {
            failWhen.add(Objects.requireNonNull(result, "failWhen: result"));
            return this;
        }

        /**
         * Builds the classifier.
         *
         * @return the classifier; {@link FailureClassifier#defaults()} when nothing was given
         * @throws IllegalArgumentException when a recorded type is an ignored type or a subtype
         *                                  of one: ignore would always win, and it would never be
         *                                  recorded
         */
        public FailureClassifier build() {
            for (Class<? extends Throwable> r : record) {
                Class<?> covering = ExceptionTypes.coveringIgnored(r, ignore);
                if (covering != null) {
                    throw new IllegalArgumentException("recordExceptions lists " + r.getName()
                            + (covering == r
                                    ? ", which ignoreExceptions lists too"
                                    : ", a subtype of " + covering.getName() + " in ignoreExceptions")
                            + ": ignore wins when both match, so it would never be recorded");
                }
            }
            if (record.isEmpty() && ignore.isEmpty() && failWhen.isEmpty()) {
                return defaults();
            }
            return new DeclarativeClassifier(record, ignore, failWhen);
        }

        private static List<Class<? extends Throwable>> checked(String method, List<Class<? extends Throwable>> types) {
            for (int i = 0; i < types.size(); i++) {
                Class<?> type = types.get(i);
                if (type == null) {
                    throw new NullPointerException(method + ": types[" + i + "]");
                }
                if (!Throwable.class.isAssignableFrom(type)) { // only through raw types or unchecked casts
                    throw new IllegalArgumentException(
                            method + " must list Throwable types, was " + type.getName() + " (types[" + i + "])");
                }
                String never = ExceptionTypes.neverClassified(type);
                if (never != null) {
                    throw new IllegalArgumentException(
                            method + " must not list " + type.getName() + " (types[" + i + "]): " + never);
                }
            }
            return types;
        }
    }
}
