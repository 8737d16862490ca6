package dev.breaker.events;

import static dev.breaker.events.EventBusTests.transition;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.breaker.BreakerEvent;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
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
