package dev.breaker;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * What {@link FailureClassifier.Builder} builds: exceptions to ignore and to record, by type
 * (subtypes included), and predicates that fail a returned value. An immutable value: equal when
 * its type sets and predicate sets are equal (predicates by their own {@code equals}, so a lambda
 * by identity). Classifying allocates nothing.
 */
final class DeclarativeClassifier implements FailureClassifier {

    private static final Comparator<Class<?>> BY_NAME = Comparator.comparing(Class::getName);

    /** Sorted by name, distinct. Empty: every exception is recorded. */
    private final Class<?>[] record;
    /** Sorted by name, distinct. */
    private final Class<?>[] ignore;
    /** In the order given, distinct. */
    private final Predicate<Object>[] failWhen;

    private final Set<Class<?>> recordSet;
    private final Set<Class<?>> ignoreSet;
    private final Set<Predicate<Object>> failWhenSet;

    @SuppressWarnings({"unchecked", "rawtypes"}) // an array of predicates cannot be made generic
    DeclarativeClassifier(
            Collection<Class<? extends Throwable>> record,
            Collection<Class<? extends Throwable>> ignore,
            Collection<Predicate<Object>> failWhen) {
        this.record = sorted(record);
        this.ignore = sorted(ignore);
        this.failWhen = failWhen.toArray(new Predicate[0]);
        this.recordSet = Set.of(this.record);
        this.ignoreSet = Set.of(this.ignore);
        this.failWhenSet = Set.of(this.failWhen);
    }

    private static Class<?>[] sorted(Collection<Class<? extends Throwable>> types) {
        List<Class<?>> list = new ArrayList<>(types);
        list.sort(BY_NAME);
        return list.toArray(new Class<?>[0]);
    }

    @Override
    public Outcome classify(Object result, Throwable failure) {
        if (failure == null) {
            for (Predicate<Object> p : failWhen) {
                if (p.test(result)) {
                    return Outcome.FAILURE;
                }
            }
            return Outcome.SUCCESS;
        }
        if (failure instanceof Error) {
            return Outcome.IGNORED; // as the default; the breaker never shows one
        }
        if (matches(ignore, failure)) {
            return Outcome.IGNORED;
        }
        return record.length == 0 || matches(record, failure) ? Outcome.FAILURE : Outcome.SUCCESS;
    }

    private static boolean matches(Class<?>[] types, Throwable failure) {
        for (Class<?> t : types) {
            if (t.isInstance(failure)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DeclarativeClassifier c
                && recordSet.equals(c.recordSet)
                && ignoreSet.equals(c.ignoreSet)
                && failWhenSet.equals(c.failWhenSet);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * recordSet.hashCode() + ignoreSet.hashCode()) + failWhenSet.hashCode();
    }

    @Override
    public String toString() {
        return "classifier(record=" + (record.length == 0 ? "any" : names(record))
                + ", ignore=" + names(ignore)
                + ", failWhen=" + failWhen.length + (failWhen.length == 1 ? " predicate)" : " predicates)");
    }

    private static String names(Class<?>[] types) {
        return Arrays.stream(types).map(Class::getName).toList().toString();
    }
}
