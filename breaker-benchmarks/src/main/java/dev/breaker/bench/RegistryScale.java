package dev.breaker.bench;

import dev.breaker.BreakerRegistry;
import dev.breaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import java.lang.management.ManagementFactory;
import java.util.Locale;
import java.util.function.IntConsumer;

/**
 * Per-host breakers mean many of them: the heap and the time it takes to make 100,000 idle
 * breakers (count window of 100) in a registry, ours against Resilience4j's registry with its
 * defaults (also a count window of 100). Names are made before the clock starts and are not
 * counted; the registry's map and entries are.
 *
 * <p>Run: {@code java -cp breaker-benchmarks/target/benchmarks.jar dev.breaker.bench.RegistryScale}
 */
public final class RegistryScale {

    private static final int BREAKERS = 100_000;

    private RegistryScale() {}

    /**
     * Measures and prints a Markdown table.
     *
     * @param args ignored
     */
    public static void main(String[] args) {
        String[] names = new String[BREAKERS];
        for (int i = 0; i < BREAKERS; i++) {
            names[i] = "host-" + i + ".example.internal";
        }
        // warm up both, then measure each three times and keep the fastest
        for (int i = 0; i < 3; i++) {
            measure("warm-up", names, true);
            measure("warm-up", names, false);
        }
        System.out.println(
                "| registry of 100,000 idle breakers (count window of 100) | time to make | heap | per breaker |");
        System.out.println("|---|---:|---:|---:|");
        for (boolean ours : new boolean[] {true, false}) {
            long[] best = {Long.MAX_VALUE, 0};
            for (int i = 0; i < 3; i++) {
                long[] m = measure(ours ? "dev.breaker" : "Resilience4j", names, ours);
                if (m[0] < best[0]) {
                    best = m;
                }
            }
            System.out.printf(
                    Locale.ROOT,
                    "| %s | %d ms | %.1f MB | %d B |%n",
                    ours ? "dev.breaker" : "Resilience4j",
                    best[0] / 1_000_000,
                    best[1] / 1e6,
                    best[1] / BREAKERS);
        }
    }

    /**
     * Makes them and measures it.
     *
     * @return {nanoseconds to make them, bytes retained}
     */
    private static long[] measure(String who, String[] names, boolean ours) {
        Object registry;
        IntConsumer make;
        if (ours) {
            BreakerRegistry r = BreakerRegistry.builder()
                    .defaults(CircuitBreakerConfig.builder()
                            .window(Subjects.window(Subjects.Shape.COUNT_100))
                            .build())
                    .build();
            registry = r;
            make = i -> r.breaker(names[i]);
        } else {
            CircuitBreakerRegistry r = CircuitBreakerRegistry.ofDefaults();
            registry = r;
            make = i -> r.circuitBreaker(names[i]);
        }
        settle();
        long before = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        long start = System.nanoTime();
        for (int i = 0; i < names.length; i++) {
            make.accept(i);
        }
        long took = System.nanoTime() - start;
        settle();
        long after = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        if (registry.hashCode() == 42 && who.isEmpty()) {
            System.out.println(); // keeps the registry reachable until here
        }
        return new long[] {took, after - before};
    }

    private static void settle() {
        for (int i = 0; i < 4; i++) {
            System.gc();
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
