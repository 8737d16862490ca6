package dev.breaker.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breaker.BreakerRegistry;
import dev.breaker.CircuitBreaker;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.function.Supplier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Binding adds nothing to a call: a bound breaker's closed path still allocates nothing (SPEC
 * rule 11). Measured with the JVM's per-thread allocation counter after a warm-up, as
 * breaker-api's AllocationTests do; one object per call would show as at least 16 bytes per call.
 * Runs in the class-path execution, where {@code com.sun.management} is readable.
 */
@Tag("class-path")
class AllocationTests {

    private static final int CALLS = 200_000;
    /** Measurements of each path; it passes when one is within the limit (see {@link #bytesPerCall}). */
    private static final int ROUNDS = 3;

    private static final Supplier<String> ANSWER = () -> "answer";

    private static long allocatedBytes() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean())
                .getThreadAllocatedBytes(Thread.currentThread().getId());
    }

    /**
     * Bytes allocated per call: the least of {@value #ROUNDS} measurements of {@value #CALLS} calls
     * each, after the warm-up. An allocation per call shows in every round; a stray one-off (the
     * JIT's, while it compiles the path a round runs) shows in one round only.
     */
    private static double bytesPerCall(Runnable oneCall) {
        for (int i = 0; i < CALLS; i++) {
            oneCall.run(); // warm-up: let the JIT compile the path
        }
        double least = Double.MAX_VALUE;
        for (int round = 0; round < ROUNDS; round++) {
            long before = allocatedBytes();
            for (int i = 0; i < CALLS; i++) {
                oneCall.run();
            }
            least = Math.min(least, (double) (allocatedBytes() - before) / CALLS);
        }
        return least;
    }

    @Test
    void aBoundBreakerAllocatesNothingPerCallOnTheClosedPath() {
        MeterRegistry meters = new SimpleMeterRegistry();
        CircuitBreaker b = CircuitBreaker.builder("alloc")
                .slowCallThreshold(Duration.ofSeconds(1))
                .build();
        new BreakerMeterBinder(b).bindTo(meters);
        double permit = bytesPerCall(() -> b.tryAcquire().onSuccess(0));
        assertTrue(permit < 0.05, "bytes per call through the permit: " + permit);
        double execute = bytesPerCall(() -> b.get(ANSWER));
        assertTrue(execute < 0.05, "bytes per call through get: " + execute);
        assertEquals(
                2.0 * (1 + ROUNDS) * CALLS, // two paths, each warmed up and measured
                Meters.calls(meters, "alloc", "success"),
                "and the meters saw every call");
    }

    @Test
    void aRegistrysBoundBreakerAllocatesNothingPerCallEither() {
        MeterRegistry meters = new SimpleMeterRegistry();
        BreakerRegistry registry = BreakerRegistry.builder().build();
        new BreakerMeterBinder(registry).bindTo(meters);
        CircuitBreaker b = registry.breaker("alloc");
        double perCall = bytesPerCall(() -> b.tryAcquire().onSuccess(0));
        assertTrue(perCall < 0.05, "bytes per call: " + perCall);
        double lookupAndCall = bytesPerCall(() -> registry.breaker("alloc").get(ANSWER));
        assertTrue(lookupAndCall < 0.05, "bytes per lookup and call: " + lookupAndCall);
    }
}
