package dev.breaker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breaker.spi.HalfOpenPolicy;
import dev.breaker.testsupport.Waits;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** SPEC rule 19: a dependency that says "retry after" opens the breaker at once for that long, capped. */
class BackOffTests {

    private static final long SECOND = 1_000_000_000L;

    /** A rate-limit error that carries its delay. */
    static final class TooManyRequests extends IOException implements RetryAfter {
        private static final long serialVersionUID = 1L;
        private final transient Duration wait;

        TooManyRequests(Duration wait) {
            super("429, retry after " + wait);
            this.wait = wait;
        }

        @Override
        public Duration retryAfter() {
            return wait;
        }
    }

    private final FakeTicker ticker = new FakeTicker(Long.MAX_VALUE - 2 * SECOND); // wraps during the tests
    private final List<StateTransition> events = new CopyOnWriteArrayList<>();

    private CircuitBreakerBuilder builder() {
        return bare().cooldown(Duration.ofSeconds(60));
    }

    private CircuitBreakerBuilder bare() {
        return CircuitBreaker.builder("rate-limited")
                .window(Windows.consecutiveFailures(5))
                .ticker(ticker)
                .eventExecutor(Runnable::run)
                .listener(e -> {
                    if (e instanceof StateTransition t) {
                        events.add(t);
                    }
                });
    }

    private static void rejectedFor(CircuitBreaker b, long nanos) {
        CallNotPermittedException e = assertThrows(CallNotPermittedException.class, () -> b.run(() -> {}));
        assertEquals(nanos, e.retryAfterNanos());
    }

    @Test
    void aRetryAfterOnTheExecutePathOpensAtOnceForExactlyThatLong() {
        CircuitBreaker b = builder().build();
        assertThrows(
                TooManyRequests.class,
                () -> b.call(() -> {
                    throw new TooManyRequests(Duration.ofSeconds(5));
                }));
        assertEquals(State.OPEN, b.state(), "one call: the window of five was not needed");
        assertEquals(TransitionReason.BACK_OFF, events.get(0).reason());
        rejectedFor(b, 5 * SECOND);
        ticker.advance(5 * SECOND - 1);
        assertFalse(b.tryAcquire().granted());
        ticker.advance(1);
        Permit probe = b.tryAcquire();
        assertTrue(probe.isProbe(), "then it probes as usual");
        probe.onSuccess(0);
        assertEquals(State.CLOSED, b.state());
    }

    @Test
    void theDelayIsCappedByBackOffMax() {
        CircuitBreaker b = builder().backOffMax(Duration.ofMinutes(2)).build();
        b.tryAcquire().onResult(null, new TooManyRequests(Duration.ofHours(1)), 0);
        rejectedFor(b, 120 * SECOND);
        CircuitBreaker byDefault = builder().build();
        byDefault.tryAcquire().onResult(null, new TooManyRequests(Duration.ofDays(365_000)), 0);
        rejectedFor(byDefault, Duration.ofMinutes(10).toNanos());
    }

    @Test
    void aDelayOfZeroOrLessIsAnOrdinaryFailure() {
        CircuitBreaker b = builder().window(Windows.consecutiveFailures(2)).build();
        b.tryAcquire().onResult(null, new TooManyRequests(Duration.ZERO), 0);
        assertEquals(State.CLOSED, b.state());
        assertEquals(1, b.metrics().failedCalls(), "counted as a failure in the window");
        b.tryAcquire().onResult(null, new TooManyRequests(Duration.ofSeconds(-3)), 0);
        assertEquals(State.OPEN, b.state());
        assertEquals(TransitionReason.WINDOW_TRIPPED, events.get(0).reason());
        b.reset();
        b.tryAcquire().onResult(null, new TooManyRequests(null), 0);
        assertEquals(State.CLOSED, b.state(), "no delay at all: an ordinary failure too");
    }

    @Test
    void onTheAsyncPathAndUnderWrappers() {
        CircuitBreaker b = builder().build();
        CompletableFuture<String> call = new CompletableFuture<>();
        CompletableFuture<String> f = b.callAsync(() -> call).toCompletableFuture();
        call.completeExceptionally(new CompletionException(new TooManyRequests(Duration.ofSeconds(3))));
        assertTrue(f.isCompletedExceptionally());
        assertEquals(State.OPEN, b.state());
        rejectedFor(b, 3 * SECOND);
    }

    @Test
    void onThePermitPathAClassifierMayReadTheDelayFromAResult() {
        FailureClassifier http = new FailureClassifier() {
            @Override
            public Outcome classify(Object result, Throwable failure) {
                return failure != null || "503".equals(result) ? Outcome.FAILURE : Outcome.SUCCESS;
            }

            @Override
            public long retryAfterNanos(Object result, Throwable failure) {
                return "503".equals(result) ? 7 * SECOND : 0; // as from a Retry-After: 7 header
            }
        };
        CircuitBreaker b = builder().classifier(http).build();
        b.tryAcquire().onResult("200", null, 0);
        b.tryAcquire().onResult("503", null, 0);
        assertEquals(State.OPEN, b.state());
        rejectedFor(b, 7 * SECOND);

        CircuitBreaker own = builder().build();
        own.tryAcquire().onFailure(0, new TooManyRequests(Duration.ofSeconds(4)));
        assertEquals(State.OPEN, own.state(), "the caller's own failure report is heard too");
    }

    @Test
    void inHalfOpenItOpensForTheDelayAndDoesNotCountAsAConsecutiveOpening() {
        List<Integer> asked = new ArrayList<>();
        HalfOpenPolicy counting = new HalfOpenPolicy() {
            @Override
            public int probes(int consecutiveOpens) {
                return 1;
            }

            @Override
            public long cooldownNanos(int consecutiveOpens) {
                asked.add(consecutiveOpens);
                return SECOND * consecutiveOpens;
            }

            @Override
            public Verdict decide(int consecutiveOpens, int successes, int failures) {
                return failures > 0 ? Verdict.OPEN : Verdict.CLOSE;
            }
        };
        CircuitBreaker b =
                bare().window(Windows.consecutiveFailures(1)).halfOpen(counting).build();
        asked.clear(); // the build checked cooldownNanos(1)
        b.tryAcquire().onFailure(0, null); // trip: opening 1
        ticker.advance(SECOND);
        b.tryAcquire().onFailure(0, new TooManyRequests(Duration.ofSeconds(30))); // the probe is told to back off
        assertEquals(TransitionReason.BACK_OFF, events.get(events.size() - 1).reason());
        rejectedFor(b, 30 * SECOND);
        ticker.advance(30 * SECOND);
        b.tryAcquire().onFailure(0, null); // an ordinary failed probe: opening 2, not 3
        assertEquals(List.of(1, 2), asked, "the back-off was not a consecutive opening");
        rejectedFor(b, 2 * SECOND);
    }

    @Test
    void underAnExecutionExceptionOnTheExecutePathToo() {
        CircuitBreaker b = builder().build();
        CompletableFuture<String> answered = CompletableFuture.failedFuture(new TooManyRequests(Duration.ofSeconds(2)));
        assertThrows(java.util.concurrent.ExecutionException.class, () -> b.call(answered::get));
        assertEquals(State.OPEN, b.state());
        rejectedFor(b, 2 * SECOND);
    }

    @Test
    void theClassifierJudgesFirstAnIgnoredRetryAfterIsNotABackOff() {
        CircuitBreaker b = builder()
                .classifier((result, failure) -> failure instanceof RetryAfter ? Outcome.IGNORED : Outcome.FAILURE)
                .build();
        b.tryAcquire().onResult(null, new TooManyRequests(Duration.ofSeconds(5)), 0);
        assertEquals(State.CLOSED, b.state());
        assertEquals(0, b.metrics().failedCalls());
    }

    @Test
    void aRetryAfterWhoseGetterThrowsGivesTheSlotBackAndPropagates() {
        final class Broken extends IOException implements RetryAfter {
            private static final long serialVersionUID = 1L;

            @Override
            public Duration retryAfter() {
                throw new IllegalStateException("header unparsable");
            }
        }
        CircuitBreaker b = bare().window(Windows.consecutiveFailures(1))
                .cooldown(Duration.ofSeconds(1))
                .build();
        b.tryAcquire().onFailure(0, new IOException());
        ticker.advance(SECOND);
        Permit probe = b.tryAcquire();
        assertTrue(probe.isProbe());
        assertThrows(IllegalStateException.class, () -> probe.onFailure(0, new Broken()));
        assertEquals(State.HALF_OPEN, b.state(), "nothing decided");
        assertTrue(b.tryAcquire().isProbe(), "the probe slot came back");

        CircuitBreaker viaCall = builder().build();
        Broken thrown = assertThrows(
                Broken.class,
                () -> viaCall.call(() -> {
                    throw new Broken();
                }));
        assertTrue(
                thrown.getSuppressed()[0] instanceof IllegalStateException,
                "on the execute path the call's own exception wins, as with any classifier fault");
        assertEquals(State.CLOSED, viaCall.state());
        assertEquals(0, viaCall.metrics().failedCalls(), "released, not recorded");
    }

    @Test
    void theMetricsOfABackOffShowTheEraThatEndedEvenIfItsWindowAgesOut() {
        RecordingWindow.Factory windows = new RecordingWindow.Factory(100);
        CircuitBreaker b = builder().window(windows).build();
        b.tryAcquire().onFailure(0, null);
        b.tryAcquire().onSuccess(0);
        b.tryAcquire().onFailure(0, new TooManyRequests(Duration.ofSeconds(2)));
        assertEquals(State.OPEN, b.state());
        windows.current().counts = dev.breaker.spi.WindowCounts.empty(); // as a time window ages out
        assertEquals(2, b.metrics().bufferedCalls(), "frozen when the back-off ended the era (which it did not join)");
        assertEquals(1, b.metrics().failedCalls());
        ticker.advance(2 * SECOND);
        Permit probe = b.tryAcquire();
        assertTrue(probe.isProbe());
        probe.onFailure(0, new TooManyRequests(Duration.ofSeconds(1)));
        assertEquals(State.OPEN, b.state());
        assertEquals(2, b.metrics().bufferedCalls(), "a back-off from HALF_OPEN keeps the era that tripped");
    }

    @Test
    void aLateBackOffDecidesNothing() {
        CircuitBreaker b = builder().build();
        Permit stale = b.tryAcquire();
        b.reset();
        stale.onFailure(0, new TooManyRequests(Duration.ofSeconds(5)));
        assertEquals(State.CLOSED, b.state());
        assertEquals(1, b.metrics().lateResults());
    }

    @Tag("race")
    @Test
    void racingWithOrdinaryTripsOneTransitionWins() throws Exception {
        int threads = 8;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            for (int round = 0; round < 200; round++) {
                events.clear();
                CircuitBreaker b =
                        builder().window(Windows.consecutiveFailures(1)).build();
                CyclicBarrier start = new CyclicBarrier(threads);
                List<Future<?>> done = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    boolean backOff = t % 2 == 0;
                    Permit p = b.tryAcquire();
                    done.add(pool.submit(() -> {
                        start.await(Waits.SECONDS, TimeUnit.SECONDS);
                        p.onFailure(0, backOff ? new TooManyRequests(Duration.ofSeconds(9)) : new IOException());
                        return null;
                    }));
                }
                for (Future<?> f : done) {
                    Waits.get(f);
                }
                assertEquals(State.OPEN, b.state());
                assertEquals(1, b.metrics().generation(), "round " + round + ": exactly one transition");
                assertEquals(1, events.size());
                long expected = events.get(0).reason() == TransitionReason.BACK_OFF ? 9 * SECOND : 60 * SECOND;
                rejectedFor(b, expected);
                assertTrue(b.metrics().lateResults() <= threads - 1, "the others lost or were late");
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void backOffMaxIsASettingOfTheConfig() {
        assertEquals(Duration.ofMinutes(10), CircuitBreakerConfig.defaults().backOffMax());
        assertEquals(
                "backOffMax must be > 0, was PT0S",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> CircuitBreakerConfig.builder().backOffMax(Duration.ZERO))
                        .getMessage());
        CircuitBreakerConfig c =
                CircuitBreakerConfig.builder().backOffMax(Duration.ofMinutes(1)).build();
        assertFalse(c.equals(CircuitBreakerConfig.defaults()));
        assertTrue(c.toString().endsWith("backOffMax=PT1M]"), c.toString());
    }
}
