package dev.breaker.bench;

import dev.breaker.BreakerRegistry;
import dev.breaker.CircuitBreaker;
import dev.breaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Asking a registry for a breaker that exists: what a service with a breaker per host pays on
 * every request to find the host's breaker. 1,024 names made in advance, each thread walking
 * through them; Resilience4j's registry (its defaults, count window of 100) in the same run.
 *
 * <p>Run: {@code breaker-benchmarks/run 1 3 5 1 Registry}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class RegistryBenchmarks {

    static final int NAMES = 1024;

    /** The registries and the names, shared by all threads. */
    @State(Scope.Benchmark)
    public static class Registries {
        final String[] names = new String[NAMES];
        BreakerRegistry ours;
        CircuitBreakerRegistry resilience4j;

        /** Makes every breaker once. */
        @Setup
        public void setUp() {
            ours = BreakerRegistry.builder()
                    .defaults(CircuitBreakerConfig.builder()
                            .window(Subjects.window(Subjects.Shape.COUNT_100))
                            .build())
                    .build();
            resilience4j = CircuitBreakerRegistry.ofDefaults();
            for (int i = 0; i < NAMES; i++) {
                names[i] = "host-" + i + ".example.internal";
                ours.breaker(names[i]);
                resilience4j.circuitBreaker(names[i]);
            }
        }
    }

    /** One thread's position among the names. */
    @State(Scope.Thread)
    public static class Cursor {
        int next;

        String name(Registries r) {
            next = (next + 1) & (NAMES - 1);
            return r.names[next];
        }
    }

    /**
     * One call, measured.
     *
     * @param r registries
     * @param c cursor
     * @return the breaker
     */
    @Benchmark
    public CircuitBreaker ours(Registries r, Cursor c) {
        return r.ours.breaker(c.name(r));
    }

    /**
     * One call, measured.
     *
     * @param r registries
     * @param c cursor
     * @return the breaker
     */
    @Benchmark
    public io.github.resilience4j.circuitbreaker.CircuitBreaker resilience4j(Registries r, Cursor c) {
        return r.resilience4j.circuitBreaker(c.name(r));
    }
}
