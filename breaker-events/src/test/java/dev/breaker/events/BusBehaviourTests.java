package dev.breaker.events;

import static dev.breaker.events.EventBusTests.transition;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breaker.BreakerEvent;
import dev.breaker.StateTransition;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The bus's exact figures and messages, checked deterministically: the bound of the queue to the
 * event, the log of a throwing subscriber, what {@code toString} says, the builder's bounds, and
 * how the drain is handed on between executor tasks.
 */
class BusBehaviourTests {

    @Test
    void theQueueHoldsExactlyItsCapacityBesideTheEventInDelivery() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger delivered = new AtomicInteger();
        EventBus bus = EventBus.builder().capacity(16).build();
        bus.subscribe(BreakerEvent.class, e -> {
            entered.countDown();
            try {
                release.await();
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
            }
            delivered.incrementAndGet();
        });
        bus.onEvent(transition("a", 0));
        assertTrue(Patience.await(entered), "the first event is in delivery");
        for (int i = 1; i <= 100; i++) {
            bus.onEvent(transition("a", i));
        }
        assertEquals(16, bus.queuedEvents(), "16 wait");
        assertEquals(84, bus.droppedEvents(), "the rest are dropped, each counted");
        release.countDown();
        bus.close();
        assertEquals(17, delivered.get());
        assertEquals(0, bus.queuedEvents());
        assertEquals(84, bus.droppedEvents());
    }

    @Test
    void aSyncBusHasNothingQueued() {
        try (EventBus bus = EventBus.sync()) {
            bus.subscribe(BreakerEvent.class, e -> {});
            bus.onEvent(transition("a", 1));
            assertEquals(0, bus.queuedEvents());
        }
    }

    @Test
    void aThrowingSubscriberIsLoggedAtItsFirstSecondFourthAndEighthFailure() {
        String out;
        try (StdoutCapture capture = new StdoutCapture();
                EventBus bus = EventBus.sync()) {
            java.util.function.Consumer<StateTransition> failing = new java.util.function.Consumer<>() {
                @Override
                public void accept(StateTransition t) {
                    throw new IllegalStateException("down at " + t.generation());
                }

                @Override
                public String toString() {
                    return "the-failing-subscriber";
                }
            };
            bus.subscribe(StateTransition.class, failing);
            for (int i = 1; i <= 9; i++) {
                bus.onEvent(transition("a", i));
            }
            assertEquals(9, bus.subscriberFailures());
            out = capture.text();
        }
        List<String> lines = new ArrayList<>();
        for (String line : out.split("\n")) {
            if (line.contains("event subscriber")) {
                lines.add(line);
            }
        }
        assertEquals(4, lines.size(), out);
        long[] expected = {1, 2, 4, 8};
        for (int i = 0; i < 4; i++) {
            String line = lines.get(i);
            assertTrue(line.contains("WARN"), line);
            assertTrue(line.contains("the-failing-subscriber for StateTransition"), line);
            assertTrue(line.contains("(failure " + expected[i] + "; it stays subscribed)"), line);
        }
        assertTrue(out.contains("down at 1") && out.contains("down at 8"), "the exceptions are logged: " + out);
    }

    @Test
    void toStringSaysKindStateAndSubscribers() throws Exception {
        EventBus bus = EventBus.builder().capacity(8).build();
        AutoCloseable one = bus.subscribe(StateTransition.class, t -> {});
        bus.subscribe(BreakerEvent.class, e -> {});
        assertTrue(
                bus.toString().startsWith("EventBus[async, capacity 8, thread dev.breaker-event-bus-"), bus.toString());
        assertTrue(bus.toString().endsWith(", 2 subscribers"), bus.toString());
        assertEquals("Subscription[StateTransition, open]", one.toString());
        one.close();
        assertEquals("Subscription[StateTransition, closed]", one.toString());
        assertTrue(bus.toString().endsWith(", 1 subscribers"), bus.toString());
        bus.close();
        assertTrue(bus.toString().contains("(closed)"), bus.toString());
        try (EventBus sync = EventBus.sync()) {
            assertEquals("EventBus[sync], 0 subscribers", sync.toString());
        }
    }

    @Test
    void theBuildersBoundsAreInclusive() {
        EventBus.builder().capacity(1).capacity(EventBus.MAX_CAPACITY).closeWait(Duration.ZERO);
        EventBus.builder().closeWait(Duration.ofDays(1));
        try (EventBus bus =
                EventBus.builder().capacity(1).closeWait(Duration.ofDays(1)).build()) {
            assertTrue(bus.toString().contains("capacity 1,"), bus.toString());
        }
    }

    @Test
    void aTaskDeliversItsBudgetThenHandsTheRestToANewTask() {
        List<Runnable> tasks = new ArrayList<>();
        AtomicInteger delivered = new AtomicInteger();
        EventBus bus = EventBus.builder()
                .capacity(1000)
                .executor(tasks::add)
                .closeWait(Duration.ZERO)
                .build();
        bus.subscribe(BreakerEvent.class, e -> delivered.incrementAndGet());
        for (int i = 1; i <= 300; i++) {
            bus.onEvent(transition("a", i));
        }
        assertEquals(1, tasks.size(), "one drain at a time: one task submitted");
        tasks.remove(0).run();
        assertEquals(AsyncDelivery.TASK_BUDGET, delivered.get(), "a task delivers its budget, no more");
        assertEquals(1, tasks.size(), "and hands the rest to a fresh task");
        tasks.remove(0).run();
        assertEquals(300, delivered.get());
        assertEquals(0, tasks.size(), "nothing left: no task");
        bus.onEvent(transition("a", 301));
        assertEquals(1, tasks.size(), "the next event starts a new drain");
        tasks.remove(0).run();
        assertEquals(301, delivered.get());
        bus.close();
    }

    @Test
    void anInlineExecutorDeliversWhatPilesUpDuringDeliveryBeforeThePublisherReturns() {
        AtomicInteger delivered = new AtomicInteger();
        EventBus bus = EventBus.builder().capacity(1000).executor(Runnable::run).build();
        bus.subscribe(BreakerEvent.class, e -> {
            if (delivered.incrementAndGet() == 1) {
                for (int i = 2; i <= 301; i++) {
                    bus.onEvent(transition("a", i)); // queued behind the delivery in progress
                }
            }
        });
        bus.onEvent(transition("a", 1));
        assertEquals(301, delivered.get(), "more than a task's budget, delivered before onEvent returned");
        bus.close();
    }
}
