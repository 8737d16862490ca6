package dev.breaker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** What permits and states say of themselves, for logs and debuggers: the kind, the state and the generation. */
class DescriptionTests {

    private final FakeTicker ticker = new FakeTicker();

    private CircuitBreakerBuilder builder() {
        return CircuitBreaker.builder("described")
                .window(Windows.consecutiveFailures(1))
                .cooldown(Duration.ofMillis(10))
                .ticker(ticker);
    }

    @Test
    void everyPermitSaysWhatItIsAndItsGeneration() {
        CircuitBreaker b = builder().build();
        Permit closed = b.tryAcquire();
        assertEquals("Permit[CLOSED, generation 0]", closed.toString());
        closed.onFailure(0, null);
        assertEquals("Permit[rejected, OPEN]", b.tryAcquire().toString());
        ticker.advanceMillis(10);
        Permit probe = b.tryAcquire();
        assertEquals("Permit[HALF_OPEN probe, generation 2]", probe.toString());
        assertEquals("Permit[rejected, HALF_OPEN]", b.tryAcquire().toString());
        b.isolate();
        assertEquals("Permit[rejected, ISOLATED]", b.tryAcquire().toString());
    }

    @Test
    void aTrackedClosedPermitSaysItIsTracked() {
        CircuitBreaker b = builder().trackedPermits(true).build();
        assertEquals("Permit[CLOSED, tracked, generation 0]", b.tryAcquire().toString());
    }

    @Test
    void aStateSaysItsGenerationItsStartAndItsRound() {
        assertEquals(
                "OPEN@3(since=100?, admitted=0, successes=0, failures=0)",
                Snapshot.open(3, 100, false, 5, 1, null, null, null).toString(),
                "a start the ticker could not read is marked");
        assertEquals(
                "HALF_OPEN@4(since=200, admitted=2, successes=1, failures=0)",
                Snapshot.halfOpen(4, 200, 5, 1, 2, null, null, null)
                        .withProbes(2, 1, 0)
                        .toString());
    }

    @Test
    void aBreakerSaysItsNameStateGenerationWindowAndPolicy() {
        dev.breaker.spi.HalfOpenPolicy policy = HalfOpenPolicies.fixed(Duration.ofSeconds(2), 3);
        CircuitBreaker b = CircuitBreaker.builder("described")
                .window(Windows.consecutiveFailures(1))
                .halfOpen(policy)
                .ticker(ticker)
                .build();
        assertEquals(
                "CircuitBreaker[described, CLOSED, generation 0, "
                        + Windows.consecutiveFailures(1).describe() + ", " + policy + "]",
                b.toString());
    }
}
