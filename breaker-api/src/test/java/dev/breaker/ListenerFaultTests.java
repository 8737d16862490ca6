package dev.breaker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breaker.testsupport.Waits;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Issue 8, points 5 and 6 (SPEC rule 13): a slow or hostile listener holds no caller for long,
 * the backlog is bounded and counted, nothing is stranded, and a listener that breaks even its
 * own error report costs nobody anything.
 */
class ListenerFaultTests {

    private static void sleepQuietly(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void aSlowListenerHoldsNoCallerForLongAndTheBacklogIsBoundedAndCounted() throws Exception {
        List<StateTransition> seen = Collections.synchronizedList(new ArrayList<>());
        ThreadLocal<int[]> deliveredHere = ThreadLocal.withInitial(() -> new int[1]);
        CircuitBreaker b = CircuitBreaker.builder("hostage")
                .ticker(new FakeTicker())
                .eventBacklog(64)
                .listener(e -> {
                    deliveredHere.get()[0]++;
                    sleepQuietly(1);
                    if (e instanceof StateTransition t) {
                        seen.add(t);
                    }
                })
                .build();
        AtomicBoolean stop = new AtomicBoolean();
        Thread producer = new Thread(() -> {
            while (!stop.get()) {
                b.reset();
            }
        });
        producer.start();
        int most = 0;
        long calls = 0;
        long worst = 0;
        long start = System.nanoTime();
        try {
            // at least 600 ms of contention, and more than 50 resets however slow the machine; the
            // deadline only ends a run whose caller is held
            long until = start + TimeUnit.MILLISECONDS.toNanos(600);
            long deadline = start + TimeUnit.SECONDS.toNanos(Waits.SECONDS);
            while ((System.nanoTime() < until || calls <= 50) && System.nanoTime() < deadline) {
                int[] mine = deliveredHere.get();
                mine[0] = 0;
                long t0 = System.nanoTime();
                b.reset();
                worst = Math.max(worst, System.nanoTime() - t0);
                most = Math.max(most, mine[0]);
                calls++;
            }
        } finally {
            stop.set(true);
            producer.join(10_000);
        }
        assertTrue(most <= EventDispatcher.CALLER_BUDGET, "one reset() delivered " + most + " events itself");
        long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertTrue(calls > 50, "the caller was never held for long: " + calls + " resets in " + took + " ms");
        // a caller sleeps in the listener at most CALLER_BUDGET times; 2 s leaves room for the busiest machine
        assertTrue(worst < TimeUnit.SECONDS.toNanos(2), "the worst reset() took " + worst / 1_000_000 + " ms");
        assertTrue(b.metrics().droppedEvents() > 0, "a backlog beyond 64 was dropped, not kept");
        Events.awaitDelivered(b, seen::size);
        BreakerMetrics m = b.metrics();
        assertEquals(m.generation(), seen.size() + m.droppedEvents(), "every event delivered or counted as dropped");
        long last = 0;
        synchronized (seen) {
            for (StateTransition t : seen) {
                assertTrue(t.generation() > last, "generation order kept: " + t.generation() + " after " + last);
                last = t.generation();
            }
        }
    }

    @Test
    void leftoversAreHandedToTheExecutorAndDeliveredWithNoFurtherEvent() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ConcurrentLinkedQueue<Long> delivered = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<String> deliveredOn = new ConcurrentLinkedQueue<>();
        AtomicInteger handOffs = new AtomicInteger();
        Executor executor = task -> {
            handOffs.incrementAndGet();
            Thread t = new Thread(task, "test-event-executor");
            t.setDaemon(true);
            t.start();
        };
        CircuitBreaker b = CircuitBreaker.builder("leftovers")
                .ticker(new FakeTicker())
                .eventExecutor(executor)
                .listener(e -> {
                    if (e instanceof StateTransition t) {
                        if (t.generation() == 1) {
                            entered.countDown();
                            try {
                                release.await(10, TimeUnit.SECONDS);
                            } catch (InterruptedException ie) {
                                Thread.currentThread().interrupt();
                            }
                        }
                        delivered.add(t.generation());
                        deliveredOn.add(Thread.currentThread().getName());
                    }
                })
                .build();
        Thread first = new Thread(b::reset, "first-caller");
        first.start();
        assertTrue(entered.await(Waits.SECONDS, TimeUnit.SECONDS));
        for (int i = 0; i < 20; i++) {
            b.reset(); // returns at once: another thread is delivering
        }
        release.countDown();
        first.join(TimeUnit.SECONDS.toMillis(Waits.SECONDS));
        assertTrue(!first.isAlive());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Waits.SECONDS);
        while (delivered.size() < 21 && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        List<Long> order = new ArrayList<>(delivered);
        assertEquals(21, order.size(), "every event delivered, though nothing happened after the 21st");
        for (int i = 0; i < order.size(); i++) {
            assertEquals(i + 1, order.get(i));
        }
        List<String> threads = new ArrayList<>(deliveredOn);
        assertEquals(
                EventDispatcher.CALLER_BUDGET,
                threads.stream().filter("first-caller"::equals).count(),
                "the first caller delivered its share only");
        assertTrue(handOffs.get() >= 1);
        assertEquals(0, b.metrics().droppedEvents());
    }

    @Test
    void anExecutorThatRefusesTurnsLeftoversIntoDroppedEventsAndDeliveryGoesOn() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicLong delivered = new AtomicLong();
        CircuitBreaker b = CircuitBreaker.builder("refused")
                .ticker(new FakeTicker())
                .eventExecutor(task -> {
                    throw new RejectedExecutionException("shut down");
                })
                .listener(e -> {
                    if (e instanceof StateTransition t && t.generation() == 1) {
                        entered.countDown();
                        try {
                            release.await(10, TimeUnit.SECONDS);
                        } catch (InterruptedException ie) {
                            Thread.currentThread().interrupt();
                        }
                    }
                    delivered.incrementAndGet();
                })
                .build();
        Thread first = new Thread(b::reset);
        first.start();
        assertTrue(entered.await(Waits.SECONDS, TimeUnit.SECONDS));
        for (int i = 0; i < 20; i++) {
            b.reset();
        }
        release.countDown();
        first.join(TimeUnit.SECONDS.toMillis(Waits.SECONDS));
        assertEquals(21, delivered.get() + b.metrics().droppedEvents(), "delivered or counted, none stranded");
        assertTrue(b.metrics().droppedEvents() > 0);
        long before = delivered.get();
        b.reset();
        assertEquals(before + 1, delivered.get(), "the dispatcher was not left wedged");
    }

    @Test
    void aListenerWhoseToStringThrowsCostsNoProbeAndNoLaterEvent() {
        FakeTicker ticker = new FakeTicker();
        BreakerListener hostile = new BreakerListener() {
            @Override
            public void onEvent(BreakerEvent event) {
                throw new IllegalStateException("listener bug");
            }

            @Override
            public String toString() {
                throw new IllegalStateException("toString bug too");
            }
        };
        List<BreakerEvent> heard = new ArrayList<>();
        CircuitBreaker b = CircuitBreaker.builder("hostile")
                .window(Windows.consecutiveFailures(1))
                .cooldown(Duration.ZERO)
                .ticker(ticker)
                .eventExecutor(Runnable::run)
                .listener(hostile)
                .listener(heard::add)
                .build();
        b.tryAcquire().onFailure(0, null);
        Permit probe = b.tryAcquire(); // this request performs OPEN -> HALF_OPEN and publishes
        assertTrue(probe.granted(), "the probe granted with the transition reached its caller");
        assertTrue(probe.isProbe());
        probe.onSuccess(0);
        assertEquals(State.CLOSED, b.state());
        b.reset();
        assertEquals(4, heard.size(), "every later event still reached the other listener");
    }

    @Test
    void aLateResultFloodIsBoundedToo() throws Exception {
        AtomicLong heard = new AtomicLong();
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CircuitBreaker b = CircuitBreaker.builder("late-flood")
                .ticker(new FakeTicker())
                .eventBacklog(16)
                .eventExecutor(Runnable::run)
                .listener(e -> {
                    if (e instanceof StateTransition) {
                        entered.countDown();
                        try {
                            release.await(10, TimeUnit.SECONDS);
                        } catch (InterruptedException ie) {
                            Thread.currentThread().interrupt();
                        }
                    }
                    heard.incrementAndGet();
                })
                .build();
        Permit stale = b.tryAcquire();
        Thread resetter = new Thread(b::reset);
        resetter.start();
        assertTrue(entered.await(Waits.SECONDS, TimeUnit.SECONDS));
        for (int i = 0; i < 1_000; i++) {
            stale.onSuccess(0); // late: its generation ended
        }
        release.countDown();
        resetter.join(TimeUnit.SECONDS.toMillis(Waits.SECONDS));
        assertEquals(1_000, b.metrics().lateResults());
        assertEquals(1_001, heard.get() + b.metrics().droppedEvents());
        assertTrue(b.metrics().droppedEvents() >= 1_000 - 16, "at most 16 late results waited");
    }

    @Test
    void aDirectExecutorDeliversEverythingOnTheCallerWithoutGrowingTheStack() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicLong delivered = new AtomicLong();
        CircuitBreaker b = CircuitBreaker.builder("direct")
                .ticker(new FakeTicker())
                .eventBacklog(1 << 20)
                .eventExecutor(Runnable::run)
                .listener(e -> {
                    if (e instanceof StateTransition t && t.generation() == 1) {
                        entered.countDown();
                        try {
                            release.await(30, TimeUnit.SECONDS);
                        } catch (InterruptedException ie) {
                            Thread.currentThread().interrupt();
                        }
                    }
                    delivered.incrementAndGet();
                })
                .build();
        AtomicBoolean failed = new AtomicBoolean();
        Thread first = new Thread(
                null,
                () -> {
                    try {
                        b.reset();
                    } catch (Throwable t) {
                        failed.set(true);
                    }
                },
                "first",
                256 * 1024);
        first.start();
        assertTrue(entered.await(Waits.SECONDS, TimeUnit.SECONDS));
        int more = 400_000; // over 6,000 hand-offs of 64 events each
        for (int i = 0; i < more; i++) {
            b.reset();
        }
        release.countDown();
        first.join(60_000);
        assertTrue(!first.isAlive() && !failed.get(), "the first caller finished normally");
        assertEquals(more + 1, delivered.get(), "all delivered, on the calling thread");
        assertEquals(0, b.metrics().droppedEvents());
    }

    // ---------------------------------------------------------------- found by review: odd executors, the exact bound

    /** The first caller blocks in the listener on generation 1 while {@code more} transitions pile up behind it. */
    private static void pileUp(CircuitBreaker b, CountDownLatch entered, CountDownLatch release, int more)
            throws InterruptedException {
        Thread first = new Thread(b::isolate);
        first.start();
        assertTrue(entered.await(Waits.SECONDS, TimeUnit.SECONDS));
        for (int i = 0; i < more; i++) {
            if (i % 2 == 0) {
                b.reset();
            } else {
                b.isolate();
            }
        }
        release.countDown();
        first.join(TimeUnit.SECONDS.toMillis(Waits.SECONDS));
    }

    private static BreakerListener blockingOnFirst(
            List<Long> generations, CountDownLatch entered, CountDownLatch release) {
        return e -> {
            if (e instanceof StateTransition t) {
                generations.add(t.generation());
                if (t.generation() == 1) {
                    entered.countDown();
                    try {
                        release.await(10, TimeUnit.SECONDS);
                    } catch (InterruptedException ie) {
                        Thread.currentThread().interrupt();
                    }
                }
            }
        };
    }

    @Test
    void anExecutorThatDiscardsTasksOnlyDelaysTheLeftoversUntilTheNextEvent() throws Exception {
        List<Long> generations = new java.util.concurrent.CopyOnWriteArrayList<>();
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CircuitBreaker b = CircuitBreaker.builder("discarding")
                .ticker(new FakeTicker())
                .eventExecutor(task -> {}) // accepts and never runs, like a DiscardPolicy
                .listener(blockingOnFirst(generations, entered, release))
                .build();
        pileUp(b, entered, release, 10);
        assertEquals(EventDispatcher.CALLER_BUDGET, generations.size(), "the first caller delivered its share");
        b.reset(); // the next event: its publisher takes the discarded drain over
        assertEquals(12, generations.size() + b.metrics().droppedEvents(), "nothing stranded");
        for (int i = 0; i < 10; i++) {
            b.reset();
        }
        assertEquals(22, generations.size() + b.metrics().droppedEvents(), "and the dispatcher is not wedged");
    }

    @Test
    void theTransitionBacklogIsExactlyTheEventBacklog() throws Exception {
        List<Long> generations = new java.util.concurrent.CopyOnWriteArrayList<>();
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CircuitBreaker b = CircuitBreaker.builder("bounded")
                .ticker(new FakeTicker())
                .eventBacklog(3)
                .eventExecutor(Runnable::run)
                .listener(blockingOnFirst(generations, entered, release))
                .build();
        pileUp(b, entered, release, 10);
        assertEquals(List.of(1L, 9L, 10L, 11L), generations, "the 3 newest waited; the 7 older were dropped");
        assertEquals(7, b.metrics().droppedEvents());
    }

    @Test
    void aFailingListenerIsLoggedWithTheBreakerTheListenerAndTheEvent() throws Exception {
        RuntimeException bug = new IllegalStateException("listener bug 4711");
        BreakerListener failing = new BreakerListener() {
            @Override
            public void onEvent(BreakerEvent event) {
                throw bug;
            }

            @Override
            public String toString() {
                return "the failing listener";
            }
        };
        CircuitBreaker b = CircuitBreaker.builder("logged")
                .window(Windows.consecutiveFailures(1))
                .eventExecutor(Runnable::run)
                .listener(failing)
                .build();
        try (LogCapture log = new LogCapture()) {
            b.tryAcquire().onFailure(0, null);
            String text = log.text();
            assertTrue(text.contains("breaker 'logged': listener the failing listener failed on"), text);
            assertTrue(text.contains("WINDOW_TRIPPED"), "names the event: " + text);
            assertTrue(text.contains("listener bug 4711"), "with the listener's exception: " + text);
        }
    }
    /** Holds the tasks handed to it until the test runs them: hand-offs become steps of the test. */
    static final class ManualExecutor implements java.util.concurrent.Executor {
        final java.util.ArrayDeque<Runnable> tasks = new java.util.ArrayDeque<>();

        @Override
        public void execute(Runnable task) {
            tasks.add(task);
        }

        void runAll() {
            for (Runnable task; (task = tasks.poll()) != null; ) {
                task.run();
            }
        }
    }

    private static List<Long> range(long from, long to) {
        return java.util.stream.LongStream.rangeClosed(from, to).boxed().toList();
    }

    @Test
    void aListenerThatCausesTransitionsGetsTheCallersShareThenTheExecutorsAndTheOldestAreDropped() {
        ManualExecutor executor = new ManualExecutor();
        List<Long> generations = new ArrayList<>();
        CircuitBreaker[] self = new CircuitBreaker[1];
        CircuitBreaker b = CircuitBreaker.builder("storm")
                .ticker(new FakeTicker())
                .eventExecutor(executor)
                .eventBacklog(16)
                .listener(e -> {
                    if (e instanceof StateTransition t) {
                        generations.add(t.generation());
                        if (t.generation() == 1) {
                            for (int i = 0; i < 20; i++) {
                                self[0].reset(); // generations 2 to 21, published while this drain runs
                            }
                        }
                    }
                })
                .build();
        self[0] = b;
        b.reset();
        List<Long> onTheCaller = new ArrayList<>(List.of(1L));
        onTheCaller.addAll(range(6, 12));
        assertEquals(onTheCaller, generations, "8 on the caller: the first, then the newest 16 less what is left");
        assertEquals(4, b.metrics().droppedEvents(), "generations 2 to 5 were beyond the backlog of 16");
        assertEquals(1, executor.tasks.size(), "the rest was handed over");
        executor.runAll();
        List<Long> all = new ArrayList<>(onTheCaller);
        all.addAll(range(13, 21));
        assertEquals(all, generations);
        assertEquals(4, b.metrics().droppedEvents());
    }

    @Test
    void lateResultsShareTheCallersBudgetAndHaveABacklogOfTheirOwn() {
        for (int backlog : new int[] {16, 4}) {
            ManualExecutor executor = new ManualExecutor();
            List<BreakerEvent> heard = new ArrayList<>();
            Permit[] old = new Permit[1];
            CircuitBreaker b = CircuitBreaker.builder("late")
                    .ticker(new FakeTicker())
                    .eventExecutor(executor)
                    .eventBacklog(backlog)
                    .listener(e -> {
                        heard.add(e);
                        if (e instanceof StateTransition) {
                            for (int i = 0; i < 10; i++) {
                                old[0].onFailure(0, null); // generation 0 has ended: late, each an event
                            }
                        }
                    })
                    .build();
            old[0] = b.tryAcquire();
            b.isolate();
            assertEquals(10, b.metrics().lateResults());
            long late = heard.stream().filter(LateResult.class::isInstance).count();
            if (backlog == 16) {
                assertEquals(7, late, "the caller's 8 deliveries: the transition and 7 late results");
                assertEquals(0, b.metrics().droppedEvents());
                executor.runAll();
                assertEquals(11, heard.size(), "the executor delivered the other 3");
            } else {
                assertEquals(4, late, "4 waited, as many as the backlog holds");
                assertEquals(6, b.metrics().droppedEvents(), "the other 6 were dropped and counted");
                assertTrue(executor.tasks.isEmpty(), "nothing was left to hand over");
            }
        }
    }

    @Test
    void aBacklogOfOneStillDeliversEveryEventInOrder() {
        List<Long> generations = new ArrayList<>();
        CircuitBreaker b = CircuitBreaker.builder("one")
                .ticker(new FakeTicker())
                .eventExecutor(Runnable::run)
                .eventBacklog(1)
                .listener(e -> generations.add(((StateTransition) e).generation()))
                .build();
        b.isolate();
        b.reset();
        b.isolate();
        assertEquals(List.of(1L, 2L, 3L), generations);
    }
    /** A breaker whose listener, on the first transition, causes {@code more} transitions and {@code late} late results. */
    private static CircuitBreaker cascading(
            java.util.concurrent.Executor executor, List<BreakerEvent> heard, int more, int late) {
        CircuitBreaker[] self = new CircuitBreaker[1];
        Permit[] old = new Permit[1];
        CircuitBreaker b = CircuitBreaker.builder("cascade")
                .ticker(new FakeTicker())
                .eventExecutor(executor)
                .listener(e -> {
                    heard.add(e);
                    if (e instanceof StateTransition t && t.generation() == 1) {
                        for (int i = 0; i < more; i++) {
                            self[0].reset();
                        }
                        for (int i = 0; i < late; i++) {
                            old[0].onFailure(0, null);
                        }
                    }
                })
                .build();
        self[0] = b;
        old[0] = b.tryAcquire();
        return b;
    }

    @Test
    void theCallerHandsOverOnlyWhenSomethingIsLeftAfterItsShare() {
        ManualExecutor executor = new ManualExecutor();
        List<BreakerEvent> heard = new ArrayList<>();
        cascading(executor, heard, 7, 0).reset();
        assertEquals(8, heard.size(), "8 events, all on the caller");
        assertTrue(executor.tasks.isEmpty(), "nothing left: nothing handed over");

        heard.clear();
        cascading(executor, heard, 8, 0).reset();
        assertEquals(8, heard.size(), "the caller's share");
        assertEquals(1, executor.tasks.size(), "one event left: handed over");
        executor.runAll();
        assertEquals(9, heard.size());
    }

    @Test
    void whenTheExecutorRefusesExactlyWhatWasLeftIsCountedAsDropped() {
        java.util.concurrent.Executor refusing = task -> {
            throw new RejectedExecutionException("shut down");
        };
        List<BreakerEvent> heard = new ArrayList<>();
        CircuitBreaker oneLeft = cascading(refusing, heard, 8, 0);
        oneLeft.reset();
        assertEquals(8, heard.size());
        assertEquals(1, oneLeft.metrics().droppedEvents(), "the one transition the executor did not take");

        heard.clear();
        CircuitBreaker lateLeft = cascading(refusing, heard, 0, 10);
        lateLeft.reset();
        assertEquals(8, heard.size(), "the transition and 7 late results");
        assertEquals(3, lateLeft.metrics().droppedEvents(), "the 3 late results the executor did not take");
        lateLeft.isolate();
        assertEquals(9, heard.size(), "delivery goes on with the next event");
    }

    @Test
    void aTransitionCausedWhileALateResultIsDeliveredIsDeliveredByTheSameCaller() {
        ManualExecutor executor = new ManualExecutor();
        List<BreakerEvent> heard = new ArrayList<>();
        CircuitBreaker[] self = new CircuitBreaker[1];
        CircuitBreaker b = CircuitBreaker.builder("nested")
                .ticker(new FakeTicker())
                .eventExecutor(executor)
                .listener(e -> {
                    heard.add(e);
                    if (e instanceof LateResult) {
                        self[0].isolate(); // published while this drain delivers the late result
                    }
                })
                .build();
        self[0] = b;
        Permit old = b.tryAcquire();
        b.reset(); // generation 1: delivered
        old.onFailure(0, null); // late: delivered, and its listener isolates (generation 2)
        assertEquals(3, heard.size(), "the caller had budget left: it delivered the new transition too");
        assertEquals(2, ((StateTransition) heard.get(2)).generation());
        assertTrue(executor.tasks.isEmpty(), "nothing handed over");
    }
}
