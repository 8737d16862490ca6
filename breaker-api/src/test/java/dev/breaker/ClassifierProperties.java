package dev.breaker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * {@link FailureClassifier#builder()} against a model, over a hierarchy of exception types (the
 * JDK's and a made-up one, {@code A <- B <- C}, {@code A <- D}, {@code R <- S}): any record and
 * ignore lists, any exception, under any wrapper, on every path of a real breaker.
 */
class ClassifierProperties {

    static class A extends Exception {
        private static final long serialVersionUID = 1L;
    }

    static class B extends A {
        private static final long serialVersionUID = 1L;
    }

    static final class C extends B {
        private static final long serialVersionUID = 1L;
    }

    static final class D extends A {
        private static final long serialVersionUID = 1L;
    }

    static class R extends RuntimeException {
        private static final long serialVersionUID = 1L;
    }

    static final class S extends R {
        private static final long serialVersionUID = 1L;
    }

    /** The types lists are drawn from. */
    private static final List<Class<? extends Throwable>> TYPES = List.of(
            Throwable.class,
            Exception.class,
            RuntimeException.class,
            IllegalArgumentException.class,
            NumberFormatException.class,
            IllegalStateException.class,
            IOException.class,
            FileNotFoundException.class,
            EOFException.class,
            A.class,
            B.class,
            C.class,
            D.class,
            R.class,
            S.class);

    /** The exceptions calls throw: one of every concrete type above but Throwable. */
    private static final List<Supplier<Exception>> THROWN = List.of(
            Exception::new,
            RuntimeException::new,
            IllegalArgumentException::new,
            NumberFormatException::new,
            IllegalStateException::new,
            IOException::new,
            FileNotFoundException::new,
            EOFException::new,
            A::new,
            B::new,
            C::new,
            D::new,
            R::new,
            S::new);

    enum Wrapper {
        NONE,
        COMPLETION,
        EXECUTION,
        BOTH;

        Exception wrap(Exception e) {
            return switch (this) {
                case NONE -> e;
                case COMPLETION -> new CompletionException(e);
                case EXECUTION -> new ExecutionException(e);
                case BOTH -> new CompletionException(new ExecutionException(e));
            };
        }
    }

    enum Path {
        PERMIT,
        CALL,
        CALL_ASYNC
    }

    @Provide
    Arbitrary<List<Class<? extends Throwable>>> types() {
        return Arbitraries.of(TYPES).list().ofMaxSize(4);
    }

    @Provide
    Arbitrary<Exception> thrown() {
        return Arbitraries.of(THROWN).map(Supplier::get);
    }

    /** The rules of {@link FailureClassifier.Builder}, written the plain way. */
    private static Outcome model(
            List<Class<? extends Throwable>> record, List<Class<? extends Throwable>> ignore, Throwable t) {
        if (ignore.stream().anyMatch(i -> i.isInstance(t))) {
            return Outcome.IGNORED;
        }
        return record.isEmpty() || record.stream().anyMatch(r -> r.isInstance(t)) ? Outcome.FAILURE : Outcome.SUCCESS;
    }

    private static boolean refused(List<Class<? extends Throwable>> record, List<Class<? extends Throwable>> ignore) {
        return record.stream().anyMatch(r -> ignore.stream().anyMatch(i -> i.isAssignableFrom(r)));
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static FailureClassifier build(
            List<Class<? extends Throwable>> record, List<Class<? extends Throwable>> ignore) {
        return FailureClassifier.builder()
                .recordExceptions(record.toArray(new Class[0]))
                .ignoreExceptions(ignore.toArray(new Class[0]))
                .build();
    }

    private static Map<String, String> settings(
            List<Class<? extends Throwable>> record, List<Class<? extends Throwable>> ignore) {
        Map<String, String> settings = new HashMap<>();
        if (!record.isEmpty()) {
            settings.put("recordExceptions", record.stream().map(Class::getName).collect(Collectors.joining(",")));
        }
        if (!ignore.isEmpty()) {
            settings.put("ignoreExceptions", ignore.stream().map(Class::getName).collect(Collectors.joining(", ")));
        }
        return settings;
    }

    @Property(tries = 500)
    void everyPathClassifiesTheCauseAsTheModelSays(
            @ForAll("types") List<Class<? extends Throwable>> record,
            @ForAll("types") List<Class<? extends Throwable>> ignore,
            @ForAll("thrown") Exception cause,
            @ForAll Wrapper wrapper,
            @ForAll Path path) {
        if (refused(record, ignore)) {
            assertThrows(IllegalArgumentException.class, () -> build(record, ignore));
            assertThrows(
                    IllegalArgumentException.class,
                    () -> FailureClassifier.named("exceptions", settings(record, ignore)));
            return;
        }
        FailureClassifier c = build(record, ignore);
        Outcome expected = model(record, ignore, cause);
        assertEquals(expected, c.classify(null, cause));

        CircuitBreaker b = CircuitBreaker.builder("p")
                .window(Windows.consecutiveFailures(1))
                .classifier(c)
                .build();
        Exception thrown = wrapper.wrap(cause);
        switch (path) {
            case PERMIT -> b.tryAcquire().onResult(null, thrown, 0);
            case CALL ->
                assertThrows(
                        Exception.class,
                        () -> b.call(() -> {
                            throw thrown;
                        }));
            case CALL_ASYNC ->
                assertThrows(
                        CompletionException.class,
                        () -> b.callAsync(() -> CompletableFuture.<String>failedFuture(thrown))
                                .toCompletableFuture()
                                .join());
        }
        BreakerMetrics m = b.metrics();
        assertEquals(
                List.of(
                        expected == Outcome.SUCCESS ? 1L : 0L,
                        expected == Outcome.FAILURE ? 1L : 0L,
                        expected == Outcome.IGNORED ? 1L : 0L),
                List.of(m.totalSuccesses(), m.totalFailures(), m.totalIgnored()),
                m.toString());
        assertEquals(expected == Outcome.FAILURE ? State.OPEN : State.CLOSED, b.state());
    }

    @Property(tries = 300)
    void anExceptionThatMatchesBothListsIsIgnored(
            @ForAll("thrown") Exception thrown,
            @ForAll @IntRange(min = 0, max = 10) int near,
            @ForAll @IntRange(min = 1, max = 10) int further,
            @ForAll("types") List<Class<? extends Throwable>> moreRecorded) {
        List<Class<?>> ancestors = new ArrayList<>(); // the thrown type, then its supertypes up to Throwable
        for (Class<?> t = thrown.getClass(); t != Object.class; t = t.getSuperclass()) {
            ancestors.add(t);
        }
        int i = Math.min(near, ancestors.size() - 2);
        int j = Math.min(i + further, ancestors.size() - 1);
        Class<? extends Throwable> ignored = ancestors.get(i).asSubclass(Throwable.class);
        Class<? extends Throwable> recorded = ancestors.get(j).asSubclass(Throwable.class);
        List<Class<? extends Throwable>> record = new ArrayList<>(moreRecorded);
        record.removeIf(ignored::isAssignableFrom); // those would be refused, as the other property shows
        record.add(recorded);
        FailureClassifier c = build(record, List.of(ignored));
        assertEquals(Outcome.IGNORED, c.classify(null, thrown), c.toString());
        CircuitBreaker b = CircuitBreaker.builder("both")
                .window(Windows.consecutiveFailures(1))
                .classifier(c)
                .build();
        b.tryAcquire().onResult(null, new CompletionException(thrown), 0);
        assertEquals(1, b.metrics().totalIgnored());
        assertEquals(State.CLOSED, b.state());
    }

    @Property(tries = 300)
    void theValueDoesNotDependOnOrderRepetitionOrWhetherItWasWrittenAsText(
            @ForAll("types") List<Class<? extends Throwable>> record,
            @ForAll("types") List<Class<? extends Throwable>> ignore,
            @ForAll Random random) {
        if (refused(record, ignore)) {
            return;
        }
        List<Class<? extends Throwable>> record2 = new ArrayList<>(record);
        record2.addAll(record);
        Collections.shuffle(record2, random);
        List<Class<? extends Throwable>> ignore2 = new ArrayList<>(ignore);
        ignore2.addAll(ignore.subList(0, ignore.size() / 2));
        Collections.shuffle(ignore2, random);
        FailureClassifier a = build(record, ignore);
        FailureClassifier b = build(record2, ignore2);
        FailureClassifier text = FailureClassifier.named("exceptions", settings(record2, ignore2));
        assertEquals(a, b);
        assertEquals(a, text);
        assertEquals(a.hashCode(), text.hashCode());
        assertEquals(a.toString(), b.toString());
        assertEquals(a.toString(), text.toString());
    }
}
