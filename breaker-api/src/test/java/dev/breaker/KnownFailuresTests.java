package dev.breaker;

import static dev.breaker.Replay.MILLI;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breaker.testsupport.Waits;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Failures other circuit breakers have shipped, replayed as scenarios against ours. Each test
 * names the library and, where there is one, the issue; the scenario is written from the
 * description of the failure, not from anyone's code.
 */
class KnownFailuresTests {

    private final FakeTicker ticker = new FakeTicker(5 * MILLI);

    private CircuitBreaker breaker(int probes, Duration maxHalfOpen) {
        return CircuitBreaker.builder("known")
                .window(Windows.consecutiveFailures(1))
                .cooldown(Duration.ofMillis(10))
                .probes(probes)
                .maxHalfOpenDuration(maxHalfOpen)
                .ticker(ticker)
                .build();
    }

    private void tripAndWaitOutCooldown(CircuitBreaker b) {
        b.tryAcquire().onFailure(0, null);
        assertEquals(State.OPEN, b.state());
        ticker.advanceMillis(10);
    }

    /** Resilience4j: successes of calls admitted while CLOSED close a HALF_OPEN breaker with zero probes run. */
    @Test
    void resilience4j_lateClosedSuccessesDoNotCloseHalfOpen() {
        CircuitBreaker b = breaker(2, Duration.ofSeconds(60));
        Permit slowCall1 = b.tryAcquire();
        Permit slowCall2 = b.tryAcquire();
        tripAndWaitOutCooldown(b);
        assertTrue(b.tryAcquire().granted()); // HALF_OPEN, one probe out, no outcome yet
        slowCall1.onSuccess(0);
        slowCall2.onSuccess(0);
        assertEquals(State.HALF_OPEN, b.state());
        assertEquals(0, b.metrics().probeSuccesses());
        assertEquals(2, b.metrics().lateResults());
    }

    /** Resilience4j admits 5 probes of 2, Failsafe issue 391: late releases of closed-era permits free probe slots. */
    @Test
    void resilience4jAndFailsafe391_lateReleasesDoNotAdmitExtraProbes() {
        CircuitBreaker b = breaker(2, Duration.ofSeconds(60));
        List<Permit> closedEra = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            closedEra.add(b.tryAcquire());
        }
        tripAndWaitOutCooldown(b);
        int granted = 0;
        for (int i = 0; i < 3; i++) {
            granted += b.tryAcquire().granted() ? 1 : 0;
        }
        closedEra.forEach(Permit::release);
        for (int i = 0; i < 5; i++) {
            granted += b.tryAcquire().granted() ? 1 : 0;
        }
        assertEquals(2, granted, "exactly the 2 probes of the round");
    }

    /** reset() during HALF_OPEN with a maximum half-open duration: no stale deadline reopens the fresh breaker. */
    @Test
    void resetDuringHalfOpenLeavesNoStaleDeadline() {
        CircuitBreaker b = breaker(1, Duration.ofMillis(100));
        tripAndWaitOutCooldown(b);
        Permit probe = b.tryAcquire();
        b.reset();
        for (int i = 0; i < 10; i++) {
            ticker.advanceMillis(50); // well past the old round's deadline
            Permit p = b.tryAcquire();
            assertTrue(p.granted());
            p.onSuccess(0);
        }
        probe.release();
        assertEquals(State.CLOSED, b.state());
        assertEquals(3, b.metrics().generation(), "trip, half-open, reset; nothing stale after that");
    }

    /** An Error thrown by the protected call during HALF_OPEN: the probe slot comes back. */
    @Test
    void errorDuringHalfOpenReturnsTheProbeSlot() {
        CircuitBreaker b = breaker(1, Duration.ofSeconds(60));
        tripAndWaitOutCooldown(b);
        assertThrows(
                OutOfMemoryError.class,
                () -> b.run(() -> {
                    throw new OutOfMemoryError("simulated");
                }));
        assertEquals(State.HALF_OPEN, b.state());
        assertTrue(b.tryAcquire().granted(), "the slot is free for the next probe");
    }

    /** Sentinel issue 1638: a probe that never reports keeps the breaker HALF_OPEN forever. */
    @Test
    void sentinel1638_probeThatNeverReportsCannotWedge() {
        CircuitBreaker b = breaker(1, Duration.ofMillis(200));
        tripAndWaitOutCooldown(b);
        assertTrue(b.tryAcquire().granted()); // lost: never reported
        ticker.advanceMillis(199);
        assertFalse(b.tryAcquire().granted());
        ticker.advanceMillis(1);
        assertFalse(b.tryAcquire().granted());
        assertEquals(State.OPEN, b.state(), "the round timed out");
        ticker.advanceMillis(10);
        Permit fresh = b.tryAcquire();
        assertTrue(fresh.granted());
        fresh.onSuccess(0);
        assertEquals(State.CLOSED, b.state());
    }

    /** gobreaker issue 37: a transition listener that reads the breaker deadlocks it. */
    @Test
    void gobreaker37_listenerReadingTheBreakerDoesNotDeadlock() throws InterruptedException {
        AtomicReference<CircuitBreaker> self = new AtomicReference<>();
        List<String> seen = new ArrayList<>();
        CircuitBreaker b = CircuitBreaker.builder("reentrant")
                .window(Windows.consecutiveFailures(1))
                .cooldown(Duration.ZERO)
                .ticker(ticker)
                .listener(e -> {
                    CircuitBreaker me = self.get();
                    seen.add(me.state() + ":" + me.metrics().generation());
                    if (e instanceof StateTransition t && t.to() == State.OPEN) {
                        me.isolate(); // even a transition from inside a listener
                    }
                })
                .build();
        self.set(b);
        Thread t = new Thread(() -> b.tryAcquire().onFailure(0, null));
        t.start();
        t.join(java.util.concurrent.TimeUnit.SECONDS.toMillis(Waits.SECONDS));
        assertFalse(t.isAlive());
        assertEquals(State.ISOLATED, b.state());
        assertEquals(
                List.of("OPEN:1", "ISOLATED:2"), seen, "the nested transition's event is queued and follows in order");
    }

    /** Polly issue 1979: an ignored outcome in HALF_OPEN closes the breaker, or wedges it. */
    @Test
    void polly1979_ignoredOutcomeInHalfOpenNeitherClosesNorWedges() {
        CircuitBreaker b = CircuitBreaker.builder("ignored")
                .window(Windows.consecutiveFailures(1))
                .cooldown(Duration.ofMillis(10))
                .probes(1)
                .ticker(ticker)
                .classifier((result, failure) -> failure instanceof IllegalArgumentException
                        ? Outcome.IGNORED
                        : failure != null ? Outcome.FAILURE : Outcome.SUCCESS)
                .build();
        tripAndWaitOutCooldown(b);
        assertThrows(
                IllegalArgumentException.class,
                () -> b.run(() -> {
                    throw new IllegalArgumentException("caller's own bad request");
                }));
        assertEquals(State.HALF_OPEN, b.state(), "not closed by an outcome that says nothing");
        assertEquals("ok", b.get(() -> "ok"), "not wedged: the next probe is admitted");
        assertEquals(State.CLOSED, b.state());
    }
}
