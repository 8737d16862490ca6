package dev.breaker.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.breaker.BreakerRegistry;
import dev.breaker.CircuitBreaker;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;

/**
 * Breakers made and removed by other threads while {@code bindTo} runs: afterwards every breaker
 * the registry has is bound exactly once, to meters that read it, and no removed one left meters.
 */
class BindingRaceTests {

    private static final int ROUNDS = 100;
    private static final int THREADS = 3;
    private static final int NAMES_PER_THREAD = 40;

    @Test
    void breakersMadeWhileBindingAreBoundExactlyOnce() throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            BreakerRegistry registry = BreakerRegistry.builder().build();
            for (int i = 0; i < 20; i++) {
                registry.breaker("existing-" + i);
            }
            MeterRegistry meters = new SimpleMeterRegistry();
            BreakerMeterBinder binder = new BreakerMeterBinder(registry);
            race(binder, meters, t -> {
                for (int i = 0; i < NAMES_PER_THREAD; i++) {
                    registry.breaker("t" + t + "-" + i);
                }
            });
            assertEachBreakerBoundOnce(registry, binder, meters);
            assertEquals(20 + THREADS * NAMES_PER_THREAD, registry.breakers().size());
        }
    }

    @Test
    void breakersMadeAndRemovedWhileBindingLeaveMetersForThoseThatRemainOnly() throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            BreakerRegistry registry = BreakerRegistry.builder().build();
            for (int i = 0; i < 20; i++) {
                registry.breaker("t" + (i % THREADS) + "-" + i);
            }
            MeterRegistry meters = new SimpleMeterRegistry();
            BreakerMeterBinder binder = new BreakerMeterBinder(registry);
            race(binder, meters, t -> {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                for (int i = 0; i < NAMES_PER_THREAD; i++) {
                    String name = "t" + t + "-" + random.nextInt(10);
                    if (random.nextBoolean()) {
                        registry.breaker(name);
                    } else {
                        registry.remove(name); // also names made anew: the old breaker's meters must go
                    }
                }
            });
            assertEachBreakerBoundOnce(registry, binder, meters);
        }
    }

    interface Work {
        void run(int thread) throws Exception;
    }

    private static void race(BreakerMeterBinder binder, MeterRegistry meters, Work work) throws Exception {
        CyclicBarrier start = new CyclicBarrier(THREADS + 1);
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            int id = t;
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                    work.run(id);
                } catch (Throwable e) {
                    synchronized (failures) {
                        failures.add(e);
                    }
                }
            });
            thread.start();
            threads.add(thread);
        }
        start.await();
        binder.bindTo(meters);
        for (Thread thread : threads) {
            thread.join();
        }
        assertEquals(List.of(), failures);
    }

    private static void assertEachBreakerBoundOnce(
            BreakerRegistry registry, BreakerMeterBinder binder, MeterRegistry meters) {
        Map<String, CircuitBreaker> present = new HashMap<>();
        for (CircuitBreaker b : registry.breakers()) {
            present.put(b.name(), b);
        }
        Map<String, BreakerMeters> bound = binder.binding(meters).bound();
        assertEquals(present.keySet(), bound.keySet());
        for (Map.Entry<String, BreakerMeters> e : bound.entrySet()) {
            assertSame(present.get(e.getKey()), e.getValue().breaker, e.getKey());
        }
        assertEquals(present.size() * Meters.PER_BREAKER, meters.getMeters().size());
        Map<String, Integer> perName = new HashMap<>();
        Map<String, FunctionCounter> successes = new HashMap<>();
        for (Meter m : meters.getMeters()) {
            perName.merge(m.getId().getTag("name"), 1, Integer::sum);
            if (m.getId().getName().equals("breaker.calls")
                    && "success".equals(m.getId().getTag("outcome"))) {
                successes.put(m.getId().getTag("name"), (FunctionCounter) m);
            }
        }
        for (CircuitBreaker b : present.values()) {
            assertEquals(Meters.PER_BREAKER, perName.get(b.name()), b.name());
            b.tryAcquire().onSuccess(0); // the meters read this very breaker
            assertEquals(b.metrics().totalSuccesses(), successes.get(b.name()).count(), b.name());
        }
    }
}
