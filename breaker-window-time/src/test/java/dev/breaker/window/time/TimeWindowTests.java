package dev.breaker.window.time;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breaker.BreakerMetrics;
import dev.breaker.CircuitBreaker;
import dev.breaker.State;
import dev.breaker.Ticker;
import dev.breaker.Windows;
import dev.breaker.spi.Window;
import dev.breaker.spi.WindowCounts;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

class TimeWindowTests {

    private static void rejects(String message, Executable action) {
        assertEquals(
                message, assertThrows(IllegalArgumentException.class, action).getMessage());
    }

    @Test
    void badSettingsNameKeyAndValue() {
        rejects("length must be > 0, was PT0S", () -> TimeWindow.builder().length(Duration.ZERO));
        rejects(
                "buckets must be in [1, 10000], was 0",
                () -> TimeWindow.builder().buckets(0));
        rejects(
                "buckets must be <= length in nanoseconds (5), was 10",
                () -> TimeWindow.builder()
                        .length(Duration.ofNanos(5))
                        .buckets(10)
                        .build());
        rejects(
                "failureRateThreshold must be in (0, 1], was 1.5",
                () -> TimeWindow.builder().failureRateThreshold(1.5));
        rejects("minimumCalls must be >= 1, was 0", () -> TimeWindow.builder().minimumCalls(0));
        assertEquals(
                "length",
                assertThrows(
                                NullPointerException.class,
                                () -> TimeWindow.builder().length(null))
                        .getMessage());
    }

    @Test
    void theLimitsOfEverySettingAreAcceptedAndOneBeyondIsRefused() {
        Duration longest = Duration.ofNanos(Long.MAX_VALUE);
        assertEquals(
                "time(length=PT2562047H47M16.854775807S, buckets=1, failureRateThreshold=0.5,"
                        + " slowCallRateThreshold=1.0, minimumCalls=100)",
                TimeWindow.builder().length(longest).buckets(1).build().describe());
        rejects(
                "length must be at most PT2562047H47M16.854775807S (Long.MAX_VALUE nanoseconds, about 292 years),"
                        + " was PT2562047H47M16.854775808S",
                () -> TimeWindow.builder().length(longest.plusNanos(1)));
        rejects(
                "length must be > 0, was PT-0.000000001S",
                () -> TimeWindow.builder().length(Duration.ofNanos(-1)));

        assertEquals(
                "time(length=PT0.00001S, buckets=10000, failureRateThreshold=0.5, slowCallRateThreshold=1.0,"
                        + " minimumCalls=100)",
                TimeWindow.builder()
                        .length(Duration.ofNanos(10_000))
                        .buckets(TimeWindow.MAX_BUCKETS)
                        .build()
                        .describe());
        rejects(
                "buckets must be in [1, 10000], was 10001",
                () -> TimeWindow.builder().buckets(TimeWindow.MAX_BUCKETS + 1));

        // one bucket per nanosecond of the length is the most allowed
        assertEquals(
                "time(length=PT0.000000005S, buckets=5, failureRateThreshold=0.5, slowCallRateThreshold=1.0,"
                        + " minimumCalls=100)",
                TimeWindow.builder()
                        .length(Duration.ofNanos(5))
                        .buckets(5)
                        .build()
                        .describe());
    }

    @Test
    void namedLookupValidatesEveryKey() {
        assertEquals(
                "time(length=PT10S, buckets=10, failureRateThreshold=0.5, slowCallRateThreshold=1.0,"
                        + " minimumCalls=100)",
                Windows.named("time", Map.of()).describe());
        rejects(
                "window 'time': length must be a duration such as PT10S, 500ms, 30s, 5m or 1h, was 'ten seconds'",
                () -> Windows.named("time", Map.of("length", "ten seconds")));
        rejects(
                "window 'time': buckets must be <= length in nanoseconds (5), was 10",
                () -> Windows.named("time", Map.of("length", "PT0.000000005S", "buckets", "10")));
        rejects(
                "window 'time': slowCallRateThreshold must be in (0, 1], was 2",
                () -> Windows.named("time", Map.of("slowCallRateThreshold", "2")));
        rejects(
                "window 'time': unknown setting 'size' (value '100'); known settings: [buckets,"
                        + " failureRateThreshold, length, minimumCalls, slowCallRateThreshold]",
                () -> Windows.named("time", Map.of("size", "100")));
    }

    @Test
    void oldBucketsLeaveWholeAndTheBreakerTripsOnTheRecentRate() {
        AtomicLong now = new AtomicLong();
        CircuitBreaker b = CircuitBreaker.builder("search")
                .window(TimeWindow.builder()
                        .length(Duration.ofSeconds(10))
                        .buckets(10)
                        .failureRateThreshold(0.5)
                        .minimumCalls(4)
                        .build())
                .slowCallThreshold(Duration.ofMillis(100))
                .ticker(now::get)
                .build();
        for (int i = 0; i < 6; i++) {
            b.tryAcquire().onSuccess(0); // 6 successes at t = 0
        }
        now.set(Duration.ofSeconds(5).toNanos());
        b.tryAcquire().onFailure(0, null);
        b.tryAcquire().onFailure(200_000_000L, null);
        b.tryAcquire().onFailure(0, null);
        BreakerMetrics m = b.metrics();
        assertEquals(9, m.bufferedCalls());
        assertEquals(3, m.failedCalls());
        assertEquals(1, m.slowCalls());
        assertEquals(State.CLOSED, b.state(), "3 of 9");
        now.set(Duration.ofSeconds(10).toNanos()); // the t=0 bucket has left the window
        assertEquals(3, b.metrics().bufferedCalls());
        b.tryAcquire().onSuccess(0);
        assertEquals(State.OPEN, b.state(), "3 failures of 4 in the last 10 s");
    }

    /**
     * Without a slow-call threshold the window reads the ticker itself; when that read fails the
     * call cannot be placed in a bucket, but it happened: the breaker's totals count it (the window
     * counts them for the breaker), and the failure reaches the caller after.
     */
    @Test
    void aCallWhoseTickerReadFailedInTheWindowIsStillCountedInTheTotals() {
        java.util.concurrent.atomic.AtomicBoolean broken = new java.util.concurrent.atomic.AtomicBoolean();
        IllegalStateException failure = new IllegalStateException("clock gone");
        CircuitBreaker b = CircuitBreaker.builder("clockless")
                .window(TimeWindow.builder()
                        .length(Duration.ofSeconds(10))
                        .buckets(10)
                        .minimumCalls(2)
                        .build())
                .ticker(() -> {
                    if (broken.get()) {
                        throw failure;
                    }
                    return 0;
                })
                .build();
        b.tryAcquire().onSuccess(0);
        broken.set(true);
        var permit = b.tryAcquire();
        assertEquals(failure, assertThrows(IllegalStateException.class, () -> permit.onFailure(0, null)));
        var second = b.tryAcquire();
        assertEquals(failure, assertThrows(IllegalStateException.class, () -> second.onSuccess(0)));
        broken.set(false);
        BreakerMetrics m = b.metrics();
        assertEquals(1, m.bufferedCalls(), "only the first call has a time");
        assertEquals(2, m.totalSuccesses());
        assertEquals(1, m.totalFailures(), "the failed call counted, once");
        assertEquals(State.CLOSED, b.state());
    }

    /**
     * A call that passed the breaker's generation check and is taking its time stamp in the window
     * when a reset replaces the window lands in the old one: counted once in the totals, and in
     * neither window's counts of the new era.
     */
    @Test
    void aCallThatLandsInTheOldWindowAfterAResetIsCountedOnce() throws Exception {
        Thread[] straggler = new Thread[1];
        java.util.concurrent.CountDownLatch stamping = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch goOn = new java.util.concurrent.CountDownLatch(1);
        CircuitBreaker b = CircuitBreaker.builder("straggler")
                .window(TimeWindow.builder()
                        .length(Duration.ofSeconds(10))
                        .buckets(10)
                        .build())
                .ticker(() -> {
                    if (Thread.currentThread() == straggler[0]) {
                        stamping.countDown();
                        try {
                            goOn.await();
                        } catch (InterruptedException e) {
                            throw new AssertionError(e);
                        }
                    }
                    return 0;
                })
                .build();
        b.tryAcquire().onSuccess(0);
        var permit = b.tryAcquire();
        straggler[0] = new Thread(() -> permit.onFailure(0, null));
        straggler[0].start();
        assertTrue(stamping.await(10, TimeUnit.SECONDS));
        b.reset(); // a new window; the straggler is inside the old one
        b.tryAcquire().onSuccess(0);
        goOn.countDown();
        straggler[0].join(10_000);
        BreakerMetrics m = b.metrics();
        assertEquals(2, m.totalSuccesses());
        assertEquals(1, m.totalFailures(), "the straggler's failure, once");
        assertEquals(0, m.lateResults(), "it passed the generation check before the reset");
        assertEquals(1, m.bufferedCalls(), "the new window holds only the new era's call");
    }

    @Test
    void creatingAndIdlingStartsNoThread() {
        // Compared as sets of live threads, not as counts: another test's pool threads may still
        // be dying when this one starts, and a count would mistake them for a change.
        Set<Thread> before = Thread.getAllStackTraces().keySet();
        List<Window> windows = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            windows.add(TimeWindow.builder().build().create(Ticker.system()));
        }
        // Of the new threads, only breaker-api's default event threads ("dev.breaker-events", one
        // per hand-off when the common pool has no parallelism) are left out, and only while they
        // run no window code: another test's breaker may still be delivering its events, and its
        // delivery resubmits itself on a new such thread. A window builds no breaker, so it cannot
        // have started one. Keeping only threads that run window code instead would let an idle
        // pool or timer thread that a window started pass, its stack being all JDK frames.
        Set<Thread> started = new HashSet<>();
        Thread.getAllStackTraces().forEach((thread, stack) -> {
            if (!before.contains(thread)
                    && (runsWindowCode(stack) || !thread.getName().startsWith("dev.breaker-events"))) {
                started.add(thread);
            }
        });
        assertEquals(Set.of(), started, "threads started while creating and idling windows");
        assertEquals(WindowCounts.empty(), windows.get(99).counts());
    }

    private static boolean runsWindowCode(StackTraceElement[] stack) {
        for (StackTraceElement frame : stack) {
            if (frame.getClassName().startsWith("dev.breaker.window.")) {
                return true;
            }
        }
        return false;
    }

    /**
     * Threads record with their own clocks (a per-thread ticker), so each outcome's time is known
     * exactly while buckets rotate under concurrent writers. At the end the window must hold
     * exactly the outcomes whose bucket is still in the window: no count lost from a live epoch,
     * none leaked from a recycled one.
     */
    @Tag("race")
    @Test
    void concurrentRotationLosesAndLeaksNothing() throws Exception {
        int threads = 4;
        long width = 1_000;
        int buckets = 4;
        ThreadLocal<long[]> clock = ThreadLocal.withInitial(() -> new long[1]);
        Ticker perThread = () -> clock.get()[0];
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            for (int round = 0; round < 30; round++) {
                clock.get()[0] = 0;
                Window w = TimeWindow.builder()
                        .length(Duration.ofNanos(width * buckets))
                        .buckets(buckets)
                        .minimumCalls(1)
                        .build()
                        .create(perThread); // created at the main thread's clock
                ConcurrentLinkedQueue<long[]> recorded = new ConcurrentLinkedQueue<>();
                CyclicBarrier start = new CyclicBarrier(threads);
                List<Future<?>> done = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    long seed = round * 31L + t;
                    done.add(pool.submit(() -> {
                        SplittableRandom random = new SplittableRandom(seed);
                        long[] now = clock.get();
                        now[0] = 0; // the same origin as the window's, made at the main thread's 0
                        start.await();
                        for (int i = 0; i < 3_000; i++) {
                            now[0] += random.nextInt(8); // each thread's time only moves forward
                            boolean failure = random.nextBoolean();
                            w.record(failure, false);
                            recorded.add(new long[] {now[0], failure ? 1 : 0});
                        }
                        return now[0];
                    }));
                }
                long end = 0;
                for (Future<?> f : done) {
                    end = Math.max(end, (Long) f.get(30, TimeUnit.SECONDS));
                }
                clock.get()[0] = end;
                WindowCounts expected = expected(recorded, 0, end, width, buckets);
                assertEquals(expected, w.counts(), "round " + round);
                assertTrue(expected.calls() > 0);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * What the window must hold at {@code end}: outcomes of the last {@code buckets} buckets,
     * except those whose slot a later epoch took before they arrived (their epoch had left).
     */
    private static WindowCounts expected(Iterable<long[]> recorded, long origin, long end, long width, int buckets) {
        long current = (end - origin) / width;
        long calls = 0;
        long failures = 0;
        for (long[] r : recorded) {
            long epoch = (r[0] - origin) / width;
            if (epoch > current - buckets && epoch <= current) {
                calls++;
                failures += r[1];
            }
        }
        return new WindowCounts(calls, failures, 0);
    }
}
