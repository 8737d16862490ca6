package dev.breaker.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breaker.BreakerMetrics;
import dev.breaker.CallObserver;
import dev.breaker.CircuitBreaker;
import dev.breaker.Outcome;
import dev.breaker.Permit;
import dev.breaker.Ticker;
import dev.breaker.spi.Window;
import dev.breaker.spi.WindowCounts;
import dev.breaker.spi.WindowFactory;
import dev.breaker.tck.WindowContract.Recorded;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import java.util.function.IntConsumer;
import net.jqwik.api.Assume;
import net.jqwik.api.Example;

/**
 * SPEC rule 8 under racing writers, for rate windows (count, time, and third parties'): lag is
 * allowed, invention is not, and no outcome is lost. Each test feeds threads with streams whose
 * every interleaving is known, then checks what the window said against all of them:
 *
 * <ul>
 * <li>threads that each record a steady 40% of failures never trip a 50% threshold (a decision
 *     that reads calls and failures at different moments can see 50%), nor 40% of slow calls a
 *     50% slow-call threshold;</li>
 * <li>failures spaced by one thread's own successes never put two failures in the last four
 *     outcomes of a four-outcome window, whatever the other threads record (a transient double
 *     count of an evicted failure can);</li>
 * <li>at rest the counts are those of some order of the outcomes that keeps each thread's own
 *     order (an overwritten newer outcome, or a lost one, is not);</li>
 * <li>one recording thread is answered exactly at every outcome while another thread keeps
 *     reading the counts, as a metrics gauge does (reading is not recording);</li>
 * <li>ten thousand virtual threads, unmounting between outcomes, invent no trip and lose no
 *     call (Java 21 and later);</li>
 * <li>under racing writers a trip is answered at most the lag the window documents
 *     ({@link #lagPerRecordingThread()}) per recording thread after the outcome that made the
 *     condition hold, however much traffic came before.</li>
 * </ul>
 *
 * <p>Since contract version 2 ({@link TckVersion}); the lone recorder with a reader since 3; the
 * breaker's totals while its window is replaced since 6; the lag bound since 8; slow calls and
 * virtual threads since 10.
 */
public abstract class RateWindowRaceContract {

    /** For subclasses. */
    protected RateWindowRaceContract() {}

    /**
     * A rate window under test with its oracle.
     *
     * @param factory makes the window
     * @param oracle  its counts after a list of outcomes recorded in that order (time standing still)
     */
    public record Subject(WindowFactory factory, Function<List<Recorded>, WindowCounts> oracle) {}

    /**
     * The window to race: these failure-rate and slow-call-rate thresholds (the races use 1.0 for
     * the rate they do not race), at least {@code minimumCalls} calls, and (for a window that
     * keeps the last N outcomes) N equal to {@code minimumCalls}; with the ticker of
     * {@link #ticker()}. Every rate window takes both thresholds (see {@link RateRuleContract});
     * until contract version 10 this took the failure-rate threshold alone.
     *
     * @param failureRateThreshold  the failure-rate threshold
     * @param slowCallRateThreshold the slow-call-rate threshold
     * @param minimumCalls          the minimum calls (and size, for a count window)
     * @return the window and its oracle
     */
    protected abstract Subject subject(double failureRateThreshold, double slowCallRateThreshold, int minimumCalls);

    /** The window to race on failures: a slow-call-rate threshold of 1.0. */
    private Subject failing(double failureRateThreshold, int minimumCalls) {
        return subject(failureRateThreshold, 1.0, minimumCalls);
    }

    /**
     * The lag this window documents (SPEC rule 8): under concurrent recording, a decision may come
     * at most this many outcomes per recording thread after the outcome that made the trip
     * condition hold. 0, the default, is a window that decides every outcome as it is recorded
     * (under a lock, say); a window that lets outcomes wait, in buffers or stripes, says how many
     * may wait. The bound must not grow with traffic.
     *
     * @return outcomes per recording thread, at least 0
     */
    protected int lagPerRecordingThread() {
        return 0;
    }

    /**
     * The part of {@link #lagPerRecordingThread()} that bad outcomes (failed or slow) can take:
     * the lag while every outcome recorded is bad, which is what
     * {@link #aTripUnderRacingWritersComesWithinTheDocumentedLag} checks. The whole lag by
     * default; a window that lets bad outcomes and plain successes wait in different amounts (say,
     * 64 bad outcomes and 256 plain successes a stripe) names the first here.
     *
     * @return bad outcomes per recording thread, at least 0
     */
    protected int badOutcomeLagPerRecordingThread() {
        return lagPerRecordingThread();
    }

    /**
     * The ticker the windows are made with; time stands still unless a subclass says otherwise.
     *
     * @return the ticker
     */
    protected Ticker ticker() {
        return () -> 0L;
    }

    /**
     * Threads recording a steady 40% of failures each never trip a 50% threshold over 100 calls.
     *
     * @throws Exception when a thread fails
     */
    @Example
    public void steadyFortyPercentNeverTripsFiftyPercent() throws Exception {
        steadyFortyPercentNeverTrips(failing(0.5, 100), new Recorded(true, false));
    }

    /**
     * Threads recording a steady 40% of slow calls each never trip a 50% slow-call threshold over
     * 100 calls.
     *
     * @throws Exception when a thread fails
     */
    @Example
    public void steadyFortyPercentSlowCallsNeverTripFiftyPercent() throws Exception {
        steadyFortyPercentNeverTrips(subject(1.0, 0.5, 100), new Recorded(false, true));
    }

    private void steadyFortyPercentNeverTrips(Subject subject, Recorded bad) throws Exception {
        Recorded s = new Recorded(false, false);
        List<Recorded> pattern = List.of(bad, s, bad, s, s);
        for (int threads = 2; threads <= 4; threads += 2) {
            List<List<Recorded>> streams = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                streams.add(repeat(pattern, 4_000));
            }
            int trips = race(subject, streams, 10).trips;
            assertEquals(0, trips, threads + " threads: a trip on a rate no order of the outcomes reached");
        }
    }

    /**
     * One thread's failures, each followed by four of its own successes, never trip a window of
     * four at 50%, whatever three other threads' successes do.
     *
     * @throws Exception when a thread fails
     */
    @Example
    public void spacedFailuresNeverTripASmallWindow() throws Exception {
        Recorded f = new Recorded(true, false);
        Recorded s = new Recorded(false, false);
        List<List<Recorded>> streams = new ArrayList<>();
        streams.add(repeat(List.of(f, s, s, s, s), 4_000));
        for (int t = 1; t < 4; t++) {
            streams.add(repeat(List.of(s), 20_000));
        }
        assertEquals(0, race(failing(0.5, 4), streams, 20).trips, "two failures were never in the last four");
    }

    /**
     * At rest, the counts are those of some interleaving of the threads' streams that keeps each
     * stream's order: nothing lost, nothing overwritten, nothing counted twice.
     *
     * @throws Exception when a thread fails
     */
    @Example
    public void countsAtRestComeFromSomeOrderOfTheOutcomes() throws Exception {
        SplittableRandom random = new SplittableRandom(42);
        Subject subject = failing(0.5, 4);
        for (int round = 0; round < 300; round++) {
            List<List<Recorded>> streams = List.of(randomStream(random, 7), randomStream(random, 7));
            Window w = race(subject, streams, 1).last;
            Set<WindowCounts> possible = new HashSet<>();
            merges(streams.get(0), 0, streams.get(1), 0, new ArrayList<>(), subject.oracle(), possible);
            WindowCounts seen = w.counts();
            assertTrue(
                    possible.contains(seen),
                    "round " + round + ": " + seen + " is the result of no order of " + streams + "; possible: "
                            + possible);
        }
    }

    /**
     * Ten thousand virtual threads (Java 21 and later; skipped before), each recording 20 outcomes
     * through a breaker and yielding (so unmounting) between them, one thread in 250 with a failure
     * among them: 40 failures in all, so no order of the outcomes puts 50 in a window of 100, and
     * no trip at 50% is right; the breaker's totals count every call once; and a window large
     * enough to hold every call holds every call at rest, and every failure. A window whose state
     * is keyed by thread, or loses what a thread left when it ended, shows here; so does one that
     * waits for a holder by spinning alone, which virtual threads on few carriers can starve.
     *
     * @throws Exception when a thread fails
     */
    @Example
    public void tenThousandVirtualThreadsInventNoTripAndLoseNoCall() throws Exception {
        Assume.that(Runtime.version().feature() >= 21);
        int calls = VIRTUAL_THREADS * PER_VIRTUAL_THREAD;
        BreakerMetrics small = raceOnVirtualThreads(failing(0.5, 100));
        assertEquals(0, small.rejectedCalls(), "a trip on a rate no order of the outcomes reached");
        assertEquals(calls, small.totalSuccesses() + small.totalFailures(), "every call once");
        assertEquals(VIRTUAL_THREADS / 250, small.totalFailures(), "every failure once");
        // a window that holds every call, so that one it lost shows in its counts at rest
        Subject whole = failing(0.5, calls);
        BreakerMetrics all = raceOnVirtualThreads(whole);
        List<Recorded> outcomes = new ArrayList<>(Collections.nCopies(calls, new Recorded(false, false)));
        outcomes.subList(0, VIRTUAL_THREADS / 250).replaceAll(r -> new Recorded(true, false));
        WindowCounts expected = whole.oracle().apply(outcomes); // every order gives these: the window holds all
        assertEquals(expected.calls(), all.bufferedCalls(), "the window's calls at rest");
        assertEquals(expected.failures(), all.failedCalls(), "the window's failures at rest");
    }

    private static final int VIRTUAL_THREADS = 10_000;
    private static final int PER_VIRTUAL_THREAD = 20;

    /** Each virtual thread's calls through a breaker on the subject's window; one thread in 250 fails its first. */
    private BreakerMetrics raceOnVirtualThreads(Subject subject) throws Exception {
        CircuitBreaker b = CircuitBreaker.builder("virtual")
                .window(subject.factory())
                .ticker(ticker())
                .build();
        ExecutorService pool = (ExecutorService)
                Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null); // the kit targets Java 17
        List<Future<?>> calls = new ArrayList<>();
        try {
            for (int t = 0; t < VIRTUAL_THREADS; t++) {
                boolean failsFirst = t % 250 == 0;
                calls.add(pool.submit(() -> {
                    for (int i = 0; i < PER_VIRTUAL_THREAD; i++) {
                        Permit p = b.tryAcquire();
                        if (!p.granted()) {
                            continue; // counted as rejected
                        }
                        Thread.yield(); // unmounts, holding the permit
                        if (i == 0 && failsFirst) {
                            p.onFailure(0, null);
                        } else {
                            p.onSuccess(0);
                        }
                    }
                }));
            }
            for (Future<?> f : calls) {
                f.get(120, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        return b.metrics();
    }

    /**
     * One thread records, another reads the counts all the while: every answer is the oracle's at
     * that outcome, the trip at the deciding outcome and never later (SPEC rule 8).
     *
     * @throws Exception when a thread fails
     */
    @Example
    public void aLoneRecorderIsExactWhileAnotherThreadReadsTheCounts() throws Exception {
        double rate = 0.5;
        int minimumCalls = 10;
        Subject subject = failing(rate, minimumCalls);
        SplittableRandom random = new SplittableRandom(7);
        ExecutorService reader = Executors.newSingleThreadExecutor();
        try {
            for (int round = 0; round < 4; round++) {
                Window w = subject.factory().create(ticker());
                AtomicBoolean stop = new AtomicBoolean();
                Future<?> reading = reader.submit(() -> {
                    while (!stop.get()) {
                        w.counts();
                    }
                });
                List<Recorded> so = new ArrayList<>();
                try {
                    for (int i = 0; i < 3_000; i++) {
                        Recorded r = new Recorded(random.nextInt(100) < 45, false);
                        so.add(r);
                        WindowCounts c = subject.oracle().apply(so);
                        boolean expected = failureRateTrips(c, rate, minimumCalls);
                        assertEquals(
                                expected,
                                w.record(r.failure(), r.slow()),
                                "round " + round + ", outcome " + i + ": the oracle holds " + c);
                    }
                } finally {
                    stop.set(true);
                    reading.get(30, TimeUnit.SECONDS);
                }
            }
        } finally {
            reader.shutdownNow();
        }
    }

    /**
     * A breaker's running totals count each call once, under its outcome, while threads record
     * through this window and the breaker replaces the window (a reset) again and again; read all
     * the while, they never go back. (A window may count the breaker's calls for it, as the
     * project's rate windows do: a call that lands in a window the breaker has just left must
     * still be counted, once.) Each call is checked against what a {@link CallObserver} was told.
     *
     * @throws Exception when a thread fails
     */
    @Example
    public void theBreakersTotalsCountEveryCallOnceWhileItsWindowIsReplaced() throws Exception {
        int threads = 3;
        int perThread = 20_000;
        LongAdder[] told = {new LongAdder(), new LongAdder(), new LongAdder(), new LongAdder()};
        LongAdder late = new LongAdder();
        CircuitBreaker b = CircuitBreaker.builder("totals")
                .window(failing(0.5, 100).factory())
                .slowCallThreshold(Duration.ofNanos(1_000))
                .ticker(ticker())
                .observer(new CallObserver() {
                    @Override
                    public void onOutcome(CircuitBreaker breaker, Outcome outcome, boolean slow, long durationNanos) {
                        if (outcome != Outcome.IGNORED) {
                            told[(outcome == Outcome.FAILURE ? 1 : 0) | (slow ? 2 : 0)].increment();
                        }
                    }

                    @Override
                    public void onLate(CircuitBreaker breaker, Outcome outcome) {
                        late.increment();
                    }
                })
                .build();
        CyclicBarrier start = new CyclicBarrier(threads + 1);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        ExecutorService reader = Executors.newSingleThreadExecutor();
        List<Future<?>> recorders = new ArrayList<>();
        RuntimeException boom = new RuntimeException("boom");
        try {
            for (int t = 0; t < threads; t++) {
                recorders.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < perThread; i++) {
                        Permit p = b.tryAcquire();
                        long duration = i % 15 == 0 ? 2_000 : 0;
                        if (i % 10 == 0) {
                            p.onFailure(duration, boom);
                        } else {
                            p.onSuccess(duration);
                        }
                    }
                    return null;
                }));
            }
            AtomicBoolean recording = new AtomicBoolean(true);
            Future<String> reading = reader.submit(
                    () -> { // reads while the resets go on, not between them
                        BreakerMetrics last = b.metrics();
                        while (recording.get()) {
                            BreakerMetrics now = b.metrics();
                            if (now.totalSuccesses() < last.totalSuccesses()
                                    || now.totalFailures() < last.totalFailures()
                                    || now.totalSlowSuccesses() < last.totalSlowSuccesses()
                                    || now.totalSlowFailures() < last.totalSlowFailures()) {
                                return "the totals went back: " + last + " then " + now;
                            }
                            last = now;
                        }
                        return null;
                    });
            start.await();
            while (!recorders.stream().allMatch(Future::isDone)) {
                b.reset();
                Thread.yield();
            }
            recording.set(false);
            for (Future<?> f : recorders) {
                f.get(60, TimeUnit.SECONDS);
            }
            assertEquals(null, reading.get(60, TimeUnit.SECONDS));
        } finally {
            pool.shutdownNow();
            reader.shutdownNow();
        }
        BreakerMetrics m = b.metrics();
        assertEquals(told[0].sum() + told[2].sum(), m.totalSuccesses(), "successes");
        assertEquals(told[1].sum() + told[3].sum(), m.totalFailures(), "failures");
        assertEquals(told[2].sum(), m.totalSlowSuccesses(), "slow successes");
        assertEquals(told[3].sum(), m.totalSlowFailures(), "slow failures");
        assertEquals(late.sum(), m.lateResults(), "late results");
        assertEquals(
                (long) threads * perThread,
                m.totalSuccesses() + m.totalFailures() + m.lateResults() + m.rejectedCalls(),
                "every call once");
    }

    /**
     * Threads record successes, the window comes to rest, then every thread records failures
     * until one of them is answered with a trip. Each call takes a ticket before it records; the
     * calls answered "no" whose tickets come before the first call answered "trip" are at most
     * those before the deciding failure, plus the documented lag of bad outcomes per thread
     * ({@link #badOutcomeLagPerRecordingThread()}), plus one call in flight per other thread.
     * (Tickets, not the order of the answers: a thread that is descheduled while it holds the
     * answer "trip" must not count against the window.) The same after 300 and after 30,000
     * successes per thread: the lag must not grow with the traffic a window has seen. At rest the
     * counts must be the oracle's. The threads start by spinning on a shared count, so that they
     * record at once.
     *
     * @throws Exception when a thread fails
     */
    @Example
    public void aTripUnderRacingWritersComesWithinTheDocumentedLag() throws Exception {
        int lag = badOutcomeLagPerRecordingThread();
        assertTrue(lag >= 0, "badOutcomeLagPerRecordingThread() must be at least 0, was " + lag);
        double rate = 0.5;
        int minimumCalls = 100;
        Subject subject = failing(rate, minimumCalls);
        for (int threads = 2; threads <= 4; threads += 2) {
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            try {
                for (int successesPerThread : new int[] {300, 300, 30_000}) {
                    Window w = subject.factory().create(ticker());
                    runTogether(pool, threads, t -> {
                        for (int i = 0; i < successesPerThread; i++) {
                            w.record(false, false);
                        }
                    });
                    int successes = threads * successesPerThread;
                    List<Recorded> history =
                            new ArrayList<>(Collections.nCopies(successes, new Recorded(false, false)));
                    assertEquals(subject.oracle().apply(history), w.counts(), "the successes at rest");
                    int deciding = decidingFailure(subject, history, rate, minimumCalls);
                    long bound = (deciding - 1) + (long) threads * lag + (threads - 1);
                    AtomicBoolean tripped = new AtomicBoolean();
                    AtomicLong tickets = new AtomicLong();
                    long[][] noTickets = new long[threads][];
                    long[] firstTrip = new long[threads];
                    long cap = deciding + (long) threads * lag + 1_000; // per thread: a window that never trips ends it
                    runTogether(pool, threads, t -> {
                        long[] no = new long[(int) Math.min(cap, Integer.MAX_VALUE - 8)];
                        int n = 0;
                        firstTrip[t] = Long.MAX_VALUE;
                        for (long i = 0; i < cap && !tripped.get(); i++) {
                            long ticket = tickets.getAndIncrement();
                            if (w.record(true, false)) {
                                firstTrip[t] = ticket;
                                tripped.set(true);
                            } else {
                                no[n++] = ticket;
                            }
                        }
                        noTickets[t] = Arrays.copyOf(no, n);
                    });
                    long trip = Arrays.stream(firstTrip).min().orElseThrow();
                    long before = Arrays.stream(noTickets)
                            .flatMapToLong(Arrays::stream)
                            .filter(k -> k < trip)
                            .count();
                    String where = threads + " threads after " + successesPerThread + " successes each: ";
                    assertTrue(trip != Long.MAX_VALUE, where + "no trip after " + tickets.get() + " failures");
                    assertTrue(
                            before <= bound,
                            where + before + " failures before the first trip were answered \"no\"; failure "
                                    + deciding + " decides, and the documented lag is " + lag
                                    + " per thread, so at most " + bound
                                    + " (with one call in flight per other thread)");
                }
            } finally {
                pool.shutdownNow();
                assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
            }
        }
    }

    /**
     * The number of failures after {@code history} whose last makes the oracle's counts trip:
     * found by doubling, then halving, so a long history costs a few oracle calls. That assumes
     * what every rate window's rule gives: once failures appended to a history trip, more of them
     * still do.
     */
    private static int decidingFailure(Subject subject, List<Recorded> history, double rate, int minimumCalls) {
        int most = history.size() + 2 * minimumCalls;
        int high = 1;
        while (!tripsAfterFailures(subject, history, high, rate, minimumCalls)) {
            if (high >= most) {
                throw new AssertionError("the oracle never trips on failures after " + history.size() + " successes");
            }
            high = Math.min(most, high * 2);
        }
        int low = high / 2; // does not trip (or 0)
        while (high - low > 1) {
            int mid = (low + high) >>> 1;
            if (tripsAfterFailures(subject, history, mid, rate, minimumCalls)) {
                high = mid;
            } else {
                low = mid;
            }
        }
        return high;
    }

    private static boolean tripsAfterFailures(
            Subject subject, List<Recorded> history, int failures, double rate, int minimumCalls) {
        List<Recorded> outcomes = new ArrayList<>(history);
        outcomes.addAll(Collections.nCopies(failures, new Recorded(true, false)));
        return failureRateTrips(subject.oracle().apply(outcomes), rate, minimumCalls);
    }

    /** Rule 8 for the subjects here, whose slow-call threshold is 1.0 and whose outcomes are never slow. */
    private static boolean failureRateTrips(WindowCounts c, double rate, int minimumCalls) {
        return c.calls() >= minimumCalls && (double) c.failures() / c.calls() >= rate;
    }

    /** Runs {@code task} (given the thread's number) on {@code threads} threads of the pool, started together. */
    private static void runTogether(ExecutorService pool, int threads, IntConsumer task) throws Exception {
        AtomicInteger ready = new AtomicInteger();
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int number = t;
            done.add(pool.submit(() -> {
                ready.incrementAndGet();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (ready.get() < threads) { // spin, not park: the threads start recording at once
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("the other threads did not start");
                    }
                    Thread.onSpinWait();
                }
                task.accept(number);
                return null;
            }));
        }
        for (Future<?> f : done) {
            f.get(60, TimeUnit.SECONDS);
        }
    }

    private static List<Recorded> randomStream(SplittableRandom random, int length) {
        List<Recorded> out = new ArrayList<>();
        for (int i = 0; i < length; i++) {
            out.add(new Recorded(random.nextInt(3) == 0, random.nextInt(4) == 0));
        }
        return out;
    }

    private static void merges(
            List<Recorded> a,
            int i,
            List<Recorded> b,
            int j,
            List<Recorded> prefix,
            Function<List<Recorded>, WindowCounts> oracle,
            Set<WindowCounts> out) {
        if (i == a.size() && j == b.size()) {
            out.add(oracle.apply(prefix));
            return;
        }
        if (i < a.size()) {
            prefix.add(a.get(i));
            merges(a, i + 1, b, j, prefix, oracle, out);
            prefix.remove(prefix.size() - 1);
        }
        if (j < b.size()) {
            prefix.add(b.get(j));
            merges(a, i, b, j + 1, prefix, oracle, out);
            prefix.remove(prefix.size() - 1);
        }
    }

    private static List<Recorded> repeat(List<Recorded> pattern, int times) {
        List<Recorded> out = new ArrayList<>(pattern.size() * times);
        for (int i = 0; i < times; i++) {
            out.addAll(pattern);
        }
        return out;
    }

    private record Result(int trips, Window last) {}

    /** Runs {@code rounds} races of the streams, one thread each, started together; counts the trips reported. */
    private Result race(Subject subject, List<List<Recorded>> streams, int rounds) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(streams.size());
        AtomicInteger trips = new AtomicInteger();
        Window window = null;
        try {
            for (int round = 0; round < rounds; round++) {
                Window w = subject.factory().create(ticker());
                window = w;
                runTogether(pool, streams.size(), t -> {
                    for (Recorded r : streams.get(t)) {
                        if (w.record(r.failure(), r.slow())) {
                            trips.incrementAndGet();
                        }
                    }
                });
            }
        } finally {
            pool.shutdownNow();
            assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
        }
        assertFalse(window == null);
        return new Result(trips.get(), window);
    }
}
