package dev.breaker.events;

import static dev.breaker.events.EventBusTests.transition;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breaker.BreakerEvent;
import dev.breaker.CircuitBreaker;
import dev.breaker.State;
import dev.breaker.StateTransition;
import dev.breaker.Ticker;
import dev.breaker.TransitionReason;
import dev.breaker.internal.race.Races;
import dev.breaker.testsupport.HeldOnce;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Interleavings of {@link AsyncDelivery} and {@link Slf4jEventLogger} that need a thread between
 * two of their own steps, where no subscriber, executor or ticker of the test's runs: at a
 * {@link EventRaces race point} the test holds the thread, or has other threads act and waits for
 * them, so every run meets the interleaving that a race test meets only now and then.
 */
@Tag("race-points") // run in their own execution, the only one with -Ddev.breaker.races=true
class EventRacePointTests {

    private final ExecutorService other = Executors.newSingleThreadExecutor(r -> new Thread(r, "other"));
    private final ExecutorService drainer = Executors.newSingleThreadExecutor(r -> new Thread(r, "drainer"));

    @AfterEach
    void stop() {
        Races.handle(null);
        other.shutdownNow();
        drainer.shutdownNow();
    }

    private static HeldOnce hold(int point, Thread target) {
        return HeldOnce.atPoint(Races::handle, point, target);
    }

    /**
     * Runs {@code action} on {@code target}, the first time it reaches {@code point}.
     *
     * @return set once the action has run
     */
    private static AtomicBoolean onceAt(int point, Thread target, Runnable action) {
        AtomicBoolean ran = new AtomicBoolean();
        Races.handle(p -> {
            if (p == point && Thread.currentThread() == target && ran.compareAndSet(false, true)) {
                action.run();
            }
        });
        return ran;
    }

    /** Runs {@code action} on {@code thread} and waits (within the {@link Patience}) until it returned. */
    private static void callOn(ExecutorService thread, Runnable action) {
        try {
            thread.submit(action).get(Patience.deadline() - System.nanoTime(), TimeUnit.NANOSECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("the other thread's action did not return", e);
        }
    }

    /**
     * Waits until the count is reached, or until it has not moved for a whole {@link Patience}:
     * each step of a long sequence gets the patience, not the sequence as a whole.
     */
    private static void awaitAtLeast(java.util.function.LongSupplier count, long n) throws InterruptedException {
        long deadline = Patience.deadline();
        for (long seen = count.getAsLong(); seen < n && System.nanoTime() - deadline < 0; ) {
            Thread.sleep(1);
            long now = count.getAsLong();
            if (now != seen) {
                seen = now;
                deadline = Patience.deadline();
            }
        }
    }

    /**
     * Each time the bus's own thread has accounted for a round that emptied the queue, another
     * thread publishes an event (40 times). Every event must be delivered and none dropped: the
     * count the round left must be what was not yet accounted for (0 here), never negative.
     *
     * <p>For {@code runOwnThread}'s {@code -seen} turned into {@code seen} after a round that
     * emptied the queue: the count then doubles each round, and after some 31 rounds it is
     * negative when the next publisher lands, which takes the bus's thread for gone and drops the
     * queue (checked by hand: 10 of 41 events dropped).
     */
    @Test
    void anEventPublishedAfterEachRoundThatEmptiedTheQueueIsDeliveredNotDropped() throws Exception {
        int publications = 40;
        AtomicInteger delivered = new AtomicInteger();
        EventBus bus = EventBus.async();
        try {
            bus.subscribe(BreakerEvent.class, e -> delivered.incrementAndGet());
            Thread busThread = BusAttackTests.busThread(bus);
            assertNotNull(busThread);
            AtomicInteger published = new AtomicInteger(1);
            Races.handle(p -> {
                if (p == EventRaces.ROUND_ACCOUNTED
                        && Thread.currentThread() == busThread
                        && published.get() <= publications) {
                    long generation = published.incrementAndGet();
                    callOn(other, () -> bus.onEvent(transition("a", generation)));
                }
            });
            bus.onEvent(transition("a", 1));
            awaitAtLeast(() -> delivered.get() + bus.droppedEvents(), publications + 1);
            assertEquals(publications + 1, published.get(), "one publication after each of 40 rounds");
            assertEquals(0, bus.droppedEvents(), "no publisher found the count negative");
            assertEquals(publications + 1, delivered.get(), "every event delivered");
        } finally {
            bus.close();
        }
    }

    /** An executor that keeps the tasks it accepts for the test to run, and refuses one when told. */
    private static final class KeepingExecutor implements Executor {
        final LinkedBlockingQueue<Runnable> accepted = new LinkedBlockingQueue<>();
        volatile boolean refuseNext;

        @Override
        public void execute(Runnable task) {
            if (refuseNext) {
                refuseNext = false;
                throw new RejectedExecutionException("refused by the test");
            }
            accepted.add(task);
        }

        Runnable next() {
            assertEquals(1, accepted.size(), "one task accepted: one drain at a time");
            return accepted.poll();
        }
    }

    /**
     * A drain task delivers its budget with one event more waiting; the executor refuses its
     * resubmission, so the task drops what waits and gives the drain up, bringing the count to 0.
     * Right then another thread publishes, moves the count from 0 and hands a new task to the
     * executor. The refused task must deliver nothing more: the new event is the new task's, and
     * is delivered when, and only when, the test runs that task.
     *
     * <p>For {@code submit} answering {@code true} after the refusal ({@code return false}
     * replaced by {@code return true}): the refused task then goes on draining beside the new
     * drainer and delivers the new event itself (checked by hand: 257 delivered by the refused
     * task, where 256 are expected).
     */
    @Test
    void aDrainWhoseResubmissionWasRefusedDeliversNothingOnceAPublisherHasStartedTheNextDrain() throws Exception {
        int budget = AsyncDelivery.TASK_BUDGET;
        KeepingExecutor executor = new KeepingExecutor();
        EventBus bus = EventBus.builder()
                .capacity(2 * budget)
                .executor(executor)
                .closeWait(Duration.ofMillis(100))
                .build();
        try {
            List<Long> delivered = new CopyOnWriteArrayList<>();
            bus.subscribe(StateTransition.class, t -> delivered.add(t.generation()));
            for (int i = 1; i <= budget + 1; i++) {
                bus.onEvent(transition("a", i));
            }
            Runnable first = executor.next(); // the first publication's
            executor.refuseNext = true; // its resubmission, after a budget of deliveries
            AtomicBoolean published = onceAt(
                    EventRaces.DISCARDED,
                    HeldOnce.threadOf(drainer),
                    () -> callOn(other, () -> bus.onEvent(transition("a", budget + 2))));
            drainer.submit(first).get(20, TimeUnit.SECONDS);
            assertTrue(published.get(), "the refused drain gave the drain up, and the publisher came then");
            assertEquals(budget, delivered.size(), "the refused drain delivered its budget, nothing more");
            assertEquals(1, bus.droppedEvents(), "the event left behind the budget, dropped at the refusal");
            assertEquals(1, bus.queuedEvents(), "the later event waits for its own task");

            Runnable second = executor.next(); // the later publication's
            drainer.submit(second).get(20, TimeUnit.SECONDS);
            assertEquals(budget + 1, delivered.size(), "the new task delivered it");
            assertEquals(budget + 2L, delivered.get(budget));
            assertEquals(0, bus.queuedEvents());
            assertEquals(1, bus.droppedEvents());
        } finally {
            bus.close();
        }
    }

    /**
     * A publisher finds the bus open; before it counts its event, a close runs to its end and
     * the bus's own thread ends, leaving the count gone (negative). The publisher, finding it so,
     * must drop its own event and count it: nothing is left queued, nothing delivered.
     *
     * <p>For {@code publish}'s drop loop: its {@code poll() != null} negated (the event is taken
     * from the queue but neither counted nor given its place back: checked by hand, 0 dropped and 1
     * queued) and its {@code dropped.increment()} removed (checked by hand: 0 dropped).
     */
    @Test
    void aPublisherOvertakenByACloseThatEndedTheBusThreadCountsItsOwnEventAsDropped() {
        AtomicInteger delivered = new AtomicInteger();
        EventBus bus = EventBus.async();
        bus.subscribe(BreakerEvent.class, e -> delivered.incrementAndGet());
        Thread busThread = BusAttackTests.busThread(bus);
        assertNotNull(busThread);
        AtomicBoolean closed = onceAt(EventRaces.PUBLISH_OPEN, Thread.currentThread(), () -> {
            callOn(other, bus::close);
            assertFalse(busThread.isAlive(), "the close returned once the bus's thread ended");
        });
        bus.onEvent(transition("a", 1));
        assertTrue(closed.get(), "the publisher was past its check of closed when the close ran");
        assertEquals(1, bus.droppedEvents(), "the publisher's own event, counted");
        assertEquals(0, bus.queuedEvents(), "and not left queued");
        assertEquals(0, delivered.get(), "the bus's thread had ended: nothing delivered it");
    }

    /**
     * A subscriber holds the bus's own thread past the close's wait; the close gives up and sets
     * {@code stopped}, and before it takes what is queued the subscriber returns and the bus's
     * thread takes the nine waiting events itself (the close waits until that thread has accounted
     * for its round). They must be counted as dropped, not delivered: one delivered, nine dropped.
     *
     * <p>For {@code deliver}'s {@code dropped.increment()} removed in its {@code stopped} branch
     * (checked by hand: 0 dropped, the nine neither delivered nor counted).
     */
    @Test
    void eventsTheBusThreadTakesAfterTheCloseGaveUpAreCountedAsDropped() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger delivered = new AtomicInteger();
        EventBus bus = EventBus.builder().closeWait(Duration.ofMillis(50)).build();
        bus.subscribe(BreakerEvent.class, e -> {
            delivered.incrementAndGet();
            entered.countDown();
            try {
                Patience.await(release);
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
            }
        });
        Thread busThread = BusAttackTests.busThread(bus);
        assertNotNull(busThread);
        bus.onEvent(transition("a", 1));
        assertTrue(Patience.await(entered), "the subscriber holds the bus's thread");
        for (int i = 2; i <= 10; i++) {
            bus.onEvent(transition("a", i));
        }
        Thread closer = Thread.currentThread();
        CountDownLatch roundAccounted = new CountDownLatch(1);
        AtomicBoolean gaveUp = new AtomicBoolean();
        AtomicBoolean drainerTookThem = new AtomicBoolean();
        Races.handle(p -> {
            if (p == EventRaces.CLOSE_GAVE_UP
                    && Thread.currentThread() == closer
                    && gaveUp.compareAndSet(false, true)) {
                release.countDown();
                try {
                    drainerTookThem.set(Patience.await(roundAccounted));
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                }
            } else if (p == EventRaces.ROUND_ACCOUNTED && Thread.currentThread() == busThread) {
                roundAccounted.countDown();
            }
        });
        bus.close();
        assertTrue(gaveUp.get(), "the close gave up waiting");
        assertTrue(drainerTookThem.get(), "the bus's thread took the waiting events before the closer looked");
        assertEquals(1, delivered.get(), "only the delivery that began before the close gave up");
        assertEquals(9, bus.droppedEvents(), "the nine the bus's thread took, counted");
        assertEquals(0, bus.queuedEvents());
    }

    /**
     * An idle bus is closed by a thread that was asked to stop (interrupted); the bus's own thread,
     * woken, is held after it marked itself gone, so it is still alive when the closer joins it,
     * and the join throws. The closer must still be interrupted when close returns.
     *
     * <p>For {@code close}'s {@code Thread.currentThread().interrupt()} in the join's catch
     * removed (checked by hand: the closer's interrupt status was cleared).
     */
    @Test
    void aCloserInterruptedWhileTheBusThreadIsOnItsWayOutIsStillInterruptedAfterTheClose() throws Exception {
        EventBus bus = EventBus.async();
        Thread busThread = BusAttackTests.busThread(bus);
        assertNotNull(busThread);
        HeldOnce leaving = hold(EventRaces.THREAD_GONE, busThread);
        boolean stillInterrupted;
        Thread.currentThread().interrupt();
        try {
            bus.close();
        } finally {
            stillInterrupted = Thread.interrupted(); // and cleared, for the waits below
            leaving.letGo();
        }
        assertTrue(stillInterrupted, "close kept the closer's interrupt");
        Patience.join(busThread);
        assertFalse(busThread.isAlive(), "the bus's thread ended");
        leaving.reachedBy(new CompletableFuture<Void>()); // through its point: it marked itself gone
    }

    /**
     * A rejection is counted into a record that a transition to CLOSED retired meanwhile (its
     * ticker reading is where the first close runs), so the rejecter rescues its count: it makes
     * the breaker's new record; before it adds the count there, a second close retires and empties
     * that one too. The rescuer must see it retired and rescue the count again, into a third
     * record: three rejections summarised by the first close, the fourth pending.
     *
     * <p>For {@code rescue}'s {@code to != null} negated: the rescuer then stops after one move,
     * and the count stays in the retired second record, lost (checked by hand: 0 pending).
     */
    @Test
    void aRescuedCountWhoseNewRecordACloseRetiresMeanwhileIsRescuedAgain() {
        CapturedLog captured = new CapturedLog();
        AtomicReference<Runnable> atNextReading = new AtomicReference<>();
        Ticker ticker = () -> {
            Runnable r = atNextReading.getAndSet(null);
            if (r != null) {
                r.run();
            }
            return 0;
        };
        Slf4jEventLogger log =
                Slf4jEventLogger.builder().logger(captured).ticker(ticker).build();
        CircuitBreaker b = CircuitBreaker.builder("rescued").build();
        for (int i = 0; i < 3; i++) {
            log.onRejected(b, State.OPEN);
        }
        assertEquals(3, log.pendingRejections("rescued"));
        // the fourth rejection has looked the record up when the first close retires it
        atNextReading.set(() -> callOn(
                other,
                () -> log.onEvent(
                        new StateTransition("rescued", State.OPEN, State.CLOSED, 2, TransitionReason.RESET, 0))));
        AtomicBoolean retiredAgain = onceAt(
                EventRaces.RESCUE_TARGET,
                Thread.currentThread(),
                () -> callOn(
                        other,
                        () -> log.onEvent(new StateTransition(
                                "rescued", State.HALF_OPEN, State.CLOSED, 4, TransitionReason.PROBES_SUCCEEDED, 0))));
        log.onRejected(b, State.OPEN);
        assertNull(atNextReading.get(), "the first close ran at the rejecter's ticker reading");
        assertTrue(retiredAgain.get(), "the rejecter rescued its count, and the second close ran then");
        assertEquals(3, captured.summarised(), "the first close's summary: the three before");
        assertEquals(1, log.pendingRejections("rescued"), "the fourth, rescued twice, waits in the newest record");
        assertEquals(1, log.trackedBreakers());
    }
}
