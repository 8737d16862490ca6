package dev.breaker.events;

import static dev.breaker.events.EventBusTests.transition;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breaker.BreakerEvent;
import dev.breaker.CircuitBreaker;
import dev.breaker.StateTransition;
import dev.breaker.Windows;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The asynchronous bus under load: per-breaker order across many breakers, a sleeping subscriber
 * and a full queue (drops counted, publishers not held), executors that refuse, close, and races
 * between publishers and close where every event is delivered or counted, never stranded.
 */
class AsyncBusTests {

    @Tag("race")
    @Test
    void eachBreakersTransitionsArriveInGenerationOrderWhileManyBreakersTransitionAtOnce() throws Exception {
        int breakers = 8;
        int threads = 4;
        EventBus bus = EventBus.builder().capacity(1 << 16).build();
        Map<String, List<Long>> seen = new ConcurrentHashMap<>();
        bus.subscribe(
                StateTransition.class,
                t -> seen.computeIfAbsent(t.breakerName(), n -> new ArrayList<>())
                        .add(t.generation())); // one delivering thread: the lists need no lock
        List<CircuitBreaker> all = new ArrayList<>();
        for (int i = 0; i < breakers; i++) {
            all.add(CircuitBreaker.builder("b" + i)
                    .window(Windows.consecutiveFailures(1))
                    .cooldown(Duration.ZERO)
                    .listener(bus)
                    .eventBacklog(1 << 16)
                    .build());
        }
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            RandomTraffic.run(pool, threads, all, 5_000);
        } finally {
            pool.shutdownNow();
        }
        for (CircuitBreaker b : all) { // the breakers' own delivery may still be handing events to the bus
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (System.nanoTime() < deadline) {
                var m = b.metrics();
                List<Long> got = seen.getOrDefault(b.name(), List.of());
                if (got.size() + m.droppedEvents() + bus.droppedEvents() >= m.generation()) {
                    break;
                }
                Thread.sleep(1);
            }
        }
        bus.close();
        assertEquals(0, bus.droppedEvents(), "the queue was large enough for every event");
        for (CircuitBreaker b : all) {
            List<Long> got = seen.get(b.name());
            assertTrue(got != null && got.size() > 10, b.name() + " transitioned: " + got);
            assertEquals(0, b.metrics().droppedEvents());
            for (int i = 0; i < got.size(); i++) {
                assertEquals(i + 1L, got.get(i), b.name() + ": every generation once, in order");
            }
            assertEquals(b.metrics().generation(), got.size());
        }
    }

    @Test
    void aSleepingSubscriberHoldsNoPublisherAndAFullQueueDropsAndCounts() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger delivered = new AtomicInteger();
        EventBus bus = EventBus.builder().capacity(16).build();
        bus.subscribe(BreakerEvent.class, e -> {
            try {
                release.await(); // asleep until the test lets it go
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
            }
            delivered.incrementAndGet();
        });
        try {
            int published = 100_000;
            long start = System.nanoTime();
            for (int i = 1; i <= published; i++) {
                bus.onEvent(transition("a", i));
            }
            long took = System.nanoTime() - start;
            assertTrue(took < TimeUnit.SECONDS.toNanos(5), "publishing was held: " + took / 1_000_000 + " ms");
            assertTrue(bus.queuedEvents() <= 16, "bounded: " + bus.queuedEvents());
            long dropped = bus.droppedEvents();
            assertTrue(dropped >= published - 17, "a full queue drops: " + dropped);
            release.countDown();
            bus.close();
            assertEquals(published, delivered.get() + bus.droppedEvents(), "each event delivered or counted");
            assertEquals(0, bus.queuedEvents());
        } finally {
            release.countDown(); // should the test fail with the subscriber still asleep
            bus.close();
        }
    }

    /**
     * The bus's own thread delivers a budget of events per round and keeps its count of announced
     * events bounded and above 0 while the queue does not empty. A backlog of many budgets, piled
     * up behind one slow delivery, must all be delivered, with no new event to wake the thread,
     * and an event published after it still reaches the subscriber (the count has not wrapped).
     */
    @Test
    void aBacklogOfManyBudgetsIsDeliveredWithoutAnotherPublish() throws Exception {
        int backlog = 40 * AsyncDelivery.TASK_BUDGET;
        CountDownLatch first = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger delivered = new AtomicInteger();
        EventBus bus = EventBus.builder().capacity(backlog + 2).build();
        try {
            bus.subscribe(BreakerEvent.class, e -> {
                if (delivered.getAndIncrement() == 0) {
                    first.countDown();
                    try {
                        release.await();
                    } catch (InterruptedException ie) {
                        Thread.currentThread().interrupt();
                    }
                }
            });
            bus.onEvent(transition("a", 1));
            assertTrue(Patience.await(first));
            for (int i = 2; i <= backlog + 1; i++) {
                bus.onEvent(transition("a", i));
            }
            release.countDown();
            long deadline = Patience.deadline();
            while (delivered.get() < backlog + 1 && System.nanoTime() < deadline) {
                Thread.sleep(1);
            }
            assertEquals(backlog + 1, delivered.get(), "every event of the backlog, with no publish after it");
            bus.onEvent(transition("a", backlog + 2));
            deadline = Patience.deadline();
            while (delivered.get() < backlog + 2 && System.nanoTime() < deadline) {
                Thread.sleep(1);
            }
            assertEquals(backlog + 2, delivered.get(), "and the next one");
            assertEquals(0, bus.droppedEvents());
        } finally {
            release.countDown();
            bus.close();
        }
    }

    /**
     * A queue that never empties for many rounds: each delivery publishes the next event, so every
     * round ends with its whole budget spent and more waiting. The count of announced events must
     * stay bounded and positive throughout; a publisher that found it negative would take the
     * bus's thread for gone and drop the queue.
     */
    @Test
    void aSubscriberThatKeepsTheQueueFromEmptyingForManyRoundsLosesNothing() throws Exception {
        int events = 40 * AsyncDelivery.TASK_BUDGET;
        AtomicInteger delivered = new AtomicInteger();
        EventBus bus = EventBus.async();
        try {
            bus.subscribe(BreakerEvent.class, e -> {
                int n = delivered.incrementAndGet();
                if (n + 1 < events) {
                    bus.onEvent(transition("a", n + 2)); // one stays queued behind this one
                }
            });
            bus.onEvent(transition("a", 1));
            bus.onEvent(transition("a", 2));
            long deadline = Patience.deadline();
            while (delivered.get() < events && System.nanoTime() < deadline) {
                Thread.sleep(1);
            }
            assertEquals(0, bus.droppedEvents(), "nothing dropped");
            assertEquals(events, delivered.get());
        } finally {
            bus.close();
        }
    }

    @Test
    void closeDeliversWhatIsQueued() throws Exception {
        AtomicInteger delivered = new AtomicInteger();
        // a close wait far longer than the 200 deliveries of 1 ms take, however loaded the machine
        EventBus bus = EventBus.builder().closeWait(Duration.ofSeconds(60)).build();
        bus.subscribe(BreakerEvent.class, e -> {
            sleep(1);
            delivered.incrementAndGet();
        });
        for (int i = 1; i <= 200; i++) {
            bus.onEvent(transition("a", i));
        }
        bus.close();
        assertEquals(200, delivered.get());
        assertEquals(0, bus.droppedEvents());
        assertFalse(busThreadAlive(bus), "the bus's thread ended");
    }

    @Test
    void closeWaitsABoundedTimeThenCountsWhatIsLeftAndStopsTheThread() throws Exception {
        CountDownLatch stuck = new CountDownLatch(1);
        CountDownLatch entered = new CountDownLatch(1);
        AtomicInteger delivered = new AtomicInteger();
        EventBus bus = EventBus.builder().closeWait(Duration.ofMillis(200)).build();
        bus.subscribe(BreakerEvent.class, e -> {
            delivered.incrementAndGet();
            entered.countDown();
            try {
                stuck.await();
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
            }
        });
        for (int i = 1; i <= 50; i++) {
            bus.onEvent(transition("a", i));
        }
        assertTrue(Patience.await(entered)); // the first delivery is stuck before close starts its wait
        long start = System.nanoTime();
        bus.close();
        long took = System.nanoTime() - start;
        assertTrue(took < TimeUnit.SECONDS.toNanos(3), "close waited " + took / 1_000_000 + " ms");
        assertEquals(1, delivered.get(), "only the stuck delivery began");
        assertEquals(49, bus.droppedEvents(), "the rest counted as dropped");
        stuck.countDown();
        long deadline = Patience.deadline();
        while (busThreadAlive(bus) && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertFalse(busThreadAlive(bus), "the thread ends once its subscriber returns");
        assertEquals(1, delivered.get(), "nothing delivered after close gave up");
    }

    @Test
    void closeReturnsByItsDeadlineEvenWhenTheStuckSubscriberIgnoresTheInterrupt() throws Exception {
        CountDownLatch stuck = new CountDownLatch(1);
        CountDownLatch entered = new CountDownLatch(1);
        EventBus bus = EventBus.builder().closeWait(Duration.ofMillis(100)).build();
        bus.subscribe(BreakerEvent.class, e -> {
            entered.countDown();
            while (stuck.getCount() > 0) {
                try {
                    stuck.await();
                } catch (InterruptedException ignored) {
                    // a subscriber that does not let go when asked
                }
            }
        });
        bus.onEvent(transition("a", 1));
        assertTrue(Patience.await(entered));
        java.util.concurrent.ExecutorService closer = java.util.concurrent.Executors.newSingleThreadExecutor();
        try {
            // the wait is 100 ms; a close that waits for the thread past its deadline never returns here
            closer.submit(bus::close).get(3, TimeUnit.SECONDS);
            assertTrue(busThreadAlive(bus), "the subscriber still holds the bus's thread");
        } finally {
            stuck.countDown();
            closer.shutdownNow();
        }
    }

    @Test
    void aBusClosedFromItsOwnSubscriberStillDeliversTheQueue() throws Exception {
        AtomicInteger delivered = new AtomicInteger();
        EventBus bus = EventBus.async();
        CountDownLatch gate = new CountDownLatch(1);
        bus.subscribe(BreakerEvent.class, e -> {
            try {
                gate.await();
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
            }
            if (delivered.incrementAndGet() == 1) {
                bus.close(); // from the bus's own thread: must not wait for itself
            }
        });
        for (int i = 1; i <= 20; i++) {
            bus.onEvent(transition("a", i));
        }
        gate.countDown();
        EventBusTests.await(delivered::get, 20);
        bus.onEvent(transition("a", 21)); // after close: dropped
        assertEquals(1, bus.droppedEvents());
    }

    @Test
    void anExecutorBusDeliversInOrderAcrossManyTasks() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4); // several threads, one drain at a time
        AtomicInteger tasks = new AtomicInteger();
        try {
            EventBus bus = EventBus.builder()
                    .capacity(10_000)
                    .executor(r -> {
                        tasks.incrementAndGet();
                        pool.execute(r);
                    })
                    .build();
            List<Long> seen = new ArrayList<>();
            AtomicInteger concurrent = new AtomicInteger();
            AtomicInteger maxConcurrent = new AtomicInteger();
            bus.subscribe(StateTransition.class, t -> {
                maxConcurrent.accumulateAndGet(concurrent.incrementAndGet(), Math::max);
                seen.add(t.generation());
                concurrent.decrementAndGet();
            });
            for (int i = 1; i <= 5_000; i++) {
                bus.onEvent(transition("a", i));
            }
            bus.close();
            assertEquals(5_000, seen.size());
            for (int i = 0; i < seen.size(); i++) {
                assertEquals(i + 1L, seen.get(i));
            }
            assertEquals(1, maxConcurrent.get(), "one delivery at a time");
            assertTrue(tasks.get() >= 5_000 / AsyncDelivery.TASK_BUDGET, "a task delivers a bounded share: " + tasks);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void anExecutorThatRefusesDropsAndCountsThenRecoversOnTheNextEvent() throws Exception {
        AtomicInteger refusals = new AtomicInteger(1);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            EventBus bus = EventBus.async(r -> {
                if (refusals.getAndDecrement() > 0) {
                    throw new RejectedExecutionException("full");
                }
                pool.execute(r);
            });
            AtomicInteger delivered = new AtomicInteger();
            bus.subscribe(BreakerEvent.class, e -> delivered.incrementAndGet());
            bus.onEvent(transition("a", 1)); // refused: dropped
            assertEquals(1, bus.droppedEvents());
            bus.onEvent(transition("a", 2)); // the drain is free again: delivered
            EventBusTests.await(delivered::get, 1);
            bus.close();
            assertEquals(1, bus.droppedEvents());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aLoneEventIsDeliveredWithoutAnotherToPushIt() throws Exception {
        ExecutorService pool = Executors.newCachedThreadPool();
        try {
            for (EventBus bus : new EventBus[] {EventBus.async(), EventBus.async(pool)}) {
                try {
                    AtomicInteger delivered = new AtomicInteger();
                    bus.subscribe(BreakerEvent.class, e -> delivered.incrementAndGet());
                    for (int round = 1; round <= 200; round++) {
                        bus.onEvent(transition("a", round));
                        EventBusTests.await(delivered::get, round); // the bus goes idle between events
                    }
                } finally {
                    bus.close();
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Tag("race")
    @Test
    void racingPublishersAndCloseLeaveEveryEventDeliveredOrCounted() throws Exception {
        int threads = 4;
        ExecutorService pool = Executors.newFixedThreadPool(threads + 1);
        try {
            for (int round = 0; round < 50; round++) {
                EventBus bus = round % 2 == 0
                        ? EventBus.builder().capacity(64).build()
                        : EventBus.builder().capacity(64).executor(pool).build();
                AtomicLong delivered = new AtomicLong();
                bus.subscribe(BreakerEvent.class, e -> delivered.incrementAndGet());
                CyclicBarrier start = new CyclicBarrier(threads + 1);
                AtomicLong published = new AtomicLong();
                List<Future<?>> done = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    done.add(pool.submit(() -> {
                        start.await(10, TimeUnit.SECONDS);
                        for (int i = 0; i < 2_000; i++) {
                            bus.onEvent(transition("a", i));
                            published.incrementAndGet();
                        }
                        return null;
                    }));
                }
                start.await(10, TimeUnit.SECONDS);
                Thread.sleep(ThreadLocalRandom.current().nextInt(3));
                bus.close();
                for (Future<?> f : done) {
                    f.get(60, TimeUnit.SECONDS);
                }
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (delivered.get() + bus.droppedEvents() < published.get() && System.nanoTime() < deadline) {
                    Thread.sleep(1); // events published just before close may still be in delivery
                }
                assertEquals(published.get(), delivered.get() + bus.droppedEvents(), "round " + round + ": " + bus);
                assertEquals(0, bus.queuedEvents(), "round " + round);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aSubscriberThatInterruptsTheBusThreadNeitherStopsNorSpinsIt() throws Exception {
        AtomicInteger delivered = new AtomicInteger();
        java.util.concurrent.atomic.AtomicReference<Thread> busThread =
                new java.util.concurrent.atomic.AtomicReference<>();
        try (EventBus bus = EventBus.async()) {
            bus.subscribe(BreakerEvent.class, e -> {
                busThread.set(Thread.currentThread());
                Thread.currentThread().interrupt();
                delivered.incrementAndGet();
            });
            bus.onEvent(transition("a", 1));
            EventBusTests.await(delivered::get, 1);
            Thread thread = busThread.get();
            long deadline = Patience.deadline(); // its way from the delivery to its park may take a while
            while (thread.getState() != Thread.State.WAITING && System.nanoTime() < deadline) {
                Thread.sleep(1);
            }
            // once parked, the idle thread stays parked: one that spins (its park returning at once
            // for the interrupt) is seen RUNNABLE, and one that stopped never parks
            for (int i = 0; i < 20; i++) {
                Thread.State state = thread.getState();
                assertEquals(Thread.State.WAITING, state, "the idle bus thread, sample " + i + " of 20");
                Thread.sleep(10);
            }
            bus.onEvent(transition("a", 2));
            EventBusTests.await(delivered::get, 2);
        }
    }

    private static boolean busThreadAlive(EventBus bus) {
        String name = bus.toString().replaceAll(".*thread (dev\\.breaker-event-bus-\\d+).*", "$1");
        return Thread.getAllStackTraces().keySet().stream()
                .anyMatch(t -> t.getName().equals(name) && t.isAlive());
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
