package dev.breaker;

import static org.junit.jupiter.api.Assertions.fail;

import java.util.function.IntSupplier;

/** Test helpers for events, which a breaker may deliver on its event executor after the call that caused them. */
final class Events {

    private Events() {}

    /** Waits (up to 10 s) until every generation's event was delivered or counted as dropped. */
    static void awaitDelivered(CircuitBreaker b, IntSupplier transitionsSeen) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (System.nanoTime() < deadline) {
            BreakerMetrics m = b.metrics();
            if (transitionsSeen.getAsInt() + m.droppedEvents() >= m.generation()) {
                return;
            }
            Thread.sleep(1);
        }
        BreakerMetrics m = b.metrics();
        fail("events still undelivered after 10 s: seen " + transitionsSeen.getAsInt() + ", dropped "
                + m.droppedEvents() + ", generation " + m.generation());
    }
}
