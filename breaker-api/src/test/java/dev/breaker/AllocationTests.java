package dev.breaker;

import static dev.breaker.testsupport.Allocations.CALLS;
import static dev.breaker.testsupport.Allocations.ROUNDS;
import static dev.breaker.testsupport.Allocations.bytesPerCall;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.function.Supplier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * SPEC rule 11 and the core issue's "rejection is cheap": the closed happy path and rejection
 * through the permit allocate nothing. Measured with the JVM's per-thread allocation counter
 * after a warm-up, over many calls; a single allocated object per call would show as at least
 * 16 bytes per call. Runs in the class-path execution, where {@code com.sun.management} is readable.
 */
@Tag("class-path")
class AllocationTests {

    private static final Supplier<String> ANSWER = () -> "answer";

    @Test
    void closedPermitPathAllocatesNothing() {
        CircuitBreaker b = CircuitBreaker.builder("alloc").build();
        double perCall = bytesPerCall(() -> b.tryAcquire().onSuccess(0));
        assertTrue(perCall < 0.05, "bytes per call: " + perCall);
    }

    @Test
    void closedExecutePathAllocatesNothing() {
        CircuitBreaker b = CircuitBreaker.builder("alloc").build();
        double perCall = bytesPerCall(() -> b.get(ANSWER));
        assertTrue(perCall < 0.05, "bytes per call: " + perCall);
    }

    @Test
    void closedExecutePathWithSlowCallTimingAllocatesNothing() {
        CircuitBreaker b = CircuitBreaker.builder("alloc")
                .slowCallThreshold(Duration.ofSeconds(1))
                .build();
        double perCall = bytesPerCall(() -> b.get(ANSWER));
        assertTrue(perCall < 0.05, "bytes per call: " + perCall);
    }

    @Test
    void aDeclarativeClassifierAllocatesNothingOnTheHappyPath() {
        CircuitBreaker b = CircuitBreaker.builder("alloc")
                .classifier(FailureClassifier.builder()
                        .recordExceptions(java.io.IOException.class)
                        .ignoreExceptions(java.io.FileNotFoundException.class)
                        .failWhen("503"::equals)
                        .build())
                .build();
        double perCall = bytesPerCall(() -> b.get(ANSWER));
        assertTrue(perCall < 0.05, "bytes per call: " + perCall);
    }

    @Test
    void rejectionThroughThePermitAllocatesNothing() {
        CircuitBreaker b = CircuitBreaker.builder("alloc")
                .window(Windows.consecutiveFailures(1))
                .cooldown(Duration.ofDays(1))
                .build();
        b.tryAcquire().onFailure(0, null);
        double perCall = bytesPerCall(() -> b.tryAcquire().granted());
        assertTrue(perCall < 0.05, "bytes per call: " + perCall);
    }

    @Test
    void anObservedBreakerAllocatesNothingPerCallOrRejection() {
        CallObserverTests.Counting observer = new CallObserverTests.Counting();
        CircuitBreaker b = CircuitBreaker.builder("alloc")
                .window(Windows.consecutiveFailures(1))
                .cooldown(Duration.ofDays(1))
                .slowCallThreshold(Duration.ofSeconds(1))
                .observer(observer)
                .build();
        double closed = bytesPerCall(() -> b.get(ANSWER));
        assertTrue(closed < 0.05, "bytes per observed call: " + closed);
        b.tryAcquire().onFailure(0, null);
        double rejected = bytesPerCall(() -> b.tryAcquire().granted());
        assertTrue(rejected < 0.05, "bytes per observed rejection: " + rejected);
        long each = (1L + ROUNDS) * CALLS; // the warm-up and the rounds
        assertTrue(observer.successes.sum() == each && observer.rejected.sum() == each);
    }

    @Test
    void aRampingBreakerAllocatesNothingPerRequest() {
        dev.breaker.spi.HalfOpenPolicy ramping = new dev.breaker.spi.HalfOpenPolicy() {
            @Override
            public long cooldownNanos(int consecutiveOpens) {
                return 0;
            }

            @Override
            public int probes(int consecutiveOpens) {
                return 1;
            }

            @Override
            public Verdict decide(int consecutiveOpens, int successes, int failures) {
                return failures > 0 ? Verdict.OPEN : Verdict.CLOSE;
            }

            @Override
            public long rampUpNanos() {
                return Duration.ofDays(1).toNanos();
            }

            @Override
            public double rampShare(long elapsedNanos) {
                return 0.5;
            }
        };
        CircuitBreaker b = CircuitBreaker.builder("alloc")
                .window(Windows.consecutiveFailures(1))
                .halfOpen(ramping)
                .build();
        b.tryAcquire().onFailure(0, null);
        b.tryAcquire().onSuccess(0); // the probe closes it: the ramp begins, half the requests shed
        double perCall = bytesPerCall(() -> {
            Permit p = b.tryAcquire();
            if (p.granted()) {
                p.onSuccess(0);
            }
        });
        assertTrue(perCall < 0.05, "bytes per call: " + perCall);
        assertTrue(b.metrics().rejectedCalls() >= CALLS, "it was ramping: " + b.metrics());
    }
}
