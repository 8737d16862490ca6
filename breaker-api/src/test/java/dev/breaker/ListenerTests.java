package dev.breaker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breaker.testsupport.Waits;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** SPEC rule 13: listeners cannot hurt the breaker. */
class ListenerTests {

    private final FakeTicker ticker = new FakeTicker();

    @Test
    void throwingListenerChangesNothingAndOthersStillHearEveryEvent() {
        List<BreakerEvent> heard = new CopyOnWriteArrayList<>();
        CircuitBreaker b = CircuitBreaker.builder("loud")
                .window(Windows.consecutiveFailures(1))
                .cooldown(Duration.ZERO)
                .ticker(ticker)
                .listener(e -> {
                    throw new IllegalStateException("listener bug");
                })
                .listener(e -> {
                    throw new AssertionError("listener error");
                })
                .listener(heard::add)
                .build();
        b.tryAcquire().onFailure(0, null);
        assertEquals(State.OPEN, b.state());
        b.tryAcquire().onSuccess(0);
        assertEquals(State.CLOSED, b.state());
        assertEquals(3, heard.size());
    }

    @Test
    void listenerReadingStateAndMetricsDoesNotDeadlock() throws Exception {
        AtomicReference<String> seen = new AtomicReference<>();
        AtomicReference<CircuitBreaker> self = new AtomicReference<>();
        CircuitBreaker b = CircuitBreaker.builder("reentrant")
                .window(Windows.consecutiveFailures(1))
                .cooldown(Duration.ofSeconds(1))
                .ticker(ticker)
                .listener(e ->
                        seen.set(self.get().state() + "/" + self.get().metrics().generation() + "/"
                                + self.get().tryAcquire().granted()))
                .build();
        self.set(b);
        Thread t = new Thread(() -> b.tryAcquire().onFailure(0, null));
        t.start();
        t.join(TimeUnit.SECONDS.toMillis(Waits.SECONDS));
        assertTrue(!t.isAlive(), "the transitioning thread finished");
        assertEquals("OPEN/1/false", seen.get());
    }

    @Test
    void blockingListenerStallsOnlyTheDeliveringThread() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CircuitBreaker b = CircuitBreaker.builder("slow-listener")
                .window(Windows.consecutiveFailures(1))
                .cooldown(Duration.ZERO)
                .ticker(ticker)
                .listener(e -> {
                    entered.countDown();
                    try {
                        release.await(10, TimeUnit.SECONDS);
                    } catch (InterruptedException ie) {
                        Thread.currentThread().interrupt();
                    }
                })
                .build();
        Thread deliverer = new Thread(() -> b.tryAcquire().onFailure(0, null));
        deliverer.start();
        assertTrue(entered.await(Waits.SECONDS, TimeUnit.SECONDS));
        // the breaker is OPEN and other threads keep deciding, without waiting for the listener
        assertEquals(State.OPEN, b.state());
        Permit probe = b.tryAcquire();
        assertTrue(probe.granted());
        probe.onSuccess(0);
        assertEquals(State.CLOSED, b.state());
        release.countDown();
        deliverer.join(TimeUnit.SECONDS.toMillis(Waits.SECONDS));
        assertTrue(!deliverer.isAlive());
    }
}
