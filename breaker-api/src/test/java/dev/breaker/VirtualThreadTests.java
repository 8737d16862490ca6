package dev.breaker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Users on Java 21+ call breakers from millions of virtual threads. Runs where virtual threads exist
 * (CI runs the suite on JDK 25 too); the jars target Java 17, so the executor is found reflectively.
 */
class VirtualThreadTests {

    private static ExecutorService virtualThreads() throws ReflectiveOperationException {
        return (ExecutorService) java.util.concurrent.Executors.class
                .getMethod("newVirtualThreadPerTaskExecutor")
                .invoke(null);
    }

    @Test
    void tenThousandVirtualThreadsKeepTheProbeBudgetAndTheEventOrder() throws Exception {
        assumeTrue(Runtime.version().feature() >= 21, "virtual threads need Java 21");
        FakeTicker ticker = new FakeTicker();
        List<StateTransition> events = Collections.synchronizedList(new ArrayList<>());
        CircuitBreaker b = CircuitBreaker.builder("virtual")
                .window(Windows.consecutiveFailures(2))
                .cooldown(Duration.ofNanos(1_000))
                .probes(3)
                .ticker(ticker)
                .eventBacklog(1 << 20)
                .listener(e -> {
                    if (e instanceof StateTransition t) {
                        events.add(t);
                    }
                })
                .build();
        ConcurrentHashMap<Long, AtomicInteger> probesPerRound = new ConcurrentHashMap<>();
        AtomicInteger violations = new AtomicInteger();
        List<Future<?>> calls = new ArrayList<>();
        ExecutorService pool = virtualThreads();
        try {
            for (int i = 0; i < 10_000; i++) {
                int n = i;
                calls.add(pool.submit(() -> {
                    for (int k = 0; k < 20; k++) {
                        ticker.advance(37);
                        Permit p = b.tryAcquire();
                        if (!p.granted()) {
                            continue;
                        }
                        if (p.isProbe()
                                && probesPerRound
                                                .computeIfAbsent(p.generation(), g -> new AtomicInteger())
                                                .incrementAndGet()
                                        > 3) {
                            violations.incrementAndGet();
                        }
                        Thread.yield(); // a virtual thread unmounts here while it holds the permit
                        if ((n + k) % 3 != 0) { // two failures in three: it trips, probes and closes again and again
                            p.onFailure(0, null);
                        } else {
                            p.onSuccess(0);
                        }
                    }
                }));
            }
            for (Future<?> f : calls) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdown();
            assertTrue(pool.awaitTermination(60, TimeUnit.SECONDS));
        }
        assertEquals(0, violations.get(), "never more than 3 probes granted in a round");
        Events.awaitDelivered(b, events::size);
        BreakerMetrics m = b.metrics();
        assertTrue(m.generation() > 0, "the breaker moved");
        assertEquals(m.generation(), events.size() + m.droppedEvents());
        long last = 0;
        synchronized (events) {
            for (StateTransition t : events) {
                assertTrue(t.generation() > last, "generation order");
                last = t.generation();
            }
        }
    }
}
