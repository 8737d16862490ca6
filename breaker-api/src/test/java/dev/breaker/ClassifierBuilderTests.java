package dev.breaker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breaker.internal.ExceptionsClassifierProvider;
import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * {@link FailureClassifier#builder()} and the {@code "exceptions"} provider: every rule through a
 * real breaker (execute, async and permit paths), checked on its state and its running totals.
 */
class ClassifierBuilderTests {

    /** A test hierarchy: {@code Boom <- BigBoom}. */
    static class Boom extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Boom(String message) {
            super(message);
        }
    }

    static final class BigBoom extends Boom {
        private static final long serialVersionUID = 1L;

        BigBoom(String message) {
            super(message);
        }
    }

    /** A cancellation of the caller's own making: still the caller giving up. */
    static final class MyCancellation extends CancellationException {
        private static final long serialVersionUID = 1L;
    }

    private final FakeTicker ticker = new FakeTicker();

    /** Trips at the first failure, so the state says whether a call was a failure. */
    private CircuitBreaker breaker(FailureClassifier c) {
        return CircuitBreaker.builder("x")
                .window(Windows.consecutiveFailures(1))
                .cooldown(Duration.ofNanos(10))
                .classifier(c)
                .ticker(ticker)
                .build();
    }

    private static void assertTotals(CircuitBreaker b, long successes, long failures, long ignored) {
        BreakerMetrics m = b.metrics();
        assertEquals(
                List.of(successes, failures, ignored),
                List.of(m.totalSuccesses(), m.totalFailures(), m.totalIgnored()),
                "successes, failures, ignored: " + m);
    }

    private static Runnable throwing(RuntimeException e) {
        return () -> {
            throw e;
        };
    }

    private static java.util.concurrent.Callable<String> throwingChecked(Exception e) {
        return () -> {
            throw e;
        };
    }

    /** Opens the breaker and lets the cooldown pass: the next permit is the round's only probe. */
    private void halfOpen(CircuitBreaker b) {
        b.tryAcquire().onFailure(0, new IOException("trip"));
        assertEquals(State.OPEN, b.state());
        ticker.advance(10);
    }

    // ---------------------------------------------------------------- record

    @Test
    void withRecordedTypesTheyAndTheirSubtypesFailAndOtherExceptionsAreSuccesses() {
        FailureClassifier c =
                FailureClassifier.builder().recordExceptions(Boom.class).build();
        CircuitBreaker b = breaker(c);
        assertThrows(IllegalArgumentException.class, () -> b.run(throwing(new IllegalArgumentException("400"))));
        assertEquals(State.CLOSED, b.state(), "not recorded: the dependency answered");
        assertTotals(b, 1, 0, 0);

        assertThrows(BigBoom.class, () -> b.run(throwing(new BigBoom("subtype"))));
        assertEquals(State.OPEN, b.state(), "a subtype of a recorded type fails");
        assertTotals(b, 1, 1, 0);
    }

    @Test
    void theWindowIsToldOfSuccessesAndFailuresAndNeverOfIgnoredCalls() {
        RecordingWindow.Factory windows = new RecordingWindow.Factory(2);
        CircuitBreaker b = CircuitBreaker.builder("window")
                .window(windows)
                .classifier(FailureClassifier.builder()
                        .recordExceptions(Boom.class)
                        .ignoreExceptions(BigBoom.class)
                        .build())
                .build();
        assertThrows(IllegalStateException.class, () -> b.run(throwing(new IllegalStateException("not recorded"))));
        assertThrows(BigBoom.class, () -> b.run(throwing(new BigBoom("ignored"))));
        assertThrows(Boom.class, () -> b.run(throwing(new Boom("recorded"))));
        RecordingWindow w = windows.made.get(windows.made.size() - 1);
        assertEquals(List.of(new RecordingWindow.Call(false, false), new RecordingWindow.Call(true, false)), w.calls);
        assertTotals(b, 1, 1, 1);
    }

    @Test
    void aSuccessFromAnUnrecordedExceptionResetsTheConsecutiveCountAndClosesARound() throws Exception {
        FailureClassifier c =
                FailureClassifier.builder().recordExceptions(IOException.class).build();
        CircuitBreaker two = CircuitBreaker.builder("two")
                .window(Windows.consecutiveFailures(2))
                .classifier(c)
                .build();
        assertThrows(IOException.class, () -> two.call(throwingChecked(new IOException("1"))));
        assertThrows(IllegalStateException.class, () -> two.run(throwing(new IllegalStateException("business"))));
        assertThrows(IOException.class, () -> two.call(throwingChecked(new IOException("2"))));
        assertEquals(State.CLOSED, two.state(), "the business exception broke the run of failures");

        CircuitBreaker b = breaker(c);
        halfOpen(b);
        assertThrows(IllegalStateException.class, () -> b.run(throwing(new IllegalStateException("business"))));
        assertEquals(State.CLOSED, b.state(), "a dependency that answers closes the round");
    }

    @Test
    void withoutRecordedTypesEveryExceptionFails() {
        FailureClassifier c = FailureClassifier.builder()
                .ignoreExceptions(IllegalArgumentException.class)
                .build();
        CircuitBreaker b = breaker(c);
        assertThrows(IllegalStateException.class, () -> b.run(throwing(new IllegalStateException("down"))));
        assertEquals(State.OPEN, b.state());
        assertTotals(b, 0, 1, 0);
    }

    @Test
    void recordingThrowableRecordsEveryExceptionButStillNeverErrorsCancellationOrInterruption() throws Exception {
        FailureClassifier c =
                FailureClassifier.builder().recordExceptions(Throwable.class).build();
        CircuitBreaker b = breaker(c);
        assertThrows(
                AssertionError.class,
                () -> b.run(() -> {
                    throw new AssertionError("error");
                }));
        assertThrows(CancellationException.class, () -> b.run(throwing(new MyCancellation())));
        assertThrows(InterruptedException.class, () -> b.call(throwingChecked(new InterruptedException("gave up"))));
        assertThrows(
                ExecutionException.class,
                () -> b.call(throwingChecked(new ExecutionException(new InterruptedException("gave up")))));
        assertFalse(Thread.currentThread().isInterrupted(), "the flag is left as it was");
        assertEquals(State.CLOSED, b.state());
        assertTotals(b, 0, 0, 4);
        assertThrows(Boom.class, () -> b.run(throwing(new Boom("down"))));
        assertEquals(State.OPEN, b.state());
    }

    // ---------------------------------------------------------------- ignore

    @Test
    void ignoredExceptionsReleaseThePermitWithNoOutcome() {
        FailureClassifier c = FailureClassifier.builder()
                .ignoreExceptions(IllegalArgumentException.class)
                .build();
        CircuitBreaker b = breaker(c);
        assertThrows(NumberFormatException.class, () -> b.run(throwing(new NumberFormatException("subtype"))));
        assertEquals(State.CLOSED, b.state());
        assertTotals(b, 0, 0, 1);

        halfOpen(b);
        assertThrows(IllegalArgumentException.class, () -> b.run(throwing(new IllegalArgumentException("400"))));
        assertEquals(State.HALF_OPEN, b.state(), "an ignored probe decides nothing");
        assertEquals(0, b.metrics().probesAdmitted(), "its slot came back");
        assertTrue(b.tryAcquire().granted(), "and admits the next probe");
    }

    @Test
    void ignoreWinsOverRecordWhenBothMatch() throws Exception {
        FailureClassifier c = FailureClassifier.builder()
                .recordExceptions(IOException.class)
                .ignoreExceptions(FileNotFoundException.class)
                .build();
        CircuitBreaker b = breaker(c);
        assertThrows(FileNotFoundException.class, () -> b.call(throwingChecked(new FileNotFoundException("404"))));
        assertEquals(State.CLOSED, b.state());
        assertTotals(b, 0, 0, 1);
        assertThrows(EOFException.class, () -> b.call(throwingChecked(new EOFException("cut"))));
        assertEquals(State.OPEN, b.state(), "another IOException is recorded");
        assertTotals(b, 0, 1, 1);
    }

    @Test
    void aRecordedTypeThatAnIgnoredTypeCoversIsRefusedAtBuild() {
        FailureClassifier.Builder sub = FailureClassifier.builder()
                .recordExceptions(FileNotFoundException.class)
                .ignoreExceptions(IOException.class);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, sub::build);
        assertEquals(
                "recordExceptions lists java.io.FileNotFoundException, a subtype of java.io.IOException in"
                        + " ignoreExceptions: ignore wins when both match, so it would never be recorded",
                e.getMessage());

        FailureClassifier.Builder same =
                FailureClassifier.builder().recordExceptions(IOException.class).ignoreExceptions(IOException.class);
        e = assertThrows(IllegalArgumentException.class, same::build);
        assertEquals(
                "recordExceptions lists java.io.IOException, which ignoreExceptions lists too: ignore wins when both"
                        + " match, so it would never be recorded",
                e.getMessage());
    }

    // ---------------------------------------------------------------- results

    @Test
    void aReturnedValueFailsWhenAnyPredicateMatchesNullIncluded() {
        FailureClassifier c = FailureClassifier.builder()
                .failWhen("503"::equals)
                .failWhen(Objects::isNull)
                .build();
        CircuitBreaker b = breaker(c);
        assertEquals("200", b.get(() -> "200"));
        assertEquals(State.CLOSED, b.state());
        assertTotals(b, 1, 0, 0);
        assertEquals("503", b.get(() -> "503"), "the caller still gets the value");
        assertEquals(State.OPEN, b.state());
        assertTotals(b, 1, 1, 0);

        CircuitBreaker nulls = breaker(c);
        assertNull(nulls.<Object>get(() -> null));
        assertEquals(State.OPEN, nulls.state(), "the second predicate matched null");
    }

    @Test
    void predicatesAreNeverAskedAboutACallThatThrew() {
        AtomicInteger asked = new AtomicInteger();
        FailureClassifier c = FailureClassifier.builder()
                .recordExceptions(IOException.class)
                .failWhen(r -> asked.incrementAndGet() < 0)
                .build();
        CircuitBreaker b = breaker(c);
        assertThrows(IllegalStateException.class, () -> b.run(throwing(new IllegalStateException("business"))));
        assertEquals(0, asked.get());
        assertTotals(b, 1, 0, 0);
        b.run(() -> {});
        assertEquals(1, asked.get(), "a Runnable returns null, and null is shown to the predicate");
        assertTotals(b, 2, 0, 0);
    }

    @Test
    void aPredicateThatThrowsReleasesThePermitAndItsExceptionReachesTheCaller() {
        IllegalStateException bug = new IllegalStateException("predicate bug");
        FailureClassifier c = FailureClassifier.builder()
                .failWhen(r -> {
                    throw bug;
                })
                .build();
        CircuitBreaker b = breaker(c);
        assertSame(bug, assertThrows(IllegalStateException.class, () -> b.get(() -> "value")));
        assertEquals(State.CLOSED, b.state());
        assertTotals(b, 0, 0, 1);

        CompletableFuture<String> f =
                b.callAsync(() -> CompletableFuture.completedFuture("value")).toCompletableFuture();
        assertSame(bug, assertThrows(CompletionException.class, f::join).getCause());
        assertTotals(b, 0, 0, 2);

        Permit p = b.tryAcquire();
        assertSame(bug, assertThrows(IllegalStateException.class, () -> p.onResult("value", null, 0)));
        assertTotals(b, 0, 0, 3);

        halfOpen(b);
        assertSame(bug, assertThrows(IllegalStateException.class, () -> b.get(() -> "value")));
        assertEquals(State.HALF_OPEN, b.state());
        assertEquals(0, b.metrics().probesAdmitted(), "the probe's slot came back");
        assertTrue(b.tryAcquire().granted());
    }

    // ---------------------------------------------------------------- wrappers (SPEC rule 10)

    @Test
    void onTheExecutePathAWrappedExceptionIsMatchedByItsCause() {
        FailureClassifier c = FailureClassifier.builder()
                .recordExceptions(IOException.class)
                .ignoreExceptions(FileNotFoundException.class)
                .build();
        CircuitBreaker b = breaker(c);
        ExecutionException ignored = new ExecutionException(new FileNotFoundException("404"));
        assertSame(ignored, assertThrows(ExecutionException.class, () -> b.call(throwingChecked(ignored))));
        assertTotals(b, 0, 0, 1);
        CompletionException unrecorded = new CompletionException(new IllegalStateException("business"));
        assertSame(unrecorded, assertThrows(CompletionException.class, () -> b.run(throwing(unrecorded))));
        assertTotals(b, 1, 0, 1);
        assertEquals(State.CLOSED, b.state());
        CompletionException recorded =
                new CompletionException(new ExecutionException(new UncheckedIOException(new EOFException())));
        assertThrows(
                CompletionException.class,
                () -> b.get(() -> {
                    throw recorded;
                }));
        assertEquals(State.CLOSED, b.state(), "UncheckedIOException is not an IOException");
        assertThrows(
                ExecutionException.class, () -> b.call(throwingChecked(new ExecutionException(new EOFException()))));
        assertEquals(State.OPEN, b.state());
        assertTotals(b, 2, 1, 1);
    }

    @Test
    void onTheAsyncPathACompletionExceptionIsMatchedByItsCause() {
        FailureClassifier c = FailureClassifier.builder()
                .recordExceptions(IOException.class)
                .ignoreExceptions(IllegalArgumentException.class)
                .failWhen("503"::equals)
                .build();
        CircuitBreaker b = breaker(c);

        // a stage that fails the way supplyAsync does: its cause under a CompletionException
        CompletionStage<String> ignored = CompletableFuture.supplyAsync(
                () -> {
                    throw new IllegalArgumentException("400");
                },
                Runnable::run);
        Throwable seen = assertThrows(
                        CompletionException.class,
                        () -> b.callAsync(() -> ignored).toCompletableFuture().join())
                .getCause();
        assertInstanceOf(IllegalArgumentException.class, seen);
        assertTotals(b, 0, 0, 1);

        CompletionStage<String> unrecorded =
                CompletableFuture.failedFuture(new CompletionException(new IllegalStateException("business")));
        assertThrows(
                CompletionException.class,
                () -> b.callAsync(() -> unrecorded).toCompletableFuture().join());
        assertTotals(b, 1, 0, 1);

        assertEquals(
                "200",
                b.callAsync(() -> CompletableFuture.completedFuture("200"))
                        .toCompletableFuture()
                        .join());
        assertTotals(b, 2, 0, 1);
        assertEquals(State.CLOSED, b.state());

        CompletionStage<String> recorded =
                CompletableFuture.failedFuture(new CompletionException(new FileNotFoundException("gone")));
        assertThrows(
                CompletionException.class,
                () -> b.callAsync(() -> recorded).toCompletableFuture().join());
        assertEquals(State.OPEN, b.state());
        assertTotals(b, 2, 1, 1);

        CircuitBreaker results = breaker(c);
        assertEquals(
                "503",
                results.callAsync(() -> CompletableFuture.completedFuture("503"))
                        .toCompletableFuture()
                        .join());
        assertEquals(State.OPEN, results.state(), "a stage's value goes through the predicates");
    }

    @Test
    void onThePermitPathOnResultIsClassifiedOnTheCauseAndOnFailureIsTheCallersOwnVerdict() {
        FailureClassifier c = FailureClassifier.builder()
                .recordExceptions(IOException.class)
                .ignoreExceptions(FileNotFoundException.class)
                .failWhen("503"::equals)
                .build();
        CircuitBreaker b = breaker(c);
        b.tryAcquire().onResult(null, new CompletionException(new FileNotFoundException("404")), 5);
        b.tryAcquire().onResult(null, new ExecutionException(new IllegalStateException("business")), 5);
        b.tryAcquire().onResult("200", null, 5);
        assertEquals(State.CLOSED, b.state());
        assertTotals(b, 2, 0, 1);
        b.tryAcquire().onResult("503", null, 5);
        assertEquals(State.OPEN, b.state());
        assertTotals(b, 2, 1, 1);

        CircuitBreaker own = breaker(c);
        own.tryAcquire().onFailure(0, new IllegalStateException("not recorded, but the caller says so"));
        assertEquals(State.OPEN, own.state(), "onFailure skips the classifier");

        CircuitBreaker wrapped = breaker(c);
        wrapped.tryAcquire().onResult(null, new ExecutionException(new CompletionException(new EOFException())), 5);
        assertEquals(State.OPEN, wrapped.state());
    }

    @Test
    void aRetryAfterIsABackOffOnlyWhenItIsRecorded() {
        FailureClassifier c = FailureClassifier.builder()
                .recordExceptions(IOException.class)
                .ignoreExceptions(BackOffTests.TooManyRequests.class)
                .build();
        assertEquals(
                Duration.ofSeconds(3).toNanos(),
                c.retryAfterNanos(null, new BackOffTests.TooManyRequests(Duration.ofSeconds(3))),
                "the default's question is answered the default's way");
        CircuitBreaker b = breaker(c);
        b.tryAcquire().onResult(null, new BackOffTests.TooManyRequests(Duration.ofSeconds(3)), 0);
        assertEquals(State.CLOSED, b.state(), "ignored: no back-off");

        FailureClassifier recorded =
                FailureClassifier.builder().recordExceptions(IOException.class).build();
        CircuitBreaker r = CircuitBreaker.builder("r")
                .window(Windows.consecutiveFailures(5))
                .classifier(recorded)
                .ticker(ticker)
                .build();
        r.tryAcquire()
                .onResult(null, new CompletionException(new BackOffTests.TooManyRequests(Duration.ofSeconds(3))), 0);
        assertEquals(State.OPEN, r.state(), "one failure of five: the back-off opened it");
        CallNotPermittedException e = assertThrows(CallNotPermittedException.class, () -> r.run(() -> {}));
        assertEquals(Duration.ofSeconds(3).toNanos(), e.retryAfterNanos());
    }

    // ---------------------------------------------------------------- bad input (SPEC rule 12)

    @Test
    @SuppressWarnings({"unchecked", "rawtypes"})
    void nullsAreRefusedNamingTheArgumentAndLeaveTheBuilderUnchanged() {
        FailureClassifier.Builder b = FailureClassifier.builder();
        NullPointerException e =
                assertThrows(NullPointerException.class, () -> b.recordExceptions((Class<? extends Throwable>[]) null));
        assertEquals("recordExceptions: types", e.getMessage());
        e = assertThrows(NullPointerException.class, () -> b.ignoreExceptions((Class<? extends Throwable>[]) null));
        assertEquals("ignoreExceptions: types", e.getMessage());
        e = assertThrows(NullPointerException.class, () -> b.recordExceptions(IOException.class, null));
        assertEquals("recordExceptions: types[1]", e.getMessage());
        e = assertThrows(NullPointerException.class, () -> b.ignoreExceptions(null, IOException.class));
        assertEquals("ignoreExceptions: types[0]", e.getMessage());
        e = assertThrows(NullPointerException.class, () -> b.failWhen(null));
        assertEquals("failWhen: result", e.getMessage());
        IllegalArgumentException notThrowable =
                assertThrows(IllegalArgumentException.class, () -> b.recordExceptions((Class) String.class));
        assertEquals(
                "recordExceptions must list Throwable types, was java.lang.String (types[0])",
                notThrowable.getMessage());
        assertSame(FailureClassifier.defaults(), b.build(), "IOException, given beside a null, was not added");
    }

    @Test
    void typesThatNeverReachAClassifierAreRefusedNamingTheType() {
        FailureClassifier.Builder b = FailureClassifier.builder().recordExceptions(IOException.class);
        List<Class<? extends Throwable>> never = List.of(
                Error.class,
                OutOfMemoryError.class,
                AssertionError.class,
                CancellationException.class,
                MyCancellation.class,
                InterruptedException.class,
                CompletionException.class,
                ExecutionException.class);
        for (Class<? extends Throwable> type : never) {
            for (boolean recording : new boolean[] {true, false}) {
                IllegalArgumentException e = assertThrows(
                        IllegalArgumentException.class,
                        () -> {
                            if (recording) {
                                b.recordExceptions(Boom.class, type);
                            } else {
                                b.ignoreExceptions(Boom.class, type);
                            }
                        },
                        type.getName());
                String method = recording ? "recordExceptions" : "ignoreExceptions";
                assertTrue(
                        e.getMessage().startsWith(method + " must not list " + type.getName() + " (types[1]): "),
                        e.getMessage());
            }
        }
        assertTrue(assertThrows(IllegalArgumentException.class, () -> b.ignoreExceptions(StackOverflowError.class))
                .getMessage()
                .contains("an Error never reaches a classifier"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> b.recordExceptions(InterruptedException.class))
                .getMessage()
                .contains("the caller giving up"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> b.recordExceptions(ExecutionException.class))
                .getMessage()
                .contains("list the cause's type"));
        assertEquals(
                FailureClassifier.builder().recordExceptions(IOException.class).build(),
                b.build(),
                "Boom, refused with its neighbour, was not added");
    }

    // ---------------------------------------------------------------- a value

    @Test
    void builtClassifiersAreValuesComparedByTheirTypesAndPredicates() {
        Predicate<Object> is503 = "503"::equals;
        FailureClassifier a = FailureClassifier.builder()
                .recordExceptions(IOException.class, TimeoutException.class)
                .ignoreExceptions(FileNotFoundException.class)
                .failWhen(is503)
                .build();
        FailureClassifier sameInAnotherOrder = FailureClassifier.builder()
                .failWhen(is503)
                .ignoreExceptions(FileNotFoundException.class)
                .recordExceptions(TimeoutException.class)
                .recordExceptions(IOException.class, TimeoutException.class)
                .failWhen(is503)
                .build();
        assertEquals(a, sameInAnotherOrder);
        assertEquals(a.hashCode(), sameInAnotherOrder.hashCode());
        assertEquals(a.toString(), sameInAnotherOrder.toString());
        assertEquals(
                "classifier(record=[java.io.IOException, java.util.concurrent.TimeoutException],"
                        + " ignore=[java.io.FileNotFoundException], failWhen=1 predicate)",
                a.toString());

        assertNotEquals(
                a,
                FailureClassifier.builder()
                        .recordExceptions(IOException.class, TimeoutException.class)
                        .ignoreExceptions(FileNotFoundException.class)
                        .failWhen("503"::equals) // another lambda: compared by identity
                        .build());
        assertNotEquals(
                a,
                FailureClassifier.builder()
                        .recordExceptions(IOException.class)
                        .ignoreExceptions(FileNotFoundException.class)
                        .failWhen(is503)
                        .build());
        assertNotEquals(
                FailureClassifier.builder().recordExceptions(IOException.class).build(),
                FailureClassifier.builder().ignoreExceptions(IOException.class).build(),
                "the same type in the other list");

        assertEquals(
                "classifier(record=any, ignore=[dev.breaker.ClassifierBuilderTests$Boom], failWhen=2 predicates)",
                FailureClassifier.builder()
                        .ignoreExceptions(Boom.class)
                        .failWhen(is503)
                        .failWhen(Objects::isNull)
                        .build()
                        .toString());
    }

    @Test
    void anEmptyBuilderGivesTheDefaultAndABuilderGoesOnAfterBuilding() {
        assertSame(FailureClassifier.defaults(), FailureClassifier.builder().build());
        assertSame(
                FailureClassifier.defaults(),
                FailureClassifier.builder()
                        .recordExceptions()
                        .ignoreExceptions()
                        .build());

        FailureClassifier.Builder builder = FailureClassifier.builder().recordExceptions(IOException.class);
        FailureClassifier first = builder.build();
        FailureClassifier second = builder.ignoreExceptions(Boom.class).build();
        assertEquals("classifier(record=[java.io.IOException], ignore=[], failWhen=0 predicates)", first.toString());
        assertNotEquals(first, second);
        assertEquals(Outcome.SUCCESS, first.classify(null, new Boom("not an IOException")), "built before");
        assertEquals(Outcome.IGNORED, second.classify(null, new Boom("ignored")));
    }

    @Test
    void theConfigComparesAndPrintsTheClassifierByValue() {
        CircuitBreakerConfig one = CircuitBreakerConfig.builder()
                .classifier(FailureClassifier.builder()
                        .recordExceptions(IOException.class)
                        .build())
                .build();
        CircuitBreakerConfig two = CircuitBreakerConfig.builder()
                .classifier(FailureClassifier.builder()
                        .recordExceptions(IOException.class)
                        .build())
                .build();
        assertEquals(one, two);
        assertEquals(one.hashCode(), two.hashCode());
        assertTrue(
                one.toString()
                        .contains(
                                ", classifier=classifier(record=[java.io.IOException], ignore=[], failWhen=0 predicates),"),
                one.toString());
        assertEquals(
                CircuitBreakerConfig.defaults(),
                CircuitBreakerConfig.builder()
                        .classifier(FailureClassifier.builder().build())
                        .build());
    }

    // ---------------------------------------------------------------- by name

    @Test
    void theExceptionsProviderBuildsTheSameValueFromText() throws Exception {
        FailureClassifier named = FailureClassifier.named(
                "exceptions",
                Map.of(
                        "recordExceptions", " java.io.IOException ,java.util.concurrent.TimeoutException",
                        "ignoreExceptions", "java.io.FileNotFoundException,\tdev.breaker.ClassifierBuilderTests$Boom"));
        assertEquals(
                FailureClassifier.builder()
                        .recordExceptions(IOException.class, TimeoutException.class)
                        .ignoreExceptions(FileNotFoundException.class, Boom.class)
                        .build(),
                named);
        CircuitBreaker b = breaker(named);
        assertThrows(ExecutionException.class, () -> b.call(throwingChecked(new ExecutionException(new BigBoom("x")))));
        assertTotals(b, 0, 0, 1);
        assertThrows(TimeoutException.class, () -> b.call(throwingChecked(new TimeoutException("slow"))));
        assertEquals(State.OPEN, b.state());

        assertSame(FailureClassifier.defaults(), FailureClassifier.named("exceptions", Map.of()));
    }

    @Test
    void theExceptionsProviderNamesTheSettingAndTheValueOfEveryBadOne() {
        assertBad(
                Map.of("recordExceptions", "java.io.IOException, com.example.Nope"),
                "failure classifier 'exceptions': recordExceptions names a class that was not found, 'com.example.Nope'"
                        + " (looked up with the thread's context class loader and dev.breaker's),"
                        + " was 'java.io.IOException, com.example.Nope'");
        assertBad(
                Map.of("ignoreExceptions", "java.lang.String"),
                "failure classifier 'exceptions': ignoreExceptions names java.lang.String, which is not a Throwable,"
                        + " was 'java.lang.String'");
        assertBad(
                Map.of("ignoreExceptions", "java.lang.OutOfMemoryError"),
                "failure classifier 'exceptions': ignoreExceptions must not list java.lang.OutOfMemoryError,"
                        + " was 'java.lang.OutOfMemoryError': an Error never reaches a classifier: the breaker rethrows"
                        + " it and releases the permit (SPEC rule 10)");
        assertBad(
                Map.of("recordExceptions", "java.util.concurrent.CancellationException"),
                "failure classifier 'exceptions': recordExceptions must not list"
                        + " java.util.concurrent.CancellationException, was 'java.util.concurrent.CancellationException':"
                        + " a cancellation or an interruption is the caller giving up: the breaker releases the permit"
                        + " without asking the classifier (SPEC rule 10)");
        assertBad(
                Map.of("recordExceptions", "java.io.IOException,,java.io.EOFException"),
                "failure classifier 'exceptions': recordExceptions must be fully qualified class names separated by"
                        + " commas (leave the setting out for none), was 'java.io.IOException,,java.io.EOFException'");
        assertBad(
                Map.of("recordExceptions", " "),
                "failure classifier 'exceptions': recordExceptions must be fully qualified class names separated by"
                        + " commas (leave the setting out for none), was ' '");
        assertBad(
                Map.of("recordExceptions", "java.io.IOException\njava.io.EOFException"),
                "failure classifier 'exceptions': recordExceptions must not contain control characters,"
                        + " was 'java.io.IOException\\njava.io.EOFException'");
        assertBad(
                Map.of("recordExceptions", "java.io.FileNotFoundException", "ignoreExceptions", "java.io.IOException"),
                "failure classifier 'exceptions': recordExceptions lists java.io.FileNotFoundException, a subtype of"
                        + " java.io.IOException in ignoreExceptions: ignore wins when both match, so it would never be"
                        + " recorded; was recordExceptions='java.io.FileNotFoundException',"
                        + " ignoreExceptions='java.io.IOException'");
        IllegalArgumentException unknownKey = assertThrows(
                IllegalArgumentException.class,
                () -> FailureClassifier.named("exceptions", Map.of("record-exceptions", "java.io.IOException")));
        assertTrue(
                unknownKey
                        .getMessage()
                        .startsWith("failure classifier 'exceptions': unknown setting 'record-exceptions'"),
                unknownKey.getMessage());
    }

    private static void assertBad(Map<String, String> settings, String message) {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> FailureClassifier.named("exceptions", settings));
        assertEquals(message, e.getMessage());
    }

    @Test
    void classesAreLoadedWithTheContextClassLoaderFirstThenTheLibrarysOwn() {
        Thread thread = Thread.currentThread();
        ClassLoader saved = thread.getContextClassLoader();
        List<String> asked = new ArrayList<>();
        try {
            thread.setContextClassLoader(new ClassLoader(saved) {
                @Override
                protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
                    asked.add(name);
                    return super.loadClass(name, resolve);
                }
            });
            FailureClassifier.named(
                    "exceptions", Map.of("recordExceptions", "dev.breaker.ClassifierBuilderTests$Boom"));
            assertEquals(
                    "dev.breaker.ClassifierBuilderTests$Boom",
                    asked.get(asked.size() - 1),
                    "asked after the ServiceLoader's own look-ups: " + asked);

            // a context loader that sees only the JDK, or none: the library's own loader finds the
            // test's class (the provider is made directly: ServiceLoader.load looks in that loader too)
            thread.setContextClassLoader(new ClassLoader(null) {});
            assertEquals(
                    FailureClassifier.builder().recordExceptions(Boom.class).build(),
                    new ExceptionsClassifierProvider()
                            .create(Map.of("recordExceptions", "dev.breaker.ClassifierBuilderTests$Boom")));
            thread.setContextClassLoader(null);
            assertEquals(
                    FailureClassifier.builder().ignoreExceptions(Boom.class).build(),
                    new ExceptionsClassifierProvider()
                            .create(Map.of("ignoreExceptions", "dev.breaker.ClassifierBuilderTests$Boom")));
        } finally {
            thread.setContextClassLoader(saved);
        }
    }
}
