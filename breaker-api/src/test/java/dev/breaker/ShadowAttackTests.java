package dev.breaker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** SPEC rule 17 under racing threads: every call of a shadow breaker is granted and counted exactly once. */
class ShadowAttackTests {

    @Tag("race")
    @Test
    void underRacingThreadsEveryShadowCallIsGrantedAndCountedOnce() throws Exception {
        int threads = 4;
        int calls = 20_000;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            for (int round = 0; round < 10; round++) {
                FakeTicker ticker = new FakeTicker();
                CircuitBreaker b = CircuitBreaker.builder(
                                "shadow",
                                CircuitBreakerConfig.builder()
                                        .window(Windows.consecutiveFailures(3))
                                        .cooldown(Duration.ofNanos(10))
                                        .probes(2)
                                        .shadow(true)
                                        .build())
                        .ticker(ticker)
                        .build();
                LongAdder shadowReleased = new LongAdder();
                LongAdder refused = new LongAdder();
                CyclicBarrier start = new CyclicBarrier(threads);
                List<Future<?>> done = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    done.add(pool.submit(() -> {
                        start.await(10, TimeUnit.SECONDS);
                        ThreadLocalRandom random = ThreadLocalRandom.current();
                        for (int i = 0; i < calls; i++) {
                            Permit p = b.tryAcquire();
                            if (!p.granted()) {
                                refused.increment();
                                continue;
                            }
                            if (random.nextInt(20) == 0) {
                                ticker.advance(5);
                            }
                            switch (random.nextInt(4)) {
                                case 0 -> {
                                    if (p.generation() < 0) {
                                        shadowReleased.increment();
                                    }
                                    p.release();
                                }
                                case 1 -> p.onSuccess(0);
                                default -> p.onFailure(0, null);
                            }
                        }
                        return null;
                    }));
                }
                for (Future<?> f : done) {
                    f.get(60, TimeUnit.SECONDS);
                }
                BreakerMetrics m = b.metrics();
                assertEquals(0, refused.sum(), "a shadow never refuses");
                assertTrue(m.rejectedCalls() > 0, "round " + round + ": it would have rejected some: " + m);
                assertEquals(
                        m.rejectedCalls(),
                        m.shadowSuccesses() + m.shadowFailures() + shadowReleased.sum(),
                        "round " + round + ": each call it would have rejected is counted apart: " + m);
                assertEquals(
                        (long) threads * calls - m.rejectedCalls(),
                        m.totalSuccesses() + m.totalFailures() + m.totalIgnored() + m.lateResults(),
                        "round " + round + ": the others are counted as usual: " + m);
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
