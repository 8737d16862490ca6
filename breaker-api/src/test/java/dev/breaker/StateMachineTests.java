package dev.breaker;

import static dev.breaker.Replay.MILLI;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** SPEC rules 1 to 7 and the core's own promises, one behaviour per test, single-threaded. */
class StateMachineTests {

    private final FakeTicker ticker = new FakeTicker(1_000);
    private final List<BreakerEvent> events = new CopyOnWriteArrayList<>();

    private CircuitBreaker breaker(int threshold, long cooldownMillis, int probes) {
        return CircuitBreaker.builder("dep")
                .window(Windows.consecutiveFailures(threshold))
                .cooldown(Duration.ofMillis(cooldownMillis))
                .probes(probes)
                .maxHalfOpenDuration(Duration.ofMillis(500))
                .ticker(ticker)
                .listener(events::add)
                .build();
    }

    /** Two consecutive failures trip it; a permit per call when {@code tracked}. */
    private CircuitBreaker twoFailuresTrip(boolean tracked) {
        return CircuitBreaker.builder("dep")
                .window(Windows.consecutiveFailures(2))
                .trackedPermits(tracked)
                .ticker(ticker)
                .build();
    }

    private static void fail(CircuitBreaker b) {
        Permit p = b.tryAcquire();
        assertTrue(p.granted(), "expected a permit");
        p.onFailure(0, new RuntimeException("boom"));
    }

    private List<StateTransition> transitions() {
        return events.stream()
                .filter(StateTransition.class::isInstance)
                .map(StateTransition.class::cast)
                .toList();
    }

    @Test
    void startsClosedAtGenerationZero() {
        CircuitBreaker b = breaker(1, 10, 1);
        assertEquals(State.CLOSED, b.state());
        assertEquals(0, b.metrics().generation());
        assertEquals("dep", b.name());
    }

    @Test
    void rule1_rejectedRequestDoesNotRestartCooldown() {
        CircuitBreaker b = breaker(1, 10, 1);
        fail(b);
        for (int ms = 1; ms < 10; ms++) {
            ticker.advanceMillis(1);
            assertFalse(b.tryAcquire().granted());
        }
        ticker.advanceMillis(1);
        assertTrue(b.tryAcquire().granted(), "cooldown counted from the trip, not from the last rejection");
        assertEquals(9, b.metrics().rejectedCalls());
    }

    @Test
    void rule1_stateDoesNotAdvanceWithoutARequest() {
        CircuitBreaker b = breaker(1, 10, 1);
        fail(b);
        ticker.advanceMillis(1_000);
        assertEquals(State.OPEN, b.state(), "no timer: only a request moves OPEN to HALF_OPEN");
        assertTrue(b.tryAcquire().granted());
        assertEquals(State.HALF_OPEN, b.state());
    }

    @Test
    void rule2_failedProbeStartsFullCooldownAtReportTime() {
        CircuitBreaker b = breaker(1, 10, 1);
        fail(b);
        ticker.advanceMillis(10);
        Permit probe = b.tryAcquire();
        ticker.advanceMillis(3); // the probe takes 3 ms
        probe.onFailure(3 * MILLI, null);
        ticker.advanceMillis(9);
        assertFalse(b.tryAcquire().granted());
        ticker.advanceMillis(1);
        assertTrue(b.tryAcquire().granted());
    }

    @Test
    void rule3_halfOpenGrantsExactlyNAndReleaseFreesASlot() {
        CircuitBreaker b = breaker(1, 0, 3);
        fail(b);
        Permit p1 = b.tryAcquire();
        Permit p2 = b.tryAcquire();
        Permit p3 = b.tryAcquire();
        assertTrue(p1.granted() && p2.granted() && p3.granted());
        assertFalse(b.tryAcquire().granted());
        assertEquals(3, b.metrics().probesAdmitted());
        p2.release();
        assertEquals(2, b.metrics().probesAdmitted());
        Permit p4 = b.tryAcquire();
        assertTrue(p4.granted(), "the released slot is free again");
        assertFalse(b.tryAcquire().granted());
    }

    @Test
    void rule3_ignoredOutcomeFreesSlotAndDecidesNothing() {
        CircuitBreaker b = CircuitBreaker.builder("dep")
                .window(Windows.consecutiveFailures(1))
                .cooldown(Duration.ZERO)
                .probes(1)
                .ticker(ticker)
                .classifier((r, t) -> t instanceof IllegalArgumentException ? Outcome.IGNORED : Outcome.FAILURE)
                .build();
        fail(b);
        Permit probe = b.tryAcquire();
        probe.onResult(null, new IllegalArgumentException("caller's fault"), 0);
        assertEquals(State.HALF_OPEN, b.state());
        assertEquals(0, b.metrics().probesAdmitted());
        Permit next = b.tryAcquire();
        assertTrue(next.granted(), "not wedged: the slot came back");
        next.onSuccess(0);
        assertEquals(State.CLOSED, b.state());
    }

    @Test
    void rule4_closingResetsTheWindow() {
        CircuitBreaker b = breaker(2, 0, 1);
        fail(b);
        fail(b); // OPEN with two failures in the window
        b.tryAcquire().onSuccess(0); // probe closes
        assertEquals(State.CLOSED, b.state());
        assertEquals(0, b.metrics().failedCalls());
        fail(b);
        assertEquals(State.CLOSED, b.state(), "one new failure cannot re-trip on old history");
        fail(b);
        assertEquals(State.OPEN, b.state());
    }

    @Test
    void rule5_eachTransitionOneEventInGenerationOrder() {
        CircuitBreaker b = breaker(1, 0, 1);
        fail(b); // CLOSED -> OPEN (1)
        Permit probe = b.tryAcquire(); // OPEN -> HALF_OPEN (2)
        probe.onFailure(0, null); // HALF_OPEN -> OPEN (3)
        b.tryAcquire().onSuccess(0); // OPEN -> HALF_OPEN (4), HALF_OPEN -> CLOSED (5)
        b.isolate(); // CLOSED -> ISOLATED (6)
        b.isolate(); // no-op
        b.reset(); // ISOLATED -> CLOSED (7)
        List<StateTransition> ts = transitions();
        assertEquals(
                List.of(
                        TransitionReason.WINDOW_TRIPPED,
                        TransitionReason.COOLDOWN_ELAPSED,
                        TransitionReason.PROBE_FAILED,
                        TransitionReason.COOLDOWN_ELAPSED,
                        TransitionReason.PROBES_SUCCEEDED,
                        TransitionReason.ISOLATED,
                        TransitionReason.RESET),
                ts.stream().map(StateTransition::reason).toList());
        for (int i = 0; i < ts.size(); i++) {
            assertEquals(i + 1, ts.get(i).generation());
            assertEquals("dep", ts.get(i).breakerName());
            if (i > 0) {
                assertEquals(ts.get(i - 1).to(), ts.get(i).from(), "events chain state to state");
            }
        }
        assertEquals(7, b.metrics().generation());
    }

    @Test
    void rule6_lateClosedEraSuccessesCannotCloseHalfOpen() {
        // Resilience4j closes with zero probes run when these arrive; we must not.
        CircuitBreaker b = breaker(1, 10, 2);
        Permit early1 = b.tryAcquire();
        Permit early2 = b.tryAcquire();
        fail(b);
        ticker.advanceMillis(10);
        Permit probe = b.tryAcquire();
        assertEquals(State.HALF_OPEN, b.state());
        early1.onSuccess(0);
        early2.onSuccess(0);
        assertEquals(State.HALF_OPEN, b.state());
        assertEquals(2, b.metrics().lateResults());
        assertEquals(0, b.metrics().probeSuccesses());
        probe.onSuccess(0);
        assertEquals(State.HALF_OPEN, b.state(), "needs its own second probe");
    }

    @Test
    void rule6_lateReleasesOfClosedPermitsDoNotAdmitExtraProbes() {
        CircuitBreaker b = breaker(1, 10, 2);
        Permit[] early = new Permit[5];
        for (int i = 0; i < early.length; i++) {
            early[i] = b.tryAcquire();
        }
        fail(b);
        ticker.advanceMillis(10);
        assertTrue(b.tryAcquire().granted());
        assertTrue(b.tryAcquire().granted());
        for (Permit p : early) {
            p.release();
        }
        assertFalse(b.tryAcquire().granted(), "still exactly 2 probes");
        assertEquals(2, b.metrics().probesAdmitted());
    }

    @Test
    void rule6_probeOfAnEarlierRoundDecidesNothing() {
        CircuitBreaker b = breaker(1, 10, 2);
        fail(b);
        ticker.advanceMillis(10);
        Permit oldRound = b.tryAcquire();
        b.tryAcquire().onFailure(0, null); // round 1 fails
        ticker.advanceMillis(10);
        Permit newRound = b.tryAcquire();
        oldRound.onFailure(0, null);
        assertEquals(State.HALF_OPEN, b.state(), "a straggler cannot reopen the new round");
        oldRound.onSuccess(0);
        assertEquals(1, b.metrics().probesAdmitted());
        newRound.onSuccess(0);
        assertEquals(State.HALF_OPEN, b.state());
        assertEquals(1, b.metrics().lateResults());
        assertEquals(1, b.metrics().duplicateReports(), "the straggler's second report is a duplicate");
    }

    @Test
    void rule6_permitFromAnEarlierClosedEraIsLateInTheNextOne() {
        CircuitBreaker b = breaker(2, 0, 1);
        Permit oldEra = b.tryAcquire();
        fail(b);
        fail(b); // OPEN
        b.tryAcquire().onSuccess(0); // probe closes: a new CLOSED era
        fail(b);
        oldEra.onFailure(0, null); // would be the second failure in a row if counted
        assertEquals(State.CLOSED, b.state());
        assertEquals(1, b.metrics().failedCalls());
        assertEquals(1, b.metrics().lateResults());
        LateResult late = events.stream()
                .filter(LateResult.class::isInstance)
                .map(LateResult.class::cast)
                .findFirst()
                .orElseThrow();
        assertEquals(0, late.permitGeneration());
        assertEquals(3, late.currentGeneration());
    }

    @Test
    void rule7_consecutiveFailuresTripAtTheThresholdTime() {
        CircuitBreaker b = breaker(3, 10, 1);
        fail(b);
        fail(b);
        assertEquals(State.CLOSED, b.state());
        assertEquals(2, b.metrics().failedCalls());
        ticker.advanceMillis(4);
        fail(b);
        assertEquals(State.OPEN, b.state());
        assertEquals(ticker.read(), transitions().get(0).atNanos());
    }

    @Test
    void rule8and9_windowSeesEverySlowCallAndItsTripOpens() {
        java.util.List<String> recorded = new java.util.ArrayList<>();
        dev.breaker.spi.WindowFactory recording = new dev.breaker.spi.WindowFactory() {
            @Override
            public dev.breaker.spi.Window create(Ticker t) {
                return new dev.breaker.spi.Window() {
                    @Override
                    public boolean record(boolean failure, boolean slow) {
                        recorded.add((failure ? "F" : "S") + (slow ? "-slow" : ""));
                        return recorded.size() == 4;
                    }

                    @Override
                    public dev.breaker.spi.WindowCounts counts() {
                        return dev.breaker.spi.WindowCounts.empty();
                    }
                };
            }

            @Override
            public String describe() {
                return "recording";
            }
        };
        CircuitBreaker b = CircuitBreaker.builder("slow")
                .window(recording)
                .ticker(ticker)
                .slowCallThreshold(Duration.ofMillis(100))
                .build();
        b.tryAcquire().onSuccess(100 * MILLI); // at the threshold: slow
        b.tryAcquire().onFailure(100 * MILLI, null); // slow and failed
        b.tryAcquire().onSuccess(100 * MILLI - 1); // just under: not slow
        b.tryAcquire().release(); // no outcome: not recorded
        assertEquals(State.CLOSED, b.state());
        b.tryAcquire().onFailure(0, null);
        assertEquals(List.of("S-slow", "F-slow", "S", "F"), recorded);
        assertEquals(State.OPEN, b.state(), "the window's trip condition opens the breaker");
    }

    @Test
    void duplicateReportOnProbeIsIgnoredAndCounted() {
        CircuitBreaker b = breaker(1, 0, 2);
        fail(b);
        Permit probe = b.tryAcquire();
        probe.onSuccess(0);
        probe.onSuccess(0);
        assertEquals(State.HALF_OPEN, b.state(), "one probe reported twice is still one success of two");
        assertEquals(1, b.metrics().probeSuccesses());
        assertEquals(1, b.metrics().duplicateReports());
    }

    @Test
    void permitsSayTheirGenerationAndWhetherTheyAreProbes() {
        CircuitBreaker b = breaker(1, 10, 1);
        Permit closed = b.tryAcquire();
        assertEquals(0, closed.generation());
        assertFalse(closed.isProbe());
        closed.onFailure(0, null);
        Permit rejected = b.tryAcquire();
        assertEquals(-1, rejected.generation());
        assertFalse(rejected.isProbe());
        ticker.advanceMillis(10);
        Permit probe = b.tryAcquire();
        assertTrue(probe.isProbe());
        assertEquals(2, probe.generation());
    }

    @Test
    void trackedClosedPermitsDetectDuplicates() {
        CircuitBreaker b = twoFailuresTrip(true);
        Permit p = b.tryAcquire();
        assertFalse(p == b.tryAcquire(), "one permit per call");
        p.onFailure(0, null);
        p.onFailure(0, null);
        assertEquals(State.CLOSED, b.state(), "one call's failure reported twice is still one failure");
        assertEquals(1, b.metrics().failedCalls());
        assertEquals(1, b.metrics().duplicateReports());
        Permit stale = b.tryAcquire();
        b.reset();
        stale.onSuccess(0);
        stale.onSuccess(0);
        assertEquals(1, b.metrics().lateResults());
        assertEquals(2, b.metrics().duplicateReports());
    }

    @Test
    void closedPermitIsSharedWithinAGeneration() {
        CircuitBreaker b = breaker(1, 0, 1);
        assertSame(b.tryAcquire(), b.tryAcquire());
        Permit before = b.tryAcquire();
        b.reset();
        assertFalse(before == b.tryAcquire(), "a new generation has a new permit");
    }

    /**
     * A CLOSED permit carries its era's window to the report: one kept past the era is late, and
     * its outcomes reach neither that window nor the new era's, shared or tracked.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aPermitOfAnEndedEraIsLateAndItsOutcomesReachNoWindow(boolean tracked) {
        CircuitBreaker b = twoFailuresTrip(tracked);
        Permit old = b.tryAcquire();
        Permit oldAgain = b.tryAcquire();
        b.tryAcquire().onFailure(0, null); // the old era's window: 1 failure of 2
        b.reset();
        old.onFailure(0, null);
        oldAgain.onFailure(0, null);
        assertEquals(State.CLOSED, b.state(), "late failures trip nothing, however many");
        assertEquals(2, b.metrics().lateResults());
        assertEquals(0, b.metrics().failedCalls(), "the new era's window never saw them");
        b.tryAcquire().onFailure(0, null);
        assertEquals(State.CLOSED, b.state(), "the new window holds its own failure alone");
        b.tryAcquire().onFailure(0, null);
        assertEquals(State.OPEN, b.state());
    }

    @Test
    void halfOpenRoundWithoutDecisionTimesOutOnNextRequest() {
        CircuitBreaker b = breaker(1, 10, 1);
        fail(b);
        ticker.advanceMillis(10);
        Permit silent = b.tryAcquire(); // never reports
        ticker.advanceMillis(499);
        assertFalse(b.tryAcquire().granted());
        assertEquals(State.HALF_OPEN, b.state());
        ticker.advanceMillis(1);
        assertFalse(b.tryAcquire().granted(), "the timing-out request is rejected");
        assertEquals(State.OPEN, b.state());
        assertEquals(
                TransitionReason.HALF_OPEN_TIMEOUT,
                transitions().get(transitions().size() - 1).reason());
        ticker.advanceMillis(10);
        assertTrue(b.tryAcquire().granted(), "a fresh round after a full cooldown");
        silent.onSuccess(0);
        assertEquals(1, b.metrics().lateResults());
    }

    @Test
    void resetDuringHalfOpenLeavesNothingStale() {
        CircuitBreaker b = breaker(1, 10, 1);
        fail(b);
        ticker.advanceMillis(10);
        Permit probe = b.tryAcquire();
        b.reset();
        ticker.advanceMillis(10_000); // far past the old round's maximum duration
        assertTrue(b.tryAcquire().granted());
        probe.onFailure(0, null);
        assertEquals(State.CLOSED, b.state(), "the old probe's failure is late");
        assertEquals(State.CLOSED, b.state());
    }

    @Test
    void isolateRejectsUntilReset() {
        CircuitBreaker b = breaker(1, 0, 1);
        Permit inFlight = b.tryAcquire();
        b.isolate();
        assertEquals(State.ISOLATED, b.state());
        ticker.advanceMillis(1_000_000);
        assertFalse(b.tryAcquire().granted());
        inFlight.onFailure(0, null);
        assertEquals(State.ISOLATED, b.state());
        CallNotPermittedException e = assertThrows(CallNotPermittedException.class, () -> b.run(() -> {}));
        assertEquals(-1, e.retryAfterNanos());
        b.reset();
        assertTrue(b.tryAcquire().granted());
    }

    @Test
    void rejectedPermitRefusesReports() {
        CircuitBreaker b = breaker(1, 10, 1);
        fail(b);
        Permit rejected = b.tryAcquire();
        assertFalse(rejected.granted());
        assertThrows(IllegalStateException.class, () -> rejected.onSuccess(0));
        assertThrows(IllegalStateException.class, rejected::release);
    }

    @Test
    void negativeDurationIsRejectedAndChangesNothing() {
        CircuitBreaker b = breaker(1, 10, 1);
        Permit p = b.tryAcquire();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> p.onFailure(-1, null));
        assertTrue(e.getMessage().contains("durationNanos") && e.getMessage().contains("-1"), e.getMessage());
        assertEquals(State.CLOSED, b.state());
        assertEquals(0, b.metrics().failedCalls());
    }

    @Test
    void metricsReflectTheTrippingWindowWhileOpen() {
        CircuitBreaker b = breaker(2, 10, 1);
        fail(b);
        fail(b);
        BreakerMetrics m = b.metrics();
        assertEquals(State.OPEN, m.state());
        assertEquals(2, m.bufferedCalls());
        assertEquals(2, m.failedCalls());
        assertEquals(1.0, m.failureRate());
    }

    @Test
    void wrappingTickerKeepsCooldownRight() {
        FakeTicker wrap = new FakeTicker(Long.MAX_VALUE - 3 * MILLI);
        CircuitBreaker b = CircuitBreaker.builder("wrap")
                .window(Windows.consecutiveFailures(1))
                .cooldown(Duration.ofMillis(10))
                .ticker(wrap)
                .build();
        fail(b);
        wrap.advanceMillis(9); // now past Long.MAX_VALUE, negative
        assertTrue(wrap.read() < 0);
        assertFalse(b.tryAcquire().granted());
        wrap.advanceMillis(1);
        assertTrue(b.tryAcquire().granted());
    }

    @Test
    void standingTickerStillDecides() {
        FakeTicker still = new FakeTicker(42);
        CircuitBreaker b = CircuitBreaker.builder("still")
                .window(Windows.consecutiveFailures(1))
                .cooldown(Duration.ofMillis(10))
                .ticker(still)
                .build();
        fail(b);
        for (int i = 0; i < 100; i++) {
            assertFalse(b.tryAcquire().granted(), "time stands still: the cooldown never ends");
        }
        assertEquals(State.OPEN, b.state());
    }

    @Test
    void aHalfOpenRejectionSaysWhenTheRoundEndsAtTheLatest() {
        CircuitBreaker b = breaker(1, 10, 1);
        fail(b);
        ticker.advanceMillis(10);
        assertTrue(b.tryAcquire().isProbe(), "the one probe is out");
        ticker.advanceMillis(100);
        CallNotPermittedException e = assertThrows(CallNotPermittedException.class, () -> b.get(() -> 1));
        assertEquals(State.HALF_OPEN, e.state());
        assertEquals(400 * MILLI, e.retryAfterNanos(), "the round's 500 ms less the 100 ms gone");
    }

    @Test
    void aProbeReportedAtTheHalfOpenLimitEndsTheRoundAsATimeout() {
        CircuitBreaker b = breaker(1, 10, 1);
        fail(b);
        ticker.advanceMillis(10);
        Permit inTime = b.tryAcquire();
        ticker.advance(500 * MILLI - 1);
        inTime.onSuccess(0);
        assertEquals(State.CLOSED, b.state(), "one nanosecond before the limit the probe decides");

        fail(b);
        ticker.advanceMillis(10);
        Permit atTheLimit = b.tryAcquire();
        ticker.advance(500 * MILLI);
        atTheLimit.onSuccess(0);
        assertEquals(State.OPEN, b.state(), "at the limit the round has timed out");
        assertEquals(
                TransitionReason.HALF_OPEN_TIMEOUT,
                transitions().get(transitions().size() - 1).reason());
    }

    @Test
    void isolateAndResetAreStampedWithTheTickerReading() {
        CircuitBreaker b = breaker(1, 10, 1);
        ticker.advanceMillis(3);
        b.isolate();
        assertEquals(ticker.read(), transitions().get(0).atNanos());
        ticker.advanceMillis(4);
        b.isolate();
        assertEquals(1, transitions().size(), "isolating an isolated breaker changes nothing");
        assertEquals(1, b.metrics().generation());
        ticker.advanceMillis(5);
        b.reset();
        assertEquals(ticker.read(), transitions().get(1).atNanos());
    }

    @Test
    void runRecordsItsSuccessesAndFailures() {
        CircuitBreaker b = breaker(2, 10, 1);
        Runnable boom = () -> {
            throw new IllegalStateException("boom");
        };
        assertThrows(IllegalStateException.class, () -> b.run(boom));
        b.run(() -> {});
        assertThrows(IllegalStateException.class, () -> b.run(boom));
        assertEquals(State.CLOSED, b.state(), "the success in between broke the streak");
        assertThrows(IllegalStateException.class, () -> b.run(boom));
        assertEquals(State.OPEN, b.state());
    }
}
