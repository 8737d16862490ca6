package dev.breaker.events;

import static dev.breaker.events.EventBusTests.transition;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breaker.BreakerEvent;
import dev.breaker.StateTransition;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A hostile reviewer's attacks on the bus: subscribers, executors and closers that misbehave, and
 * the invariants that must survive them (every event delivered or counted, one drainer at a time,
 * no caller held, no thread left behind).
 */
class BusAttackTests {

    /** An exception that cannot even describe itself: whoever logs it gets another exception. */
    static final class Unprintable extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Unprintable() {
            super(null, null, false, false);
        }

        @Override
        public String getMessage() {
            throw new IllegalStateException("getMessage is poisoned");
        }
    }

    static EventBus bus(String kind, ExecutorService pool) {
        return switch (kind) {
            case "sync" -> EventBus.sync();
            case "async" -> EventBus.async();
            case "executor" -> EventBus.async(pool);
            default -> throw new IllegalArgumentException(kind);
        };
    }

    @ParameterizedTest
    @ValueSource(strings = {"sync", "async", "executor"})
    void aSubscriberWhoseExceptionCannotBeLoggedCostsNoOneAnything(String kind) throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            EventBus bus = bus(kind, pool);
            AtomicInteger others = new AtomicInteger();
            bus.subscribe(BreakerEvent.class, e -> {
                throw new Unprintable();
            });
            bus.subscribe(BreakerEvent.class, e -> others.incrementAndGet());
            for (int i = 1; i <= 10; i++) {
                bus.onEvent(transition("a", i)); // must not throw, on any bus
            }
            EventBusTests.await(others::get, 10); // the second subscriber got every event
            assertEquals(10, bus.subscriberFailures());
            bus.close();
            assertEquals(0, bus.droppedEvents());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void anInlineExecutorDeliversALongChainWithoutGoingAFrameDeeperPerTask() throws Exception {
        int chain = 2_000_000;
        EventBus bus = EventBus.builder().capacity(4).executor(Runnable::run).build();
        AtomicLong delivered = new AtomicLong();
        bus.subscribe(StateTransition.class, t -> {
            delivered.incrementAndGet();
            if (t.generation() < chain) {
                bus.onEvent(transition("a", t.generation() + 1)); // queued behind this delivery, never more than one
            }
        });
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread publisher = new Thread(
                null,
                () -> {
                    try {
                        bus.onEvent(transition("a", 1));
                    } catch (Throwable t) {
                        failed.set(t);
                    }
                },
                "publisher",
                512 * 1024);
        publisher.start();
        publisher.join(TimeUnit.SECONDS.toMillis(60));
        assertNull(failed.get());
        assertEquals(0, bus.droppedEvents(), "the queue never held more than one event");
        assertEquals(chain, delivered.get(), "every link of the chain delivered");
        assertEquals(0, bus.subscriberFailures());
        bus.close();
    }

    @Test
    void aSubscriberThatClosesTheBusOnAResubmittedTaskDoesNotWaitForItself() throws Exception {
        int events = AsyncDelivery.TASK_BUDGET + 50;
        java.util.Queue<Thread> tasks = new java.util.concurrent.ConcurrentLinkedQueue<>();
        EventBus bus = EventBus.builder()
                .capacity(1024)
                .closeWait(Duration.ofSeconds(3))
                .executor(
                        r -> { // a fresh thread per task, started before the submitter returns from execute:
                            // the resubmitted task begins before the task that submitted it has ended
                            Thread t = new Thread(r, "task");
                            tasks.add(t);
                            t.start();
                            try {
                                Thread.sleep(50);
                            } catch (InterruptedException ie) {
                                Thread.currentThread().interrupt();
                            }
                        })
                .build();
        CountDownLatch gate = new CountDownLatch(1);
        AtomicInteger delivered = new AtomicInteger();
        AtomicLong closeTook = new AtomicLong(-1);
        bus.subscribe(StateTransition.class, t -> {
            try {
                gate.await();
                if (t.generation() == AsyncDelivery.TASK_BUDGET + 1) { // the first event of the second task
                    Thread.sleep(100); // the first task has long returned
                    long start = System.nanoTime();
                    bus.close(); // documented: from a subscriber it does not wait
                    closeTook.set(System.nanoTime() - start);
                }
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
            }
            delivered.incrementAndGet();
        });
        try {
            for (int i = 1; i <= events; i++) {
                bus.onEvent(transition("a", i));
            }
            gate.countDown();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (delivered.get() + bus.droppedEvents() < events && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertTrue(
                    closeTook.get() >= 0 && closeTook.get() < TimeUnit.SECONDS.toNanos(1),
                    "close from a subscriber waited " + closeTook.get() / 1_000_000 + " ms for itself");
            assertEquals(events, delivered.get(), "the queue was delivered after the subscriber's close");
            assertEquals(0, bus.droppedEvents());
        } finally {
            gate.countDown(); // should the test fail before it let the subscriber go
            // each task's thread is queued before it starts, so the one a joined task started is there to take
            for (Thread t; (t = tasks.poll()) != null; ) {
                t.join(TimeUnit.SECONDS.toMillis(20));
            }
        }
    }

    @Test
    void anExecutorThatAcceptsATaskAndThrowsAnywayNeverMakesTwoDrainers() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            for (int round = 0; round < 20; round++) {
                EventBus bus = EventBus.builder()
                        .capacity(1 << 16)
                        .executor(r -> {
                            pool.execute(r);
                            throw new RejectedExecutionException("accepted, and complains anyway");
                        })
                        .build();
                AtomicInteger concurrent = new AtomicInteger();
                AtomicInteger maxConcurrent = new AtomicInteger();
                AtomicLong delivered = new AtomicLong();
                AtomicLong outOfOrder = new AtomicLong();
                long[] last = {0};
                bus.subscribe(StateTransition.class, t -> {
                    maxConcurrent.accumulateAndGet(concurrent.incrementAndGet(), Math::max);
                    if (t.generation() <= last[0]) {
                        outOfOrder.incrementAndGet();
                    }
                    last[0] = t.generation();
                    for (int spin = 0; spin < 200; spin++) {
                        Thread.onSpinWait();
                    }
                    delivered.incrementAndGet();
                    concurrent.decrementAndGet();
                });
                int published = 20_000;
                for (int i = 1; i <= published; i++) {
                    bus.onEvent(transition("a", i));
                }
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (delivered.get() + bus.droppedEvents() < published && System.nanoTime() < deadline) {
                    Thread.sleep(1);
                }
                Thread.sleep(20); // a second drainer, if any, has had time to show itself
                assertEquals(1, maxConcurrent.get(), "round " + round + ": one delivery at a time");
                assertEquals(0, outOfOrder.get(), "round " + round + ": in publication order");
                assertEquals(published, delivered.get() + bus.droppedEvents(), "round " + round);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    @Disabled("documented limitation, no local fix: an executor that accepts a task and never runs it (DiscardPolicy,"
            + " DiscardOldestPolicy on a shared pool) leaves the drain elected forever: that event and every later"
            + " one are stranded (never delivered, counted only when the queue fills or the bus is closed). The"
            + " breaker's own EventDispatcher recovers on the next event; the bus cannot without running subscribers"
            + " on a publisher's thread or a timer.")
    void anExecutorThatDiscardsATaskOnceDoesNotStrandTheBusForever() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            AtomicInteger discards = new AtomicInteger(1);
            EventBus bus = EventBus.async(r -> {
                if (discards.getAndDecrement() > 0) {
                    return; // accepted and forgotten, like ThreadPoolExecutor.DiscardPolicy
                }
                pool.execute(r);
            });
            AtomicInteger delivered = new AtomicInteger();
            bus.subscribe(BreakerEvent.class, e -> delivered.incrementAndGet());
            bus.onEvent(transition("a", 1)); // its task is discarded
            for (int i = 2; i <= 100; i++) {
                bus.onEvent(transition("a", i));
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (delivered.get() + bus.droppedEvents() < 100 && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertEquals(100, delivered.get() + bus.droppedEvents(), "every event delivered or counted in time");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void closeReturnsOnlyOnceTheBusThreadHasEnded() throws Exception {
        for (int round = 0; round < 300; round++) {
            EventBus bus = EventBus.async();
            AtomicInteger delivered = new AtomicInteger();
            bus.subscribe(BreakerEvent.class, e -> delivered.incrementAndGet());
            bus.onEvent(transition("a", 1));
            EventBusTests.await(delivered::get, 1);
            Thread thread = busThread(bus);
            assertTrue(thread != null && thread.isAlive(), "round " + round);
            bus.close();
            assertFalse(thread.isAlive(), "round " + round + ": close returned, the bus's thread still runs");
        }
    }

    @Test
    void anAbandonedBusDoesNotKeepItsThreadForever() throws Exception {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            EventBus bus = EventBus.async();
            bus.subscribe(BreakerEvent.class, e -> {});
            bus.onEvent(transition("a", 1));
            names.add(threadName(bus));
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        long alive;
        do {
            System.gc();
            Thread.sleep(20);
            alive = Thread.getAllStackTraces().keySet().stream()
                    .filter(t -> names.contains(t.getName()) && t.isAlive())
                    .count();
        } while (alive > 0 && System.nanoTime() < deadline);
        assertEquals(0, alive, "threads of buses nobody can reach any more");
    }

    @Tag("race")
    @ParameterizedTest
    @ValueSource(strings = {"async", "executor"})
    void theDrainersCountOfPublicationsStaysBoundedUnderSaturation(String kind) throws Exception {
        // wip counts publications the drainer has not yet accounted for; it only ever subtracted them
        // once it found the queue empty. A subscriber a little slower than its publishers keeps the
        // queue from ever emptying, so wip grew by one per delivered event: at 1 us an event it passes
        // Integer.MAX_VALUE after 36 minutes, turns negative, and publishers then take the bus for
        // closed (they drop the queue) and close() stops waiting.
        ExecutorService pool = Executors.newSingleThreadExecutor();
        Subscribers subscribers = new Subscribers();
        java.util.concurrent.atomic.AtomicLong delivered = new java.util.concurrent.atomic.AtomicLong();
        subscribers.add(BreakerEvent.class, (java.util.function.Consumer<BreakerEvent>) e -> {
            delivered.incrementAndGet();
            long until = System.nanoTime() + 2_000;
            while (System.nanoTime() < until) {
                Thread.onSpinWait();
            }
        });
        int capacity = 64;
        AsyncDelivery delivery =
                new AsyncDelivery(subscribers, capacity, kind.equals("async") ? null : pool, "attack-wip");
        java.lang.reflect.Field field = AsyncDelivery.class.getDeclaredField("wip");
        field.setAccessible(true);
        AtomicInteger wip = (AtomicInteger) field.get(delivery);
        AtomicInteger max = new AtomicInteger();
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        Thread publisher = new Thread(() -> {
            for (long i = 1; !stop.get(); i++) {
                delivery.publish(transition("a", i));
            }
        });
        publisher.start();
        try {
            // at least 1.5 s and more than 10,000 deliveries, however slow the machine: the count
            // must stay bounded all along, which needs the queue kept from emptying for a while
            long start = System.nanoTime();
            long end = start + TimeUnit.MILLISECONDS.toNanos(1500);
            long deadline = start + TimeUnit.SECONDS.toNanos(60);
            while ((System.nanoTime() < end || delivered.get() <= 10_000) && System.nanoTime() < deadline) {
                max.accumulateAndGet(wip.get(), Math::max);
                Thread.sleep(1);
            }
        } finally {
            stop.set(true);
            publisher.join();
            delivery.close(TimeUnit.SECONDS.toNanos(5));
            pool.shutdownNow();
        }
        assertTrue(delivered.get() > 10_000, "the subscriber was kept busy: " + delivered.get());
        assertTrue(
                max.get() <= capacity + 2 * AsyncDelivery.TASK_BUDGET + 8,
                "publications outstanding grew to " + max.get() + " with " + capacity + " queued at most");
    }

    @Test
    void aSubscriberThatInterruptsTheBusThreadCostsTheNextSubscriberNothing() throws Exception {
        try (EventBus bus = EventBus.async()) {
            AtomicInteger interruptedOnArrival = new AtomicInteger();
            AtomicInteger seen = new AtomicInteger();
            bus.subscribe(BreakerEvent.class, e -> Thread.currentThread().interrupt()); // hostile
            bus.subscribe(
                    BreakerEvent.class,
                    e -> { // well-behaved: a blocking put here would throw if interrupted
                        if (Thread.currentThread().isInterrupted()) {
                            interruptedOnArrival.incrementAndGet();
                        }
                        seen.incrementAndGet();
                    });
            for (int i = 1; i <= 100; i++) {
                bus.onEvent(transition("a", i));
            }
            EventBusTests.await(seen::get, 100);
            assertEquals(0, interruptedOnArrival.get(), "calls that began with another subscriber's interrupt");
        }
    }

    @Test
    void closeThatGivesUpOnAStuckSubscriberInterruptsItSoTheThreadEnds() throws Exception {
        CountDownLatch never = new CountDownLatch(1);
        CountDownLatch entered = new CountDownLatch(1);
        EventBus bus = EventBus.builder().closeWait(Duration.ofMillis(100)).build();
        bus.subscribe(BreakerEvent.class, e -> {
            entered.countDown();
            try {
                never.await(); // blocked for good, unless interrupted
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
            }
        });
        bus.onEvent(transition("a", 1));
        bus.onEvent(transition("a", 2));
        assertTrue(Patience.await(entered));
        Thread thread = busThread(bus);
        bus.close();
        assertEquals(1, bus.droppedEvents(), "the event behind the stuck one");
        thread.join(TimeUnit.SECONDS.toMillis(5));
        assertFalse(thread.isAlive(), "close gave up, and the bus's thread is still blocked in its subscriber");
    }

    @Tag("race")
    @ParameterizedTest
    @ValueSource(strings = {"async", "inline", "pool", "sync"})
    void manyBreakersWithInlineEventExecutorsShareOneBusInGenerationOrder(String kind) throws Exception {
        int breakers = 6;
        int threads = 4;
        ExecutorService pool = Executors.newFixedThreadPool(2);
        ExecutorService callers = Executors.newFixedThreadPool(threads);
        EventBus bus = switch (kind) {
            case "async" -> EventBus.builder().capacity(1 << 20).build();
            case "inline" ->
                EventBus.builder().capacity(1 << 20).executor(Runnable::run).build();
            case "pool" -> EventBus.builder().capacity(1 << 20).executor(pool).build();
            default -> EventBus.sync();
        };
        try {
            java.util.Map<String, List<Long>> seen = new java.util.concurrent.ConcurrentHashMap<>();
            List<dev.breaker.CircuitBreaker> all = new ArrayList<>();
            for (int i = 0; i < breakers; i++) {
                all.add(dev.breaker.CircuitBreaker.builder("b" + i)
                        .window(dev.breaker.Windows.consecutiveFailures(1))
                        .cooldown(Duration.ZERO)
                        .eventExecutor(Runnable::run)
                        .eventBacklog(1 << 20)
                        .listener(bus)
                        .build());
            }
            AtomicLong callbacks = new AtomicLong();
            bus.subscribe(StateTransition.class, t -> {
                List<Long> list = seen.computeIfAbsent(t.breakerName(), n -> new ArrayList<>());
                synchronized (list) { // a sync bus delivers on many threads (one at a time per breaker)
                    list.add(t.generation());
                }
                if (t.to() == dev.breaker.State.OPEN && t.generation() % 7 == 0) {
                    callbacks.incrementAndGet();
                    all.get(Integer.parseInt(t.breakerName().substring(1))).reset(); // back into the breaker
                }
            });
            bus.subscribe(BreakerEvent.class, e -> {
                throw new IllegalStateException("always"); // costs the others nothing
            });
            RandomTraffic.run(callers, threads, all, 3_000);
            for (dev.breaker.CircuitBreaker b : all) {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                while (System.nanoTime() < deadline) {
                    List<Long> got = seen.getOrDefault(b.name(), List.of());
                    int size;
                    synchronized (got) {
                        size = got.size();
                    }
                    if (size >= b.metrics().generation()) {
                        break;
                    }
                    Thread.sleep(1);
                }
            }
            assertTrue(callbacks.get() > 0, "subscribers called back into breakers");
            assertEquals(0, bus.droppedEvents());
            for (dev.breaker.CircuitBreaker b : all) {
                List<Long> got = seen.get(b.name());
                assertEquals(0, b.metrics().droppedEvents(), b.name());
                synchronized (got) {
                    assertEquals(b.metrics().generation(), got.size(), b.name() + ": every transition once");
                    for (int i = 0; i < got.size(); i++) {
                        assertEquals(i + 1L, got.get(i), b.name() + ": in generation order");
                    }
                }
            }
        } finally {
            bus.close();
            callers.shutdownNow();
            pool.shutdownNow();
        }
    }

    @Tag("race")
    @ParameterizedTest
    @ValueSource(strings = {"async", "pool", "inline"})
    void subscriptionChurnFromCallbacksAndOtherThreadsDuringAFloodLosesAndLeaksNothing(String kind) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        ExecutorService publishers = Executors.newFixedThreadPool(3);
        try {
            for (int capacity : new int[] {1, 16}) {
                EventBus bus = switch (kind) {
                    case "async" -> EventBus.builder().capacity(capacity).build();
                    case "pool" ->
                        EventBus.builder().capacity(capacity).executor(pool).build();
                    default ->
                        EventBus.builder()
                                .capacity(capacity)
                                .executor(Runnable::run)
                                .build();
                };
                AtomicLong counted = new AtomicLong();
                bus.subscribe(BreakerEvent.class, e -> counted.incrementAndGet()); // stays
                AtomicReference<AutoCloseable> victim = new AtomicReference<>();
                AtomicInteger made = new AtomicInteger();
                bus.subscribe(
                        BreakerEvent.class,
                        e -> { // subscribes from inside, and closes others' subscriptions
                            if (made.get() < 200) {
                                made.incrementAndGet();
                                AutoCloseable[] self = new AutoCloseable[1];
                                try {
                                    self[0] = bus.subscribe(StateTransition.class, t -> {
                                        try {
                                            self[0].close(); // its own, from inside its first call
                                        } catch (Exception ex) {
                                            throw new IllegalStateException(ex);
                                        }
                                    });
                                } catch (IllegalStateException closing) {
                                    // the bus is closing: close() delivers the queue and refuses new subscribers
                                    return;
                                }
                                AutoCloseable old = victim.getAndSet(self[0]);
                                if (old != null) {
                                    try {
                                        old.close(); // someone else's
                                    } catch (Exception ex) {
                                        throw new IllegalStateException(ex);
                                    }
                                }
                            }
                        });
                java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
                Thread churn = new Thread(
                        () -> { // subscribes and unsubscribes from another thread meanwhile
                            while (!stop.get()) {
                                try {
                                    AutoCloseable s = bus.subscribe(BreakerEvent.class, e -> {});
                                    Thread.onSpinWait();
                                    s.close();
                                } catch (IllegalStateException closed) {
                                    return;
                                } catch (Exception ex) {
                                    throw new IllegalStateException(ex);
                                }
                            }
                        });
                churn.start();
                AtomicLong published = new AtomicLong();
                CyclicBarrier start = new CyclicBarrier(3);
                List<Future<?>> done = new ArrayList<>();
                for (int t = 0; t < 3; t++) {
                    done.add(publishers.submit(() -> {
                        start.await(10, TimeUnit.SECONDS);
                        for (int i = 0; i < 20_000; i++) {
                            bus.onEvent(transition("a", i));
                            published.incrementAndGet();
                        }
                        return null;
                    }));
                }
                for (Future<?> f : done) {
                    f.get(60, TimeUnit.SECONDS);
                }
                stop.set(true);
                churn.join(10_000);
                bus.close();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (counted.get() + bus.droppedEvents() < published.get() && System.nanoTime() < deadline) {
                    Thread.sleep(1);
                }
                assertEquals(published.get(), counted.get() + bus.droppedEvents(), kind + " " + capacity);
                assertEquals(0, bus.subscriberFailures(), kind + " " + capacity);
                assertEquals(0, bus.queuedEvents());
                int left = Integer.parseInt(bus.toString().replaceAll(".*, (\\d+) subscribers", "$1"));
                assertTrue(left <= 3, "subscriptions left behind: " + bus); // the two that stay, and the last victim
            }
        } finally {
            publishers.shutdownNow();
            pool.shutdownNow();
        }
    }

    @Tag("race")
    @Test
    void closeRacingWithSubscribeAndPublishersOnACapacityOfOne() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            for (int round = 0; round < 200; round++) {
                EventBus bus = round % 2 == 0
                        ? EventBus.builder().capacity(1).build()
                        : EventBus.builder().capacity(1).executor(pool).build();
                AtomicLong delivered = new AtomicLong();
                bus.subscribe(BreakerEvent.class, e -> delivered.incrementAndGet());
                CyclicBarrier start = new CyclicBarrier(4);
                AtomicLong published = new AtomicLong();
                List<Future<?>> done = new ArrayList<>();
                for (int t = 0; t < 2; t++) {
                    done.add(pool.submit(() -> {
                        start.await(10, TimeUnit.SECONDS);
                        for (int i = 0; i < 500; i++) {
                            bus.onEvent(transition("a", i));
                            published.incrementAndGet();
                        }
                        return null;
                    }));
                }
                done.add(pool.submit(() -> {
                    start.await(10, TimeUnit.SECONDS);
                    for (int i = 0; i < 200; i++) {
                        try {
                            bus.subscribe(BreakerEvent.class, e -> {}).close();
                        } catch (IllegalStateException closed) {
                            break; // the only refusal allowed
                        }
                    }
                    return null;
                }));
                start.await(10, TimeUnit.SECONDS);
                bus.close();
                for (Future<?> f : done) {
                    f.get(30, TimeUnit.SECONDS);
                }
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (delivered.get() + bus.droppedEvents() < published.get() && System.nanoTime() < deadline) {
                    Thread.sleep(1);
                }
                assertEquals(published.get(), delivered.get() + bus.droppedEvents(), "round " + round);
                assertEquals(0, bus.queuedEvents(), "round " + round);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aSyncBusSurvivesSubscribersThatPublishIntoItAndCloseIt() {
        EventBus bus = EventBus.sync();
        AtomicLong seen = new AtomicLong();
        bus.subscribe(StateTransition.class, t -> {
            seen.incrementAndGet();
            if (t.generation() < 50) {
                bus.onEvent(transition("a", t.generation() + 1)); // nested, on the same thread
            } else if (t.generation() == 50) {
                bus.close(); // from inside, mid-recursion
            }
        });
        bus.onEvent(transition("a", 1));
        assertEquals(50, seen.get());
        bus.onEvent(transition("a", 99));
        assertEquals(1, bus.droppedEvents());
    }

    static String threadName(EventBus bus) {
        return bus.toString().replaceAll(".*thread (dev\\.breaker-event-bus-\\d+).*", "$1");
    }

    static Thread busThread(EventBus bus) {
        String name = threadName(bus);
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals(name))
                .findFirst()
                .orElse(null);
    }
}
