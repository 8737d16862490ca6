package dev.breaker;

import static dev.breaker.EventDispatcherTests.event;
import static dev.breaker.EventDispatcherTests.isolated;
import static dev.breaker.EventDispatcherTests.transition;
import static dev.breaker.testsupport.Waits.get;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.breaker.internal.race.Races;
import dev.breaker.testsupport.HeldOnce;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * SPEC rule 13 under interleavings where the dispatcher runs nobody's code between two steps: a
 * thread is held at a {@link Races race point}, or runs other threads' publications there, so
 * every run meets the interleaving. The dispatcher is driven by hand, as the breaker drives it
 * (see {@link EventDispatcherTests}).
 */
@Tag("race-points") // run in their own execution, the only one with -Ddev.breaker.races=true
class EventDispatcherRacePointTests {

    private final ExecutorService first = Executors.newSingleThreadExecutor();
    private final ExecutorService second = Executors.newSingleThreadExecutor();
    private final AtomicReference<Snapshot> current = new AtomicReference<>(isolated(0, null));

    @AfterEach
    void stop() {
        Races.handle(null);
        first.shutdownNow();
        second.shutdownNow();
    }

    /**
     * A ring of 4. Thread A, about to move on from generation 6, reads slot 2 empty (its last
     * event, 2's, was delivered and cleared) and is held; a thread still holding generation 2's
     * snapshot, from long ago, stores 2's event there first. A's store must not give up: the
     * drainer, two generations behind, finds 6's event in the ring, and nothing within the backlog
     * is counted as dropped.
     */
    @Test
    void anOlderEventStoredInTheSlotFirstDoesNotKeepTheNewerOneOut() {
        List<Long> delivered = Collections.synchronizedList(new ArrayList<>());
        EventDispatcher d = new EventDispatcher(
                "d", List.of(e -> delivered.add(((StateTransition) e).generation())), current::get, Runnable::run, 4);
        transition(d, current, true); // 0 to 1
        transition(d, current, true); // 1 to 2
        Snapshot two = transition(d, current, true); // 2 to 3: 2's event in slot 2
        transition(d, current, false); // 3 to 4: 1 to 4 delivered, 1 to 3 from the ring, which frees them
        transition(d, current, true); // 4 to 5
        transition(d, current, true); // 5 to 6: 5 and 6 wait
        assertEquals(List.of(1L, 2L, 3L, 4L), delivered);
        Snapshot six = current.get();
        HeldOnce storing = new HeldOnce(HeldOnce.threadOf(first), "the ring's slot read");
        Races.handle(p -> {
            if (p == Races.RING_READ) {
                storing.holdIfTarget();
            }
        });
        Future<?> a = first.submit(() -> d.beforeTransition(six));
        storing.reachedBy(a);
        get(second.submit(() -> d.beforeTransition(two))); // the late thread: its CAS of the snapshot will fail
        storing.letGo();
        get(a);
        current.set(isolated(7, event(7)));
        d.afterTransition();
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L, 7L), delivered);
        assertEquals(0, d.dropped(), "every event was within the backlog of 4");
    }

    /**
     * Arrivals while the drainer is between its round and its accounting of the arrivals it saw:
     * one per round for 40 rounds, then two at once. However they come, the drainer stays the
     * only one until it steps down: no other thread delivers while it drains, and every event is
     * delivered once.
     */
    @Test
    void arrivalsAtTheEndOfEveryRoundNeverMakeASecondDrainer() {
        List<String> wrongThread = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger delivered = new AtomicInteger();
        Thread drainer = HeldOnce.threadOf(first);
        EventDispatcher d = watching(drainer, Runnable::run, delivered, wrongThread);
        AtomicInteger published = new AtomicInteger(1);
        Races.handle(arrivals(d, drainer, published));
        get(first.submit(() -> d.other(new LateResult("d", 0, 0))));
        assertEquals(43, published.get());
        assertEquals(List.of(), wrongThread, "only the elected drainer delivers");
        assertEquals(43, delivered.get());
        assertEquals(0, d.dropped());
    }

    /**
     * The same arrivals while the drainer steps down dropping, after the executor refused its
     * hand-off: it is still the only drainer, so every event that arrives meanwhile is dropped and
     * counted, and none delivered by another thread.
     */
    @Test
    void arrivalsWhileTheDrainerStepsDownDroppingNeverMakeASecondDrainer() {
        List<String> wrongThread = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger delivered = new AtomicInteger();
        Thread drainer = HeldOnce.threadOf(first);
        EventDispatcher d = watching(
                drainer,
                task -> {
                    throw new RejectedExecutionException("full");
                },
                delivered,
                wrongThread);
        // at the end of the first round (one event delivered), ten more arrive: the next round
        // delivers the 7 the caller's budget of 8 leaves, the hand-off of the other 3 is refused,
        // and the drainer steps down dropping them, meeting the arrivals at each of its rounds
        AtomicInteger published = new AtomicInteger(1);
        java.util.function.IntConsumer then = arrivals(d, drainer, published);
        Races.handle(p -> {
            if (p == Races.DRAINED_ROUND && Thread.currentThread() == drainer) {
                for (int i = 0; i < 10; i++) {
                    get(second.submit(() -> d.other(new LateResult("d", 0, 0))));
                }
                published.addAndGet(10);
                Races.handle(then);
            }
        });
        get(first.submit(() -> d.other(new LateResult("d", 0, 0))));
        assertEquals(53, published.get());
        assertEquals(List.of(), wrongThread, "only the elected drainer delivers");
        assertEquals(8, delivered.get(), "the first and the 7 of the caller's budget");
        assertEquals(45, d.dropped(), "the 3 refused and the 42 that arrived while it stepped down");
    }

    /**
     * A dispatcher with a backlog of 1024 whose listener counts deliveries and names each thread
     * other than {@code drainer} that delivers.
     */
    private EventDispatcher watching(
            Thread drainer, java.util.concurrent.Executor executor, AtomicInteger delivered, List<String> wrongThread) {
        return new EventDispatcher(
                "d",
                List.of(e -> {
                    delivered.incrementAndGet();
                    if (Thread.currentThread() != drainer) {
                        wrongThread.add(Thread.currentThread().getName());
                    }
                }),
                current::get,
                executor,
                1024);
    }

    /**
     * At the drainer's round ends: one event published by another thread for 40 rounds, then two,
     * then none; each publication is complete before the drainer goes on.
     */
    private java.util.function.IntConsumer arrivals(EventDispatcher d, Thread drainer, AtomicInteger published) {
        AtomicInteger rounds = new AtomicInteger();
        return p -> {
            if (p != Races.DRAINED_ROUND || Thread.currentThread() != drainer) {
                return;
            }
            int round = rounds.incrementAndGet();
            int n = round <= 40 ? 1 : round == 41 ? 2 : 0;
            for (int i = 0; i < n; i++) {
                get(second.submit(() -> d.other(new LateResult("d", 0, 0))));
                published.incrementAndGet();
            }
        };
    }
}
