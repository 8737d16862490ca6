package dev.breaker.window.count;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breaker.BreakerMetrics;
import dev.breaker.CircuitBreaker;
import dev.breaker.Permit;
import dev.breaker.State;
import dev.breaker.Windows;
import dev.breaker.spi.Window;
import dev.breaker.spi.WindowCounts;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

class CountWindowTests {

    private static final long SECOND = 1_000_000_000L;

    private static void rejects(String message, Executable action) {
        assertEquals(
                message, assertThrows(IllegalArgumentException.class, action).getMessage());
    }

    /** A breaker with a count window of 4 at a 50% failure rate and at least 4 calls. */
    private static CircuitBreaker fourAtHalf(AtomicLong now, Duration cooldown, int probes) {
        return CircuitBreaker.builder("rates")
                .window(CountWindow.builder()
                        .size(4)
                        .failureRateThreshold(0.5)
                        .minimumCalls(4)
                        .build())
                .cooldown(cooldown)
                .probes(probes)
                .ticker(now::get)
                .build();
    }

    /**
     * The closed era's calls are counted in its window; when a probe closes the breaker with a new
     * window, they are handed to the totals first: none is lost across the eras.
     */
    @Test
    void theTotalsKeepTheCallsOfEveryEraAcrossARecovery() {
        AtomicLong now = new AtomicLong();
        CircuitBreaker b = fourAtHalf(now, Duration.ofSeconds(1), 1);
        b.tryAcquire().onSuccess(0);
        b.tryAcquire().onSuccess(0);
        b.tryAcquire().onFailure(0, null);
        b.tryAcquire().onFailure(0, null);
        assertEquals(State.OPEN, b.state());
        now.set(Duration.ofSeconds(2).toNanos());
        b.tryAcquire().onSuccess(0);
        assertEquals(State.CLOSED, b.state(), "the probe closed it, with a new window");
        b.tryAcquire().onSuccess(0);
        BreakerMetrics m = b.metrics();
        assertEquals(4, m.totalSuccesses(), "2 before the trip, the probe, 1 after");
        assertEquals(2, m.totalFailures());
        assertEquals(1, m.bufferedCalls(), "the new era's window");
    }

    @Test
    void badSettingsNameKeyAndValue() {
        rejects(
                "size must be in [1, 1000000], was 0",
                () -> CountWindow.builder().size(0));
        rejects(
                "failureRateThreshold must be in (0, 1], was 1.5",
                () -> CountWindow.builder().failureRateThreshold(1.5));
        rejects(
                "slowCallRateThreshold must be in (0, 1], was 0.0",
                () -> CountWindow.builder().slowCallRateThreshold(0));
        rejects("minimumCalls must be >= 1, was 0", () -> CountWindow.builder().minimumCalls(0));
        rejects(
                "consecutiveFailures must be >= 1, was 0",
                () -> CountWindow.builder().consecutiveFailures(0));
        rejects(
                "minimumCalls must be <= size (10), was 11",
                () -> CountWindow.builder().size(10).minimumCalls(11).build());
    }

    @Test
    void theLimitsOfEverySettingAreAcceptedAndOneBeyondIsRefused() {
        rejects(
                "size must be in [1, 1000000], was 1000001",
                () -> CountWindow.builder().size(CountWindow.MAX_SIZE + 1));
        assertEquals(
                "count(size=1000000, failureRateThreshold=0.5, slowCallRateThreshold=1.0, minimumCalls=100)",
                CountWindow.builder().size(CountWindow.MAX_SIZE).build().describe());

        Window one = CountWindow.builder().size(1).build().create(() -> 0);
        assertFalse(one.record(false, false), "the default minimum is min(size, 100): 1");
        assertTrue(one.record(true, false), "a ring of one holds only the failure");
        assertFalse(one.record(false, false), "and then only the success");

        Window eachFailure = CountWindow.builder()
                .failureRateThreshold(1.0)
                .consecutiveFailures(1)
                .build()
                .create(() -> 0);
        assertFalse(eachFailure.record(false, true));
        assertTrue(eachFailure.record(true, false), "a run of one failure trips, far below the minimum");
        assertFalse(eachFailure.record(false, false));
        assertTrue(eachFailure.record(true, false), "and so does the next one");
        rejects(
                "consecutiveFailures must be >= 1, was -1",
                () -> CountWindow.builder().consecutiveFailures(-1));
    }

    @Test
    void namedLookupValidatesEveryKey() {
        assertEquals(
                "count(size=100, failureRateThreshold=0.5, slowCallRateThreshold=1.0, minimumCalls=100)",
                Windows.named("count", Map.of()).describe());
        assertEquals(
                "count(size=20, failureRateThreshold=0.25, slowCallRateThreshold=0.5, minimumCalls=5,"
                        + " consecutiveFailures=3)",
                Windows.named(
                                "count",
                                Map.of(
                                        "size",
                                        "20",
                                        "failureRateThreshold",
                                        "0.25",
                                        "slowCallRateThreshold",
                                        "0.5",
                                        "minimumCalls",
                                        "5",
                                        "consecutiveFailures",
                                        "3"))
                        .describe());
        rejects("window 'count': size must be >= 1, was 0", () -> Windows.named("count", Map.of("size", "0")));
        rejects(
                "window 'count': size must be in [1, 1000000], was 2000000",
                () -> Windows.named("count", Map.of("size", "2000000")));
        rejects(
                "window 'count': failureRateThreshold must be in (0, 1], was 1.5",
                () -> Windows.named("count", Map.of("failureRateThreshold", "1.5")));
        rejects(
                "window 'count': minimumCalls must be <= size (4), was 5",
                () -> Windows.named("count", Map.of("size", "4", "minimumCalls", "5")));
        rejects(
                "window 'count': unknown setting 'length' (value 'PT10S'); known settings: [consecutiveFailures,"
                        + " failureRateThreshold, minimumCalls, size, slowCallRateThreshold]",
                () -> Windows.named("count", Map.of("length", "PT10S")));
    }

    /**
     * A threshold written as a percentage is the same double as its decimal (rounded once, not
     * parsed then divided): 11 failures of 1,000 are exactly 1.1%, and trip at the 11th (SPEC rule
     * 8: at or above), as with 0.011.
     */
    @Test
    void aPercentageThresholdTripsAtExactlyItsRate() {
        for (String threshold : new String[] {"1.1%", "0.011"}) {
            Window w = Windows.named(
                            "count", Map.of("size", "1000", "minimumCalls", "1000", "failureRateThreshold", threshold))
                    .create(() -> 0);
            for (int i = 0; i < 989; i++) {
                assertFalse(w.record(false, false));
            }
            for (int i = 1; i <= 10; i++) {
                assertFalse(w.record(true, false), threshold + ": " + i + " failures of " + (989 + i));
            }
            assertTrue(w.record(true, false), threshold + ": 11 failures of 1,000 are 1.1%");
        }
    }

    /** SPEC worked example: count window of 4, rate 0.5, minimum 4 calls, cooldown 10 s, probes 2. */
    @Test
    void failureRateWorkedExample() {
        AtomicLong now = new AtomicLong();
        CircuitBreaker b = fourAtHalf(now, Duration.ofSeconds(10), 2);
        boolean[] outcomes = {true, false, true, false};
        for (int i = 0; i < outcomes.length; i++) {
            assertEquals(State.CLOSED, b.state(), "before call " + (i + 1));
            Permit p = b.tryAcquire();
            if (outcomes[i]) {
                p.onSuccess(0);
            } else {
                p.onFailure(0, null);
            }
        }
        assertEquals(State.OPEN, b.state(), "OPEN after the fourth");
        now.set(10 * SECOND + SECOND / 2);
        Permit first = b.tryAcquire();
        assertTrue(first.granted(), "a call at 10.5 s is a probe");
        assertEquals(State.HALF_OPEN, b.state());
        first.onSuccess(0);
        Permit second = b.tryAcquire();
        second.onSuccess(0);
        assertEquals(State.CLOSED, b.state(), "a second successful probe closes it");
        assertEquals(0, b.metrics().bufferedCalls(), "closing starts a fresh window");
    }

    @Test
    void metricsReflectTheWindow() {
        CircuitBreaker b = CircuitBreaker.builder("m")
                .window(CountWindow.builder().size(10).minimumCalls(10).build())
                .slowCallThreshold(Duration.ofMillis(100))
                .build();
        b.tryAcquire().onSuccess(0);
        b.tryAcquire().onFailure(200_000_000L, null);
        b.tryAcquire().onSuccess(150_000_000L);
        b.tryAcquire().onFailure(0, null);
        BreakerMetrics m = b.metrics();
        assertEquals(4, m.bufferedCalls());
        assertEquals(2, m.failedCalls());
        assertEquals(2, m.slowCalls());
        assertEquals(0.5, m.failureRate());
        assertEquals(0.5, m.slowCallRate());
        assertEquals(State.CLOSED, m.state(), "below minimum calls");
    }

    @Test
    void tripsOnWhicheverComesFirstRunOrRate() {
        Window w = CountWindow.builder()
                .size(100)
                .failureRateThreshold(0.5)
                .minimumCalls(10)
                .consecutiveFailures(5)
                .build()
                .create(() -> 0);
        for (int i = 0; i < 4; i++) {
            assertFalse(w.record(true, false), "4 in a row, below the minimum: no trip");
        }
        assertTrue(w.record(true, false), "the fifth in a row trips");
        Window rate = CountWindow.builder()
                .size(100)
                .failureRateThreshold(0.5)
                .minimumCalls(10)
                .consecutiveFailures(5)
                .build()
                .create(() -> 0);
        boolean tripped = false;
        for (int i = 0; i < 10; i++) {
            tripped = rate.record(i % 2 == 0, false); // alternating: never 2 in a row
        }
        assertTrue(tripped, "5 of 10 is 50%");
    }

    @Test
    void slowCallRateTripsAlone() {
        Window w = CountWindow.builder()
                .size(4)
                .slowCallRateThreshold(0.75)
                .minimumCalls(4)
                .build()
                .create(() -> 0);
        assertFalse(w.record(false, true));
        assertFalse(w.record(false, true));
        assertFalse(w.record(false, false));
        assertTrue(w.record(false, true), "3 slow of 4 is 75%");
    }

    @Test
    void oldOutcomesLeaveTheRing() {
        Window w = CountWindow.builder()
                .size(3)
                .minimumCalls(3)
                .failureRateThreshold(1.0)
                .build()
                .create(() -> 0);
        w.record(true, true);
        w.record(true, true);
        w.record(false, false);
        w.record(false, false);
        assertEquals(new WindowCounts(3, 1, 1), w.counts());
        w.record(false, false);
        assertEquals(new WindowCounts(3, 0, 0), w.counts());
    }

    @Tag("race")
    @Test
    void parallelMixedRecordsAreExactWhenTheRingHoldsThemAll() throws Exception {
        int threads = 4;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            for (int round = 0; round < 50; round++) {
                Window w = CountWindow.builder().size(4_000).build().create(() -> 0);
                CyclicBarrier start = new CyclicBarrier(threads);
                List<Future<?>> done = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    int id = t;
                    done.add(pool.submit(() -> {
                        start.await();
                        for (int i = 0; i < 1_000; i++) {
                            // per thread: 250 failures, 250 slow successes, 500 plain successes
                            int k = (i + id) % 4;
                            w.record(k == 0, k == 1);
                        }
                        return null;
                    }));
                }
                for (Future<?> f : done) {
                    f.get(30, TimeUnit.SECONDS);
                }
                assertEquals(new WindowCounts(4_000, 1_000, 1_000), w.counts(), "round " + round);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Tag("race")
    @Test
    void parallelRecordsIntoASmallRingLeaveExactlyItsContent() throws Exception {
        // many more outcomes than slots, each thread with its own fixed kind: whatever the
        // interleaving, the totals must equal a recount of the ring's final content
        int threads = 4;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            for (int round = 0; round < 50; round++) {
                Window w =
                        CountWindow.builder().size(16).minimumCalls(16).build().create(() -> 0);
                CyclicBarrier start = new CyclicBarrier(threads);
                List<Future<?>> done = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    boolean failure = t % 2 == 0;
                    boolean slow = t >= 2;
                    done.add(pool.submit(() -> {
                        start.await();
                        for (int i = 0; i < 5_000; i++) {
                            w.record(failure, slow);
                        }
                        return null;
                    }));
                }
                for (Future<?> f : done) {
                    f.get(30, TimeUnit.SECONDS);
                }
                WindowCounts c = w.counts();
                assertEquals(16, c.calls());
                assertEquals(RingProbe.recount(w), c, "totals equal the ring's content, round " + round);
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
