package dev.breaker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 8, points 1 to 4: the stage {@code callAsync} returns always completes, exactly once, and
 * the permit is settled exactly once, whatever the classifier and the ticker do and whoever
 * finishes the stage first.
 */
class AsyncFaultTests {

    private static final long COOLDOWN = 10_000_000L;

    enum Classifier {
        RETURNS_NULL((r, e) -> null),
        THROWS((r, e) -> {
            throw new IllegalStateException("classifier bug");
        });

        final FailureClassifier classifier;

        Classifier(FailureClassifier classifier) {
            this.classifier = classifier;
        }
    }

    record Case(State state, boolean fallback, Classifier classifier, boolean callFails, boolean alreadyDone) {}

    static Stream<Case> cases() {
        List<Case> all = new ArrayList<>();
        for (State state : List.of(State.CLOSED, State.HALF_OPEN)) {
            for (boolean fallback : List.of(false, true)) {
                for (Classifier c : Classifier.values()) {
                    for (boolean fails : List.of(false, true)) {
                        for (boolean done : List.of(false, true)) {
                            all.add(new Case(state, fallback, c, fails, done));
                        }
                    }
                }
            }
        }
        return all.stream();
    }

    /** A breaker in {@code state}: CLOSED, or HALF_OPEN with no probe taken yet. */
    private static CircuitBreaker breaker(State state, FailureClassifier classifier, FakeTicker ticker) {
        CircuitBreaker b = CircuitBreaker.builder("async")
                .window(Windows.consecutiveFailures(1))
                .cooldown(Duration.ofNanos(COOLDOWN))
                .classifier(classifier)
                .ticker(ticker)
                .build();
        if (state == State.HALF_OPEN) {
            b.tryAcquire().onFailure(0, null);
            ticker.advance(COOLDOWN);
        }
        return b;
    }

    @ParameterizedTest
    @MethodSource("cases")
    void aBadClassifierStillCompletesTheStageAndSettlesThePermit(Case c) {
        FakeTicker ticker = new FakeTicker();
        CircuitBreaker b = breaker(c.state(), c.classifier().classifier, ticker);
        IOException dependencyFailure = new IOException("dependency down");
        CompletableFuture<String> source = new CompletableFuture<>();
        if (c.alreadyDone()) {
            complete(source, c.callFails(), dependencyFailure);
        }
        Function<Throwable, String> fallback = t -> "fallback:" + t.getClass().getSimpleName();
        CompletionStage<String> stage = c.fallback() ? b.callAsync(() -> source, fallback) : b.callAsync(() -> source);
        if (!c.alreadyDone()) {
            if (c.state() == State.HALF_OPEN) {
                assertEquals(1, b.metrics().probesAdmitted(), "the probe is held while the call runs");
            }
            complete(source, c.callFails(), dependencyFailure);
        }
        CompletableFuture<String> f = stage.toCompletableFuture();
        assertTrue(f.isDone(), "the returned stage completed");
        Throwable classifierFailure;
        if (c.fallback()) {
            String value = f.join();
            assertEquals(c.callFails() ? "fallback:IOException" : "fallback:IllegalStateException", value);
        } else {
            Throwable thrown = assertThrows(CompletionException.class, f::join).getCause();
            if (c.callFails()) {
                assertSame(dependencyFailure, thrown, "the dependency's exception wins");
                assertEquals(1, thrown.getSuppressed().length, "the classifier's failure is suppressed in it");
                classifierFailure = thrown.getSuppressed()[0];
            } else {
                classifierFailure = thrown;
            }
            assertInstanceOf(IllegalStateException.class, classifierFailure);
            if (c.classifier() == Classifier.RETURNS_NULL) {
                assertTrue(classifierFailure.getMessage().contains("returned null"), classifierFailure.getMessage());
            }
        }
        assertEquals(c.state(), b.state(), "no outcome was recorded");
        assertEquals(0, b.metrics().probesAdmitted(), "the probe slot came back");
        assertEquals(0, b.metrics().duplicateReports());
        assertEquals(0, b.metrics().lateResults());
    }

    private static void complete(CompletableFuture<String> source, boolean fails, Throwable failure) {
        if (fails) {
            source.completeExceptionally(failure);
        } else {
            source.complete("ok");
        }
    }

    @ParameterizedTest
    @MethodSource("cases")
    void aSupplierThatThrowsWithABadClassifierGivesAFailedStageNotAThrow(Case c) {
        if (c.alreadyDone() || !c.callFails()) {
            return; // one run per state, fallback and classifier
        }
        FakeTicker ticker = new FakeTicker();
        CircuitBreaker b = breaker(c.state(), c.classifier().classifier, ticker);
        IllegalArgumentException thrown = new IllegalArgumentException("supplier threw");
        CompletionStage<String> stage = c.fallback()
                ? b.callAsync(
                        () -> {
                            throw thrown;
                        },
                        t -> "fallback:" + t.getMessage())
                : b.callAsync(() -> {
                    throw thrown;
                });
        CompletableFuture<String> f = stage.toCompletableFuture();
        assertTrue(f.isDone());
        if (c.fallback()) {
            assertEquals("fallback:supplier threw", f.join());
        } else {
            assertSame(thrown, assertThrows(CompletionException.class, f::join).getCause());
        }
        assertEquals(1, thrown.getSuppressed().length, "the classifier's failure rides along");
        assertEquals(0, b.metrics().probesAdmitted(), "the probe slot came back");
    }

    @Test
    void aTickerThatFailsAtCompletionStillCompletesTheStageAndRecordsTheOutcome() {
        FlakyTicker ticker = new FlakyTicker();
        CircuitBreaker b = CircuitBreaker.builder("async-ticker")
                .window(Windows.consecutiveFailures(1))
                .cooldown(Duration.ofNanos(COOLDOWN))
                .slowCallThreshold(Duration.ofSeconds(1))
                .ticker(ticker)
                .build();
        b.tryAcquire().onFailure(0, null);
        ticker.advance(COOLDOWN);

        CompletableFuture<String> ok = new CompletableFuture<>();
        CompletableFuture<String> probe = b.callAsync(() -> ok).toCompletableFuture();
        ticker.failNext(1); // the reading that times the call
        ok.complete("ok");
        assertTrue(probe.isDone());
        assertInstanceOf(
                FlakyTicker.TickerBroke.class,
                assertThrows(CompletionException.class, probe::join).getCause(),
                "the call succeeded, but the broken ticker is not hidden");
        assertEquals(State.CLOSED, b.state(), "the probe's success was recorded (duration unknown, not slow)");

        CompletableFuture<String> failing = new CompletableFuture<>();
        CompletableFuture<String> call = b.callAsync(() -> failing).toCompletableFuture();
        IOException down = new IOException("down");
        ticker.failNext(2); // the timing reading and the trip's reading
        failing.completeExceptionally(down);
        assertTrue(call.isDone());
        Throwable seen = assertThrows(CompletionException.class, call::join).getCause();
        assertSame(down, seen, "the dependency's exception wins");
        assertInstanceOf(FlakyTicker.TickerBroke.class, seen.getSuppressed()[0]);
        assertEquals(State.OPEN, b.state(), "the trip was not lost");
    }

    @Test
    void aTickerThatFailsWhenTheCallStartsGivesAFailedStageAndReturnsTheProbe() {
        FlakyTicker ticker = new FlakyTicker();
        CircuitBreaker b = CircuitBreaker.builder("async-start")
                .window(Windows.consecutiveFailures(1))
                .cooldown(Duration.ofNanos(COOLDOWN))
                .slowCallThreshold(Duration.ofSeconds(1))
                .ticker(ticker)
                .build();
        b.tryAcquire().onFailure(0, null);
        ticker.advance(COOLDOWN);
        ticker.failAfter(1, 1); // the permit decision reads well, the call's start time does not
        boolean[] called = {false};
        CompletableFuture<String> f = b.callAsync(() -> {
                    called[0] = true;
                    return CompletableFuture.completedFuture("x");
                })
                .toCompletableFuture();
        assertInstanceOf(
                FlakyTicker.TickerBroke.class,
                assertThrows(CompletionException.class, f::join).getCause());
        assertFalse(called[0], "the call was not made");
        assertEquals(0, b.metrics().probesAdmitted());
        ticker.failNext(1);
        CompletableFuture<String> whileDeciding =
                b.callAsync(() -> CompletableFuture.completedFuture("x")).toCompletableFuture();
        assertTrue(
                whileDeciding.isCompletedExceptionally(),
                "a ticker failing while deciding fails the stage, never throws");
    }

    @Test
    void cancellingTheFallbackStageReleasesTheProbeAndTheLateCompletionDecidesNothing() {
        FakeTicker ticker = new FakeTicker();
        CircuitBreaker b = breaker(State.HALF_OPEN, FailureClassifier.defaults(), ticker);
        CompletableFuture<String> source = new CompletableFuture<>();
        CompletionStage<String> stage = b.callAsync(() -> source.minimalCompletionStage(), t -> "fallback");
        assertEquals(1, b.metrics().probesAdmitted());
        assertTrue(stage.toCompletableFuture().cancel(true), "cancel works on the fallback stage, without throwing");
        assertEquals(0, b.metrics().probesAdmitted(), "the probe was released");
        source.complete("late");
        assertEquals(State.HALF_OPEN, b.state(), "the abandoned call's success did not close the breaker");
        assertEquals(0, b.metrics().lateResults(), "a released permit is not late either");
        assertTrue(b.tryAcquire().granted(), "the slot admits a new probe");
    }

    @Test
    void cancellingCancelsACompletableFutureCallAndToleratesAMinimalStage() {
        FakeTicker ticker = new FakeTicker();
        CircuitBreaker b = breaker(State.HALF_OPEN, FailureClassifier.defaults(), ticker);
        CompletableFuture<String> source = new CompletableFuture<>();
        assertTrue(b.callAsync(() -> source).toCompletableFuture().cancel(false));
        assertTrue(source.isCancelled(), "the call's stage was cancelled too");
        CompletableFuture<String> other = new CompletableFuture<>();
        CompletableFuture<String> minimal =
                b.callAsync(() -> other.minimalCompletionStage()).toCompletableFuture();
        assertTrue(minimal.cancel(true), "no UnsupportedOperationException from the minimal stage");
        assertTrue(minimal.isCancelled());
        assertEquals(0, b.metrics().probesAdmitted());
    }

    @Test
    void aCallersTimeoutIsAFailureSettledAtOnce() {
        FakeTicker ticker = new FakeTicker();
        CircuitBreaker b = breaker(State.HALF_OPEN, FailureClassifier.defaults(), ticker);
        CompletableFuture<String> hanging = new CompletableFuture<>();
        CompletableFuture<String> f =
                b.callAsync(() -> hanging).toCompletableFuture().orTimeout(20, TimeUnit.MILLISECONDS);
        assertInstanceOf(
                TimeoutException.class,
                assertThrows(CompletionException.class, f::join).getCause());
        assertEquals(State.OPEN, b.state(), "the timed-out probe failed the round at once");
        assertTrue(hanging.isCancelled(), "the abandoned call's stage was cancelled");
    }

    @Test
    void aTimeoutIsSlowWhenAThresholdIsSetAndCancellationOrACallersValueRecordNothing() {
        RecordingWindow.Factory windows = new RecordingWindow.Factory(Integer.MAX_VALUE);
        CircuitBreaker timed = CircuitBreaker.builder("timed")
                .window(windows)
                .slowCallThreshold(Duration.ofSeconds(5))
                .ticker(new FakeTicker())
                .build();
        CompletableFuture<String> f =
                timed.callAsync(() -> new CompletableFuture<String>()).toCompletableFuture();
        f.completeExceptionally(new TimeoutException("caller gave up waiting"));
        assertEquals(List.of(new RecordingWindow.Call(true, true)), windows.current().calls);

        timed.callAsync(() -> new CompletableFuture<String>())
                .toCompletableFuture()
                .cancel(true);
        timed.callAsync(() -> new CompletableFuture<String>())
                .toCompletableFuture()
                .complete("hedged elsewhere");
        assertEquals(1, windows.current().calls.size(), "a cancellation and a caller's value record no outcome");

        RecordingWindow.Factory untimedWindows = new RecordingWindow.Factory(Integer.MAX_VALUE);
        CircuitBreaker untimed = CircuitBreaker.builder("untimed")
                .window(untimedWindows)
                .ticker(new FakeTicker())
                .build();
        untimed.callAsync(() -> new CompletableFuture<String>())
                .toCompletableFuture()
                .completeExceptionally(new TimeoutException());
        assertEquals(
                List.of(new RecordingWindow.Call(true, false)),
                untimedWindows.current().calls,
                "without a threshold nothing is slow, a timeout included");
    }

    @Test
    void whicheverFinishesFirstSettlesAndTheOtherChangesNothing() {
        FakeTicker ticker = new FakeTicker();
        CircuitBreaker b = breaker(State.HALF_OPEN, FailureClassifier.defaults(), ticker);
        CompletableFuture<String> source = new CompletableFuture<>();
        CompletableFuture<String> f = b.callAsync(() -> source).toCompletableFuture();
        source.complete("first");
        assertEquals(State.CLOSED, b.state());
        assertFalse(f.cancel(true), "already complete");
        assertFalse(f.completeExceptionally(new TimeoutException()));
        assertEquals("first", f.join());
        assertEquals(0, b.metrics().duplicateReports(), "settled exactly once");
        assertThrows(CancellationException.class, () -> {
            CompletableFuture<String> g =
                    b.callAsync(() -> new CompletableFuture<String>()).toCompletableFuture();
            g.cancel(false);
            g.join();
        });
    }

    // ---------------------------------------------------------------- found by review: hostile stages

    /** A source whose cancel throws an Error. */
    private static CompletableFuture<String> uncancellable() {
        return new CompletableFuture<>() {
            @Override
            public boolean cancel(boolean mayInterrupt) {
                throw new AssertionError("cancel unsupported");
            }
        };
    }

    @Test
    void aSourceWhoseCancelThrowsStillLetsTheStageComplete() throws Exception {
        FakeTicker ticker = new FakeTicker();
        CircuitBreaker b = breaker(State.CLOSED, FailureClassifier.defaults(), ticker);
        CompletableFuture<String> cancelled =
                b.callAsync(AsyncFaultTests::uncancellable).toCompletableFuture();
        assertTrue(cancelled.cancel(true));
        assertTrue(cancelled.isCancelled());
        CompletableFuture<String> timedOut = b.callAsync(AsyncFaultTests::uncancellable)
                .toCompletableFuture()
                .orTimeout(5, TimeUnit.MILLISECONDS);
        assertInstanceOf(
                TimeoutException.class,
                assertThrows(CompletionException.class, timedOut::join).getCause());
    }

    @Test
    void aCallersCompleteAsyncReleasesThePermit() throws Exception {
        FakeTicker ticker = new FakeTicker();
        CircuitBreaker b = breaker(State.HALF_OPEN, FailureClassifier.defaults(), ticker);
        CompletableFuture<String> source = new CompletableFuture<>();
        CompletableFuture<String> f = b.callAsync(() -> source).toCompletableFuture();
        assertEquals("caller's value", f.completeAsync(() -> "caller's value").get(5, TimeUnit.SECONDS));
        assertEquals(0, b.metrics().probesAdmitted(), "a caller's value releases the permit");
        source.complete("late");
        assertEquals(State.HALF_OPEN, b.state());
    }

    @Test
    void theCallersFinishingMethodsAnswerLikeACompletableFutureAndReleaseTheProbe() {
        FakeTicker ticker = new FakeTicker();
        CircuitBreaker b = breaker(State.HALF_OPEN, FailureClassifier.defaults(), ticker);
        CompletableFuture<String> completed =
                b.callAsync(CompletableFuture<String>::new).toCompletableFuture();
        assertTrue(completed.complete("caller's"), "the caller's value completed the stage");
        assertFalse(completed.complete("again"), "a second completion changes nothing");
        assertEquals(0, b.metrics().probesAdmitted());

        CompletableFuture<String> failed =
                b.callAsync(CompletableFuture<String>::new).toCompletableFuture();
        assertTrue(failed.completeExceptionally(new IllegalStateException("caller's")));
        assertFalse(failed.completeExceptionally(new IllegalStateException("again")));
        assertEquals(0, b.metrics().probesAdmitted(), "a caller's exception is not the dependency's: released");

        CompletableFuture<String> cancelled =
                b.callAsync(CompletableFuture<String>::new).toCompletableFuture();
        assertTrue(cancelled.cancel(false));
        assertTrue(cancelled.cancel(false), "cancelled already, as CompletableFuture answers");
        assertFalse(completed.cancel(false), "completed with a value: not cancelled");
        assertEquals(0, b.metrics().probesAdmitted());
        assertEquals(State.HALF_OPEN, b.state(), "none of it is an outcome");
    }

    @Test
    void obtrudingTheStageSettlesThePermitOnceAndTheLateCallDecidesNothing() {
        FakeTicker ticker = new FakeTicker();
        CircuitBreaker b = breaker(State.HALF_OPEN, FailureClassifier.defaults(), ticker);
        CompletableFuture<String> source = new CompletableFuture<>();
        CompletableFuture<String> f = b.callAsync(() -> source).toCompletableFuture();
        assertEquals(1, b.metrics().probesAdmitted());
        f.obtrudeValue("forced");
        assertEquals("forced", f.join());
        assertEquals(0, b.metrics().probesAdmitted(), "an obtruded value releases the probe");
        f.obtrudeValue("forced again");
        assertEquals("forced again", f.join(), "obtruding still overwrites, as CompletableFuture does");
        source.complete("late");
        assertEquals(State.HALF_OPEN, b.state(), "the call finishing later decides nothing");

        CompletableFuture<String> source2 = new CompletableFuture<>();
        CompletableFuture<String> g = b.callAsync(() -> source2).toCompletableFuture();
        assertEquals(1, b.metrics().probesAdmitted());
        IllegalStateException forced = new IllegalStateException("forced");
        g.obtrudeException(forced);
        assertSame(forced, assertThrows(CompletionException.class, g::join).getCause());
        assertEquals(0, b.metrics().probesAdmitted(), "an obtruded exception releases the probe too");
        source2.completeExceptionally(new IOException("late"));
        assertEquals(State.HALF_OPEN, b.state());
        assertEquals(0, b.metrics().duplicateReports());
    }

    @ParameterizedTest
    @EnumSource(
            value = State.class,
            names = {"CLOSED", "HALF_OPEN"})
    void aStageThatCannotBeObservedFailsTheCallAndReleasesThePermit(State state) {
        FakeTicker ticker = new FakeTicker();
        CircuitBreaker b = breaker(state, FailureClassifier.defaults(), ticker);
        long failedBefore = b.metrics().totalFailures();
        IllegalStateException refusal = new IllegalStateException("no observers, please");
        CompletableFuture<String> hostile = new CompletableFuture<>() {
            @Override
            public CompletableFuture<String> whenComplete(
                    java.util.function.BiConsumer<? super String, ? super Throwable> action) {
                throw refusal;
            }
        };
        CompletableFuture<String> f = b.callAsync(() -> hostile).toCompletableFuture();
        assertSame(refusal, assertThrows(CompletionException.class, f::join).getCause());
        assertEquals(0, b.metrics().probesAdmitted(), "the permit is settled: the outcome can never be known");
        // released, not failed: the caller's stage broke, the dependency said nothing (a window of
        // one consecutive failure would have opened, or failed the round)
        assertEquals(state, b.state());
        assertEquals(failedBefore, b.metrics().totalFailures());
        assertEquals(1, b.metrics().totalIgnored());
        assertTrue(b.tryAcquire().granted(), "the slot came back");
    }

    @Test
    void aFallbackThatThrowsOnARejectionOrABuggySupplierFailsTheStage() {
        FakeTicker ticker = new FakeTicker();
        CircuitBreaker b = breaker(State.CLOSED, FailureClassifier.defaults(), ticker);
        IllegalStateException fallbackBug = new IllegalStateException("fallback bug");
        Function<Throwable, String> throwing = t -> {
            throw fallbackBug;
        };
        CompletableFuture<String> nullStage = b.callAsync(() -> null, throwing).toCompletableFuture();
        assertSame(
                fallbackBug,
                assertThrows(CompletionException.class, nullStage::join).getCause());
        b.isolate();
        CompletableFuture<String> rejected = b.callAsync(() -> CompletableFuture.completedFuture("never"), throwing)
                .toCompletableFuture();
        assertSame(
                fallbackBug,
                assertThrows(CompletionException.class, rejected::join).getCause());
    }

    @Test
    void aSupplierThatReturnsNullIsABugNotAFailure() {
        FakeTicker ticker = new FakeTicker();
        CircuitBreaker b = breaker(State.HALF_OPEN, FailureClassifier.defaults(), ticker);
        CompletableFuture<String> f =
                b.callAsync(() -> (CompletionStage<String>) null).toCompletableFuture();
        assertInstanceOf(
                NullPointerException.class,
                assertThrows(CompletionException.class, f::join).getCause());
        assertEquals(State.HALF_OPEN, b.state(), "nothing recorded");
        assertEquals(0, b.metrics().probesAdmitted(), "the permit was released");
    }
}
