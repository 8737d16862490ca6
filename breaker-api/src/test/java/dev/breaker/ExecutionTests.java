package dev.breaker;

import static dev.breaker.Replay.MILLI;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The execute API: call, get, run, callAsync, fallbacks, classification, slow calls, rejection. */
class ExecutionTests {

    private final FakeTicker ticker = new FakeTicker();

    private CircuitBreakerBuilder builder() {
        return CircuitBreaker.builder("exec")
                .window(Windows.consecutiveFailures(1))
                .cooldown(Duration.ofMillis(10))
                .ticker(ticker);
    }

    private static void trip(CircuitBreaker b) {
        b.tryAcquire().onFailure(0, null);
        assertEquals(State.OPEN, b.state());
    }

    @Test
    void callReturnsResultAndRecordsSuccess() throws Exception {
        CircuitBreaker b = builder().build();
        assertEquals("v", b.call(() -> "v"));
        assertEquals("w", b.get(() -> "w"));
        AtomicInteger ran = new AtomicInteger();
        b.run(ran::incrementAndGet);
        assertEquals(1, ran.get());
        assertEquals(State.CLOSED, b.state());
    }

    @Test
    void checkedExceptionIsRecordedAndRethrown() {
        CircuitBreaker b = builder().build();
        IOException thrown = new IOException("reset by peer");
        IOException e = assertThrows(
                IOException.class,
                () -> b.call(() -> {
                    throw thrown;
                }));
        assertSame(thrown, e);
        assertEquals(State.OPEN, b.state());
    }

    @Test
    void runtimeExceptionFromGetAndRunTrips() {
        CircuitBreaker b1 = builder().build();
        assertThrows(
                IllegalStateException.class,
                () -> b1.get(() -> {
                    throw new IllegalStateException();
                }));
        assertEquals(State.OPEN, b1.state());
        CircuitBreaker b2 = builder().build();
        assertThrows(
                IllegalStateException.class,
                () -> b2.run(() -> {
                    throw new IllegalStateException();
                }));
        assertEquals(State.OPEN, b2.state());
    }

    @Test
    void rejectionThrowsWithoutCallingAndWithoutStackTrace() {
        CircuitBreaker b = builder().build();
        trip(b);
        ticker.advanceMillis(4);
        AtomicInteger calls = new AtomicInteger();
        CallNotPermittedException e =
                assertThrows(CallNotPermittedException.class, () -> b.get(calls::incrementAndGet));
        assertEquals(0, calls.get());
        assertEquals("exec", e.breakerName());
        assertEquals(State.OPEN, e.state());
        assertEquals(6 * MILLI, e.retryAfterNanos());
        assertEquals(0, e.getStackTrace().length);
        assertTrue(
                e.getMessage().contains("'exec'")
                        && e.getMessage().contains("OPEN")
                        && e.getMessage().endsWith("next probe allowed in 6.0 ms"),
                e.getMessage());
    }

    @Test
    void rejectionStackTracesCanBeSwitchedOn() {
        CircuitBreaker b = builder().rejectionStackTraces(true).build();
        trip(b);
        CallNotPermittedException e = assertThrows(CallNotPermittedException.class, () -> b.run(() -> {}));
        assertTrue(e.getStackTrace().length > 0);
    }

    @Test
    void errorIsRethrownAndReleasesTheProbe() {
        CircuitBreaker b = builder().build();
        trip(b);
        ticker.advanceMillis(10);
        assertThrows(
                StackOverflowError.class,
                () -> b.run(() -> {
                    throw new StackOverflowError();
                }));
        assertEquals(State.HALF_OPEN, b.state());
        assertEquals(0, b.metrics().probesAdmitted(), "the slot came back");
        assertEquals("ok", b.get(() -> "ok"));
        assertEquals(State.CLOSED, b.state());
    }

    @Test
    void classifierDecidesOnResultsAndExceptions() throws Exception {
        CircuitBreaker b = builder()
                .window(Windows.consecutiveFailures(2))
                .classifier((result, failure) -> {
                    if (failure instanceof IllegalArgumentException) {
                        return Outcome.IGNORED;
                    }
                    return "503".equals(result) || failure != null ? Outcome.FAILURE : Outcome.SUCCESS;
                })
                .build();
        b.call(() -> "503");
        assertThrows(
                IllegalArgumentException.class,
                () -> b.run(() -> {
                    throw new IllegalArgumentException("bad request");
                }));
        assertEquals(State.CLOSED, b.state(), "the ignored call did not count");
        assertEquals(1, b.metrics().failedCalls());
        b.call(() -> "503");
        assertEquals(State.OPEN, b.state());
    }

    @Test
    void classifierThatThrowsReleasesAndPropagates() {
        CircuitBreaker b = builder()
                .classifier((r, t) -> {
                    throw new UnsupportedOperationException("classifier bug");
                })
                .build();
        trip(b);
        ticker.advanceMillis(10);
        assertThrows(UnsupportedOperationException.class, () -> b.get(() -> "x"));
        assertEquals(0, b.metrics().probesAdmitted());
    }

    @Test
    void slowCallsAreMeasuredWithTheTicker() {
        CircuitBreaker b = builder().slowCallThreshold(Duration.ofMillis(5)).build();
        b.get(() -> {
            ticker.advanceMillis(5);
            return "slow but fine";
        });
        assertEquals(0, b.metrics().slowCalls(), "the consecutive window counts failures only");
        assertEquals(State.CLOSED, b.state());
        trip(b);
        ticker.advanceMillis(10);
        b.get(() -> {
            ticker.advanceMillis(5);
            return "slow probe";
        });
        assertEquals(State.OPEN, b.state(), "a slow probe counts as failed");
        ticker.advanceMillis(10);
        b.get(() -> {
            ticker.advanceMillis(4);
            return "fast probe";
        });
        assertEquals(State.CLOSED, b.state());
    }

    @Test
    void withoutSlowThresholdTheTickerIsNotReadOnTheHappyPath() {
        AtomicInteger reads = new AtomicInteger();
        CircuitBreaker b = CircuitBreaker.builder("untimed")
                .ticker(() -> {
                    reads.incrementAndGet();
                    return 0;
                })
                .build();
        int atBuild = reads.get();
        for (int i = 0; i < 100; i++) {
            b.get(() -> "x");
        }
        assertEquals(atBuild, reads.get());
    }

    @Test
    void nullCallablesAreRejectedAndChangeNothing() {
        CircuitBreaker b = builder().build();
        assertThrows(NullPointerException.class, () -> b.call(null));
        assertThrows(NullPointerException.class, () -> b.get(null));
        assertThrows(NullPointerException.class, () -> b.run(null));
        assertThrows(NullPointerException.class, () -> b.callAsync(null));
        assertEquals(0, b.metrics().generation());
        assertEquals(State.CLOSED, b.state());
    }

    @Test
    void fallbacksReceiveRejectionAndFailure() {
        CircuitBreaker b = builder().build();
        assertEquals(
                "fallback:boom",
                b.get(
                        () -> {
                            throw new IllegalStateException("boom");
                        },
                        e -> "fallback:" + e.getMessage()));
        assertEquals(
                "CallNotPermittedException",
                b.get(() -> "unreached", e -> e.getClass().getSimpleName()));
        assertEquals(
                "CallNotPermittedException",
                b.call(() -> "unreached", e -> e.getClass().getSimpleName()));
        AtomicInteger handled = new AtomicInteger();
        b.run(() -> {}, e -> handled.incrementAndGet());
        assertEquals(1, handled.get());
    }

    @Test
    void asyncSuccessAndFailureAreRecordedOnCompletion() throws Exception {
        CircuitBreaker b = builder().build();
        CompletableFuture<String> source = new CompletableFuture<>();
        CompletionStage<String> stage = b.callAsync(() -> source);
        assertFalse(stage.toCompletableFuture().isDone());
        source.complete("done");
        assertEquals("done", stage.toCompletableFuture().get(1, TimeUnit.SECONDS));
        CompletableFuture<String> failing = new CompletableFuture<>();
        CompletionStage<String> second = b.callAsync(() -> failing);
        failing.completeExceptionally(new IOException("down"));
        ExecutionException e = assertThrows(
                ExecutionException.class, () -> second.toCompletableFuture().get());
        assertTrue(e.getCause() instanceof IOException);
        assertEquals(State.OPEN, b.state());
    }

    @Test
    void asyncRejectionIsAFailedStage() {
        CircuitBreaker b = builder().build();
        trip(b);
        CompletionStage<String> stage = b.callAsync(() -> CompletableFuture.completedFuture("x"));
        ExecutionException e = assertThrows(
                ExecutionException.class, () -> stage.toCompletableFuture().get());
        assertTrue(e.getCause() instanceof CallNotPermittedException);
        assertEquals(
                "fb",
                b.callAsync(() -> CompletableFuture.completedFuture("x"), t -> "fb")
                        .toCompletableFuture()
                        .join());
    }

    @Test
    void asyncCancelReleasesTheProbeAndCancelsTheCall() {
        CircuitBreaker b = builder().build();
        trip(b);
        ticker.advanceMillis(10);
        CompletableFuture<String> never = new CompletableFuture<>();
        CompletionStage<String> stage = b.callAsync(() -> never);
        assertEquals(1, b.metrics().probesAdmitted());
        assertTrue(stage.toCompletableFuture().cancel(true));
        assertEquals(0, b.metrics().probesAdmitted());
        assertTrue(never.isCancelled());
        assertEquals(0, b.metrics().duplicateReports(), "the cancelled source's completion is not a second report");
        assertEquals(
                "ok",
                b.callAsync(() -> CompletableFuture.completedFuture("ok"))
                        .toCompletableFuture()
                        .join());
        assertEquals(State.CLOSED, b.state());
    }

    @Test
    void asyncSupplierThatThrowsIsRecorded() {
        CircuitBreaker b = builder().build();
        CompletionStage<String> stage = b.callAsync(() -> {
            throw new IllegalStateException("could not start");
        });
        assertTrue(stage.toCompletableFuture().isCompletedExceptionally());
        assertEquals(State.OPEN, b.state());
    }

    @Test
    void asyncStageThatNeverCompletesCannotWedgeTheBreaker() {
        CircuitBreaker b = builder().maxHalfOpenDuration(Duration.ofMillis(100)).build();
        trip(b);
        ticker.advanceMillis(10);
        b.callAsync(CompletableFuture::new); // never completes, never cancelled
        ticker.advanceMillis(100);
        assertFalse(b.tryAcquire().granted());
        assertEquals(State.OPEN, b.state());
        ticker.advanceMillis(10);
        assertTrue(b.tryAcquire().granted());
    }

    @Test
    void theFallbackVariantsReturnTheCallsOwnValueWhenItSucceeds() throws Exception {
        CircuitBreaker b = builder().build();
        assertEquals("value", b.call(() -> "value", e -> "fallback"));
        assertEquals("value", b.get(() -> "value", e -> "fallback"));
        assertEquals(0, b.metrics().failedCalls());
    }

    @Test
    void theEndOfCallReadingReachesTheWindowWhenTheBreakerHasOne() {
        RecordingWindow.Factory windows = new RecordingWindow.Factory(100);
        CircuitBreaker timed = builder()
                .window(windows)
                .slowCallThreshold(Duration.ofSeconds(1))
                .build();
        ticker.set(5_000);
        timed.get(() -> {
            ticker.advance(300);
            return "x";
        });
        assertEquals(List.of(5_300L), windows.current().stamps, "the reading taken at the end of the call");
        timed.tryAcquire().onSuccess(0); // a caller's report: the breaker has no reading of its own
        assertEquals(List.of(5_300L), windows.current().stamps);
        assertEquals(2, windows.current().calls.size(), "recorded without a reading");
    }

    @Test
    void trackedClosedPermitsCountTheirFirstReportAndRefuseTheSecond() {
        CircuitBreaker b = builder().trackedPermits(true).build();
        Permit p = b.tryAcquire();
        assertNotSame(p, b.tryAcquire(), "one permit per call");
        p.onSuccess(0);
        p.onFailure(0, null);
        assertEquals(State.CLOSED, b.state(), "the second report is refused");
        assertEquals(1, b.metrics().duplicateReports());
        Permit q = b.tryAcquire();
        q.onFailure(0, null);
        assertEquals(State.OPEN, b.state(), "the first report counts");

        CircuitBreaker backingOff = builder().trackedPermits(true).build();
        Permit r = backingOff.tryAcquire();
        r.onFailure(0, new BackOffTests.TooManyRequests(Duration.ofSeconds(3)));
        assertEquals(State.OPEN, backingOff.state(), "a back-off on a tracked permit opens");
        r.onFailure(0, new BackOffTests.TooManyRequests(Duration.ofSeconds(3)));
        assertEquals(1, backingOff.metrics().duplicateReports(), "and a second one is a duplicate");
        assertEquals(1, backingOff.metrics().generation());
    }

    @Test
    void untrackedClosedPermitsAreOneSharedObjectPerEra() {
        CircuitBreaker b = builder().build();
        Permit p = b.tryAcquire();
        assertSame(p, b.tryAcquire(), "nothing allocated per call");
        b.reset();
        assertNotSame(p, b.tryAcquire(), "a new era, a new permit: the old one's reports are late");
    }
}
