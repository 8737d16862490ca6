package dev.breaker.micrometer;

import static dev.breaker.testsupport.Allocations.CALLS;
import static dev.breaker.testsupport.Allocations.ROUNDS;
import static dev.breaker.testsupport.Allocations.bytesPerCall;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breaker.BreakerRegistry;
import dev.breaker.CircuitBreaker;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
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

    private static final Supplier<String> ANSWER = () -> "answer";

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
