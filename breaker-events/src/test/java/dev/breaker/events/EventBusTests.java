package dev.breaker.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breaker.BreakerEvent;
import dev.breaker.CircuitBreaker;
import dev.breaker.LateResult;
import dev.breaker.State;
import dev.breaker.StateTransition;
import dev.breaker.TransitionReason;
import dev.breaker.TripSuppressed;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The bus's contract that holds for both kinds: subscription by type, unsubscribing, bad input. */
class EventBusTests {

    static StateTransition transition(String name, long generation) {
        return new StateTransition(name, State.CLOSED, State.OPEN, generation, TransitionReason.WINDOW_TRIPPED, 0);
    }

    static EventBus bus(String kind) {
        return kind.equals("sync") ? EventBus.sync() : EventBus.async();
    }

    /** Waits (up to the {@link Patience}) until {@code seen} reaches {@code n}. */
    static void await(java.util.function.IntSupplier seen, int n) throws InterruptedException {
        long deadline = Patience.deadline();
        while (seen.getAsInt() < n && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertEquals(n, seen.getAsInt(), "events seen");
    }

    @ParameterizedTest
    @ValueSource(strings = {"sync", "async"})
    void subscribersGetTheEventsOfTheirTypeAndItsSubtypesInSubscriptionOrder(String kind) throws Exception {
        try (EventBus bus = bus(kind)) {
            List<String> seen = new CopyOnWriteArrayList<>();
            bus.subscribe(StateTransition.class, t -> seen.add("transition " + t.generation()));
            bus.subscribe(
                    BreakerEvent.class, e -> seen.add("any " + e.getClass().getSimpleName()));
            bus.subscribe(LateResult.class, l -> seen.add("late " + l.permitGeneration()));
            bus.onEvent(transition("a", 1));
            bus.onEvent(new LateResult("a", 1, 2));
            bus.onEvent(new TripSuppressed("a", 2, 1, 1));
            await(seen::size, 5);
            assertEquals(
                    List.of("transition 1", "any StateTransition", "any LateResult", "late 1", "any TripSuppressed"),
                    seen);
        }
    }

    @Test
    void aSyncBusDeliversOnThePublishingThread() {
        try (EventBus bus = EventBus.sync()) {
            AtomicReference<Thread> on = new AtomicReference<>();
            bus.subscribe(BreakerEvent.class, e -> on.set(Thread.currentThread()));
            bus.onEvent(transition("a", 1));
            assertEquals(Thread.currentThread(), on.get());
        }
    }

    @Test
    void anAsyncBusDeliversOnItsOwnDaemonThread() throws Exception {
        try (EventBus bus = EventBus.async()) {
            AtomicReference<Thread> on = new AtomicReference<>();
            AtomicInteger n = new AtomicInteger();
            bus.subscribe(BreakerEvent.class, e -> {
                on.set(Thread.currentThread());
                n.incrementAndGet();
            });
            bus.onEvent(transition("a", 1));
            await(n::get, 1);
            assertTrue(on.get() != Thread.currentThread() && on.get().isDaemon(), "delivered on " + on.get());
            assertTrue(
                    on.get().getName().startsWith("dev.breaker-event-bus-"),
                    on.get().getName());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"sync", "async"})
    void aThrowingSubscriberStaysSubscribedAndCostsTheOthersNothing(String kind) throws Exception {
        try (EventBus bus = bus(kind)) {
            AtomicInteger calls = new AtomicInteger();
            AtomicInteger others = new AtomicInteger();
            bus.subscribe(BreakerEvent.class, e -> {
                calls.incrementAndGet();
                throw new IllegalStateException("subscriber down");
            });
            bus.subscribe(BreakerEvent.class, e -> others.incrementAndGet());
            for (int i = 1; i <= 100; i++) {
                bus.onEvent(transition("a", i));
            }
            await(others::get, 100);
            assertEquals(100, calls.get(), "still subscribed after throwing");
            assertEquals(100, bus.subscriberFailures());
            assertEquals(0, bus.droppedEvents());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"sync", "async"})
    void aSubscriberThatClosesItselfGetsNothingMore(String kind) throws Exception {
        try (EventBus bus = bus(kind)) {
            AtomicInteger calls = new AtomicInteger();
            AtomicInteger witness = new AtomicInteger();
            AtomicReference<AutoCloseable> self = new AtomicReference<>();
            self.set(bus.subscribe(BreakerEvent.class, e -> {
                calls.incrementAndGet();
                try {
                    self.get().close();
                } catch (Exception ex) {
                    throw new AssertionError(ex);
                }
            }));
            bus.subscribe(BreakerEvent.class, e -> witness.incrementAndGet());
            for (int i = 1; i <= 10; i++) {
                bus.onEvent(transition("a", i));
            }
            await(witness::get, 10);
            assertEquals(1, calls.get());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"sync", "async"})
    void aSubscriptionClosedDuringADeliveryMissesThatEventToo(String kind) throws Exception {
        try (EventBus bus = bus(kind)) {
            AtomicReference<AutoCloseable> second = new AtomicReference<>();
            AtomicInteger secondCalls = new AtomicInteger();
            AtomicInteger firstCalls = new AtomicInteger();
            bus.subscribe(BreakerEvent.class, e -> {
                firstCalls.incrementAndGet();
                try {
                    second.get().close(); // the list was already taken for this event
                } catch (Exception ex) {
                    throw new AssertionError(ex);
                }
            });
            second.set(bus.subscribe(BreakerEvent.class, e -> secondCalls.incrementAndGet()));
            bus.onEvent(transition("a", 1));
            bus.onEvent(transition("a", 2));
            await(firstCalls::get, 2);
            assertEquals(0, secondCalls.get());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"sync", "async"})
    void closingASubscriptionTwiceOrAfterTheBusIsHarmless(String kind) throws Exception {
        EventBus bus = bus(kind);
        AutoCloseable sub = bus.subscribe(BreakerEvent.class, e -> {});
        sub.close();
        sub.close();
        bus.close();
        bus.close();
        sub.close();
        assertTrue(bus.toString().contains("closed"), bus.toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"sync", "async"})
    void aClosedBusDropsAndCountsAndRefusesSubscriptions(String kind) {
        EventBus bus = bus(kind);
        AtomicInteger calls = new AtomicInteger();
        bus.subscribe(BreakerEvent.class, e -> calls.incrementAndGet());
        bus.close();
        bus.onEvent(transition("a", 1));
        assertEquals(0, calls.get());
        assertEquals(1, bus.droppedEvents());
        IllegalStateException e =
                assertThrows(IllegalStateException.class, () -> bus.subscribe(StateTransition.class, t -> {}));
        assertTrue(e.getMessage().contains("closed"), e.getMessage());
    }

    @Test
    void badInputIsRefusedByName() {
        try (EventBus bus = EventBus.sync()) {
            assertTrue(assertThrows(NullPointerException.class, () -> bus.subscribe(null, e -> {}))
                    .getMessage()
                    .contains("type"));
            assertTrue(assertThrows(NullPointerException.class, () -> bus.subscribe(StateTransition.class, null))
                    .getMessage()
                    .contains("consumer"));
            assertThrows(NullPointerException.class, () -> bus.onEvent(null));
        }
        for (int bad : new int[] {0, -1, EventBus.MAX_CAPACITY + 1, Integer.MIN_VALUE}) {
            IllegalArgumentException e = assertThrows(
                    IllegalArgumentException.class, () -> EventBus.builder().capacity(bad));
            assertTrue(e.getMessage().contains("capacity") && e.getMessage().contains(String.valueOf(bad)));
        }
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> EventBus.builder().closeWait(Duration.ofMillis(-1)));
        assertTrue(e.getMessage().contains("closeWait") && e.getMessage().contains("PT-0.001S"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> EventBus.builder().closeWait(Duration.ofDays(2)));
        assertThrows(NullPointerException.class, () -> EventBus.builder().closeWait(null));
        assertThrows(NullPointerException.class, () -> EventBus.builder().executor(null));
        assertThrows(NullPointerException.class, () -> EventBus.async(null));
    }

    @ParameterizedTest
    @ValueSource(strings = {"sync", "async"})
    void aSubscriberCanCallBackIntoTheBreakerWithoutDeadlock(String kind) throws Exception {
        try (EventBus bus = bus(kind)) {
            List<String> seen = new CopyOnWriteArrayList<>();
            CircuitBreaker b = CircuitBreaker.builder("callback")
                    .window(dev.breaker.Windows.consecutiveFailures(1))
                    .cooldown(Duration.ofDays(1))
                    .listener(bus)
                    .build();
            bus.subscribe(StateTransition.class, t -> {
                seen.add(t.to() + " " + b.state() + " " + b.metrics().generation());
                if (t.to() == State.OPEN) {
                    b.reset(); // back into the breaker from its own event
                }
            });
            b.tryAcquire().onFailure(0, null);
            await(seen::size, 2);
            assertEquals(State.CLOSED, b.state());
            assertEquals(
                    List.of("OPEN", "CLOSED"),
                    seen.stream().map(s -> s.split(" ")[0]).toList());
        }
    }

    @Test
    void aBusServesABreakerAsItsListener() throws Exception {
        EventBus bus = EventBus.async();
        {
            List<StateTransition> seen = new ArrayList<>();
            bus.subscribe(StateTransition.class, seen::add);
            CircuitBreaker b = CircuitBreaker.builder("served")
                    .window(dev.breaker.Windows.consecutiveFailures(2))
                    .listener(bus)
                    .build();
            b.tryAcquire().onFailure(0, null);
            b.tryAcquire().onFailure(0, null);
            bus.close(); // delivers what is queued
            assertEquals(1, seen.size());
            StateTransition t = seen.get(0);
            assertEquals(
                    "served CLOSED OPEN 1 2 1.0",
                    t.breakerName() + " " + t.from() + " " + t.to() + " " + t.generation() + " " + t.calls() + " "
                            + t.failureRate());
        }
    }
}
