package dev.breaker.events;

import dev.breaker.CircuitBreaker;
import dev.breaker.Permit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * Racing callers for the bus tests: {@code threads} threads, released together, each make
 * {@code calls} calls on breakers picked at random, each call a success or a failure at random,
 * so the breakers transition at once and often.
 */
final class RandomTraffic {

    private RandomTraffic() {}

    /** Runs the callers on {@code pool} and returns once every one has finished (a minute at most each). */
    static void run(ExecutorService pool, int threads, List<CircuitBreaker> breakers, int calls) throws Exception {
        CyclicBarrier start = new CyclicBarrier(threads);
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            done.add(pool.submit(() -> {
                start.await(10, TimeUnit.SECONDS);
                ThreadLocalRandom random = ThreadLocalRandom.current();
                for (int i = 0; i < calls; i++) {
                    CircuitBreaker b = breakers.get(random.nextInt(breakers.size()));
                    Permit p = b.tryAcquire();
                    if (p.granted()) {
                        if (random.nextBoolean()) {
                            p.onFailure(0, null);
                        } else {
                            p.onSuccess(0);
                        }
                    }
                }
                return null;
            }));
        }
        for (Future<?> f : done) {
            f.get(60, TimeUnit.SECONDS);
        }
    }
}
