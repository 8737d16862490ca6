package dev.breaker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The running totals in {@link BreakerMetrics}: every call counted once, as a success, a failure,
 * ignored, rejected or late, slow ones apart, whatever the window; they add up to all calls.
 */
class TotalsTests {

    private static final long SLOW = 100;
    private final FakeTicker ticker = new FakeTicker();

    private CircuitBreaker breaker(int threshold, int probes) {
        return CircuitBreaker.builder("totals")
                .window(Windows.consecutiveFailures(threshold))
                .cooldown(Duration.ofNanos(10))
                .probes(probes)
                .slowCallThreshold(Duration.ofNanos(SLOW))
                .maxHalfOpenDuration(Duration.ofNanos(50))
                .trackedPermits(true)
                .ticker(ticker)
                .build();
    }

    private static void assertTotals(
            CircuitBreaker b, long ok, long failed, long slowOk, long slowFailed, long ignored) {
        BreakerMetrics m = b.metrics();
        assertEquals(
                List.of(ok, failed, slowOk, slowFailed, ignored),
                List.of(
                        m.totalSuccesses(),
                        m.totalFailures(),
                        m.totalSlowSuccesses(),
                        m.totalSlowFailures(),
                        m.totalIgnored()),
                "successes, failures, slow successes, slow failures, ignored: " + m);
    }

    @Test
    void closedCallsAreCountedByOutcomeAndSlowness() {
        CircuitBreaker b = breaker(100, 1);
        b.tryAcquire().onSuccess(0);
        b.tryAcquire().onSuccess(SLOW);
        b.tryAcquire().onFailure(SLOW - 1, null);
        b.tryAcquire().onFailure(SLOW, null);
        b.tryAcquire().release();
        b.tryAcquire().onResult(null, new java.util.concurrent.CancellationException(), 0); // gave up: released
        assertEquals("answer", b.get(() -> "answer"));
        assertThrows(
                IllegalStateException.class,
                () -> b.get(() -> {
                    throw new IllegalStateException("down");
                }));
        assertTotals(b, 3, 3, 1, 1, 2);
        assertEquals(0, b.metrics().rejectedCalls());
    }

    @Test
    void lateRejectedAndDuplicateReportsAreNotCountedAsOutcomes() {
        CircuitBreaker b = breaker(1, 1);
        Permit held = b.tryAcquire();
        Permit twice = b.tryAcquire();
        twice.onSuccess(0);
        twice.onSuccess(0); // duplicate: tracked permits tell it
        b.tryAcquire().onFailure(0, null); // trips
        held.onSuccess(0); // late
        b.tryAcquire(); // rejected
        BreakerMetrics m = b.metrics();
        assertTotals(b, 1, 1, 0, 0, 0);
        assertEquals(1, m.lateResults());
        assertEquals(1, m.rejectedCalls());
        assertEquals(1, m.duplicateReports());
    }

    @Test
    void probesAreCountedOnceWhateverTheyDecide() {
        CircuitBreaker b = breaker(1, 2);
        b.tryAcquire().onFailure(0, null); // 1 failure, OPEN
        ticker.advance(10);
        Permit p1 = b.tryAcquire();
        Permit p2 = b.tryAcquire();
        p1.release(); // ignored, slot back
        Permit p3 = b.tryAcquire();
        p2.onSuccess(SLOW); // a slow probe fails the round: counted as a slow success, decided as a failure
        p3.onSuccess(0); // late
        assertEquals(State.OPEN, b.state());
        assertTotals(b, 1, 1, 1, 0, 1);
        assertEquals(1, b.metrics().lateResults());
    }

    @Test
    void aProbeThatFindsItsRoundExpiredIsCountedAsItsOutcome() {
        CircuitBreaker b = breaker(1, 1);
        b.tryAcquire().onFailure(0, null);
        ticker.advance(10);
        Permit probe = b.tryAcquire();
        ticker.advance(50);
        probe.onSuccess(0); // reopens for the timeout; not late
        assertEquals(State.OPEN, b.state());
        assertTotals(b, 1, 1, 0, 0, 0);
        assertEquals(0, b.metrics().lateResults());
    }

    @Test
    void aBackOffIsAFailure() {
        CircuitBreaker b = breaker(100, 1);
        b.tryAcquire().onFailure(0, new BackOffTests.TooManyRequests(Duration.ofNanos(5)));
        assertEquals(State.OPEN, b.state());
        ticker.advance(5);
        b.tryAcquire().onFailure(0, new BackOffTests.TooManyRequests(Duration.ofNanos(5))); // the probe backs off
        assertTotals(b, 0, 2, 0, 0, 0);
    }

    @Test
    void totalsSurviveTransitionsAndResets() {
        CircuitBreaker b = breaker(1, 1);
        b.tryAcquire().onFailure(0, null);
        b.reset();
        b.tryAcquire().onSuccess(0);
        b.isolate();
        b.tryAcquire();
        b.reset();
        b.tryAcquire().onSuccess(0);
        assertTotals(b, 2, 1, 0, 0, 0);
        assertEquals(1, b.metrics().rejectedCalls());
    }

    @Tag("race")
    @Test
    void underRacingThreadsEveryCallIsCountedExactlyOnce() throws Exception {
        int threads = 8;
        int calls = 20_000;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            for (int round = 0; round < 20; round++) {
                CircuitBreaker b = breaker(3, 2);
                CyclicBarrier start = new CyclicBarrier(threads);
                List<Future<?>> done = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    done.add(pool.submit(() -> {
                        start.await(10, TimeUnit.SECONDS);
                        ThreadLocalRandom random = ThreadLocalRandom.current();
                        for (int i = 0; i < calls; i++) {
                            Permit p = b.tryAcquire();
                            if (!p.granted()) {
                                if (random.nextInt(50) == 0) {
                                    ticker.advance(10);
                                }
                                continue;
                            }
                            switch (random.nextInt(4)) {
                                case 0 -> p.onFailure(random.nextInt(2) * SLOW, null);
                                case 1 -> p.release();
                                default -> p.onSuccess(random.nextInt(2) * SLOW);
                            }
                        }
                        return null;
                    }));
                }
                for (Future<?> f : done) {
                    f.get(60, TimeUnit.SECONDS);
                }
                BreakerMetrics m = b.metrics();
                long counted =
                        m.totalSuccesses() + m.totalFailures() + m.totalIgnored() + m.rejectedCalls() + m.lateResults();
                assertEquals((long) threads * calls, counted, "round " + round + ": " + m);
                assertTrue(m.totalSlowSuccesses() <= m.totalSuccesses() && m.totalSlowFailures() <= m.totalFailures());
                assertEquals(0, m.duplicateReports());
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * What the registry's idle eviction compares between sweeps moves with every kind of call:
     * an outcome, a release, a rejection and a late result each change it.
     */
    @Test
    void theActivityMovesWithEveryKindOfCall() {
        DefaultCircuitBreaker b = (DefaultCircuitBreaker) breaker(5, 1);
        long[] before = b.activity();
        b.tryAcquire().onSuccess(0);
        long[] afterOutcome = b.activity();
        assertFalse(java.util.Arrays.equals(before, afterOutcome), "an outcome");
        b.tryAcquire().release();
        long[] afterRelease = b.activity();
        assertFalse(java.util.Arrays.equals(afterOutcome, afterRelease), "a release");
        Permit held = b.tryAcquire();
        b.reset();
        held.onFailure(0, null);
        long[] afterLate = b.activity();
        assertFalse(java.util.Arrays.equals(afterRelease, afterLate), "a late result");
        b.isolate();
        b.tryAcquire();
        assertFalse(java.util.Arrays.equals(afterLate, b.activity()), "a rejection");
    }
}
