package dev.breaker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breaker.spi.HalfOpenPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The core's side of the revised half-open SPI (SPEC rules 14 to 16), with policies written
 * here: rounds sized and judged per consecutive opening, the count of openings carried across a
 * CLOSED era and started over after the calm period, and the ramp's credit, with policies and
 * tickers that fail.
 */
class RoundAndRampTests {

    private static final long COOLDOWN = 10;
    private static final IllegalStateException DOWN = new IllegalStateException("down");

    private final FakeTicker ticker = new FakeTicker(Long.MAX_VALUE - 100); // wraps during most tests
    private final FunctionPolicy policy = new FunctionPolicy();

    {
        policy.closeAfter = k -> policy.probes(k); // a round closes when all its probes succeed
    }

    private CircuitBreaker breaker() {
        return breaker(ticker);
    }

    private CircuitBreaker breaker(Ticker t) {
        return CircuitBreaker.builder("rounds")
                .window(Windows.consecutiveFailures(1))
                .halfOpen(policy)
                .maxHalfOpenDuration(Duration.ofDays(1))
                .ticker(t)
                .build();
    }

    /** Trips, waits out the cooldown of opening {@code k}, and closes with the round's probes. */
    private void tripAndRecover(CircuitBreaker b, int k) {
        b.tryAcquire().onFailure(0, DOWN);
        assertEquals(State.OPEN, b.state());
        ticker.advance(COOLDOWN * k);
        List<Permit> probes = new ArrayList<>();
        for (int i = 0; i < policy.probes(k); i++) {
            Permit p = b.tryAcquire();
            assertTrue(p.isProbe(), "probe " + i + " of round " + k);
            probes.add(p);
        }
        probes.forEach(p -> p.onSuccess(0));
        assertEquals(State.CLOSED, b.state());
    }

    @Test
    void roundsGrowAndTheCountComesBackAfterAClose() {
        policy.probes = k -> k; // round after opening k: k probes
        CircuitBreaker b = breaker();
        b.tryAcquire().onFailure(0, DOWN);
        for (int k = 1; k <= 3; k++) {
            ticker.advance(COOLDOWN * k - 1);
            assertFalse(b.tryAcquire().granted(), "cooldown of opening " + k + " is " + COOLDOWN * k);
            ticker.advance(1);
            List<Permit> round = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                Permit p = b.tryAcquire();
                if (p.granted()) {
                    round.add(p);
                }
            }
            assertEquals(k, round.size(), "round " + k);
            round.get(0).onFailure(0, DOWN);
            assertEquals(State.OPEN, b.state());
        }
        assertEquals(
                List.of(1, 2, 3, 4),
                policy.cooldownsAsked.subList(2, 6),
                "one cooldown per opening, counted (two asked when built)");
    }

    @Test
    void withoutACalmPeriodTheCountStartsOverAtTheClose() {
        CircuitBreaker b = breaker();
        tripAndRecover(b, 1);
        tripAndRecover(b, 1); // opening 1 again: cooldown 10
        assertEquals(List.of(1, 1), policy.cooldownsAsked.subList(2, 4), "after the two asked when built");
    }

    @Test
    void withinTheCalmPeriodTheCountGoesOnAndAfterItStartsOver() {
        policy.calm = 50;
        CircuitBreaker b = breaker();
        tripAndRecover(b, 1);
        ticker.advance(49); // closed for 49 < 50: the next trip is opening 2
        tripAndRecover(b, 2);
        ticker.advance(50); // closed for 50: over
        b.tryAcquire().onFailure(0, DOWN);
        ticker.advance(COOLDOWN - 1);
        assertFalse(b.tryAcquire().granted(), "opening 1 again: cooldown 10");
        ticker.advance(1);
        assertTrue(b.tryAcquire().isProbe());
    }

    @Test
    void resetStartsTheCountOverEvenWithinTheCalmPeriod() {
        policy.calm = 1_000;
        CircuitBreaker b = breaker();
        tripAndRecover(b, 1);
        b.reset();
        b.tryAcquire().onFailure(0, DOWN);
        ticker.advance(COOLDOWN);
        assertTrue(b.tryAcquire().isProbe(), "opening 1 after a reset: cooldown 10");
    }

    @Test
    void aBackOffFromClosedNeitherCountsNorForgetsTheOpenings() {
        policy.calm = 1_000;
        CircuitBreaker b = breaker();
        tripAndRecover(b, 1); // count carried: 1
        b.tryAcquire().onFailure(0, new BackOffTests.TooManyRequests(Duration.ofNanos(5)));
        assertEquals(State.OPEN, b.state());
        ticker.advance(5);
        b.tryAcquire().onFailure(0, DOWN); // the probe fails: opening 2 (1 carried + 1), cooldown 20
        ticker.advance(2 * COOLDOWN - 1);
        assertFalse(b.tryAcquire().granted());
        ticker.advance(1);
        assertTrue(b.tryAcquire().isProbe());
    }

    @Test
    void probesThatFailAtARoundsStartGiveARoundOfOneAndAreLogged() throws Exception {
        AtomicInteger asked = new AtomicInteger();
        policy.probes = k -> {
            if (asked.incrementAndGet() > 2) { // the build's two checks pass; every round start fails
                throw new IllegalStateException("no probes today");
            }
            return 3;
        };
        CircuitBreaker b = breaker();
        try (LogCapture log = new LogCapture()) {
            b.tryAcquire().onFailure(0, DOWN);
            ticker.advance(COOLDOWN);
            assertTrue(b.tryAcquire().isProbe());
            assertFalse(b.tryAcquire().granted(), "a round of one");
            assertTrue(log.text().contains("failed on the probes of opening 1"), log.text());
        }
    }

    @Test
    void aPolicyWhoseProbesAreBelowOneAtARoundStartGivesOne() {
        AtomicInteger asked = new AtomicInteger();
        policy.probes = k -> asked.incrementAndGet() > 2 ? 0 : 2; // the build's two checks see 2
        CircuitBreaker b = breaker();
        b.tryAcquire().onFailure(0, DOWN);
        ticker.advance(COOLDOWN);
        assertTrue(b.tryAcquire().isProbe());
        assertFalse(b.tryAcquire().granted());
    }

    @Test
    void aPolicyThatFailsOnTheFirstOpeningAfterACalmPeriodFallsBackToTheFirstCooldown() throws Exception {
        policy.calm = 1_000;
        CircuitBreaker b = breaker(); // cooldown(k) = 10 k; the first, 10, read at build
        tripAndRecover(b, 1);
        tripAndRecover(b, 2); // within the calm period: the second opening, cooldown 20
        ticker.advance(1_000); // calm: the count starts over
        policy.cooldown = k -> {
            throw new IllegalStateException("no cooldown today");
        };
        try (LogCapture log = new LogCapture()) {
            b.tryAcquire().onFailure(0, DOWN); // opening 1 again; its cooldown falls back
            ticker.advance(COOLDOWN - 1);
            assertFalse(b.tryAcquire().granted(), "the first cooldown, 10, not the last one, 20");
            ticker.advance(1);
            assertTrue(b.tryAcquire().isProbe());
            assertTrue(log.text().contains("no cooldown today"), log.text());
        }
    }

    // ---------------------------------------------------------------- the ramp

    @Test
    void aPolicyThatRampsWithoutSayingHowAdmitsEveryCallAndLogsNothing() throws Exception {
        FunctionPolicy base = new FunctionPolicy();
        HalfOpenPolicy rampsByDefault = new HalfOpenPolicy() {
            @Override
            public long cooldownNanos(int consecutiveOpens) {
                return base.cooldownNanos(consecutiveOpens);
            }

            @Override
            public int probes(int consecutiveOpens) {
                return base.probes(consecutiveOpens);
            }

            @Override
            public Verdict decide(int consecutiveOpens, int successes, int failures) {
                return base.decide(consecutiveOpens, successes, failures);
            }

            @Override
            public long rampUpNanos() {
                return 100; // and the default share, 1.0: the whole of the traffic
            }
        };
        CircuitBreaker b = CircuitBreaker.builder("default share")
                .window(Windows.consecutiveFailures(1))
                .halfOpen(rampsByDefault)
                .ticker(ticker)
                .build();
        b.tryAcquire().onFailure(0, DOWN);
        ticker.advance(COOLDOWN);
        b.tryAcquire().onSuccess(0); // the probe closes it; the ramp begins
        try (LogCapture log = new LogCapture()) {
            for (int i = 0; i < 10; i++) {
                ticker.advance(5);
                assertTrue(b.tryAcquire().granted(), "call " + i + " of the ramp");
            }
            assertEquals("", log.text(), "a share of 1 is no broken ramp");
        }
        assertEquals(0, b.metrics().rejectedCalls());
    }

    @Test
    void aRampAdmitsTheIntegerPartOfTheSharesAndShedsTheRestAsClosed() {
        policy.ramp = 100;
        policy.share = e -> 0.25;
        CircuitBreaker b = breaker();
        tripAndRecover(b, 1);
        StringBuilder pattern = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            Permit p = b.tryAcquire();
            pattern.append(p.granted() ? 'A' : '-');
            if (p.granted()) {
                assertFalse(p.isProbe());
                p.onSuccess(0);
            } else {
                assertSame(RejectedPermit.RAMPING, p);
            }
        }
        assertEquals("---A---A", pattern.toString(), "credit 0.25 per request, admitted when it crosses a unit");
        assertEquals(6, b.metrics().rejectedCalls());
        ticker.advance(30);
        CallNotPermittedException e = assertThrows(CallNotPermittedException.class, () -> b.get(() -> "x"));
        assertEquals(State.CLOSED, e.state());
        assertEquals(70, e.retryAfterNanos(), "the rest of the ramp, 30 ns into it");
        assertTrue(e.getMessage().contains("ramping up"), e.getMessage());
        assertEquals("Permit[rejected, CLOSED, ramping up]", RejectedPermit.RAMPING.toString());
    }

    @Test
    void theRampEndsAfterItsLengthAndThenAsksNothing() {
        policy.ramp = 100;
        policy.share = e -> 0.5;
        CircuitBreaker b = breaker();
        tripAndRecover(b, 1);
        ticker.advance(99);
        b.tryAcquire();
        int asked = policy.sharesAsked.get();
        ticker.advance(1);
        for (int i = 0; i < 10; i++) {
            assertTrue(b.tryAcquire().granted());
        }
        assertEquals(asked, policy.sharesAsked.get(), "after the ramp, the closed path asks the policy nothing");
        assertEquals(3, b.metrics().generation(), "trip, round, close: ending the ramp is not a transition");
    }

    @Test
    void noRampAtTheStartNorAfterAReset() {
        policy.ramp = 1_000;
        policy.share = e -> 0.01;
        CircuitBreaker b = breaker();
        assertTrue(b.tryAcquire().granted(), "a new breaker does not ramp");
        tripAndRecover(b, 1);
        assertFalse(b.tryAcquire().granted(), "ramping after the round closed it");
        b.reset();
        for (int i = 0; i < 5; i++) {
            assertTrue(b.tryAcquire().granted(), "a reset does not ramp");
        }
    }

    @Test
    void aShareThatThrowsEndsTheRampAdmitsEverythingAndIsLoggedOnce() throws Exception {
        policy.ramp = 1_000;
        policy.share = e -> {
            throw new IllegalStateException("no share");
        };
        CircuitBreaker b = breaker();
        tripAndRecover(b, 1);
        try (LogCapture log = new LogCapture()) {
            for (int i = 0; i < 5; i++) {
                assertTrue(b.tryAcquire().granted());
            }
            assertEquals(1, policy.sharesAsked.get());
            String text = log.text();
            assertTrue(text.contains("answered rampShare(0) with a failure"), text);
            assertEquals(text.indexOf("answered rampShare"), text.lastIndexOf("answered rampShare"), "logged once");
        }
    }

    @Test
    void sharesOutsideTheRangeEndTheRampToo() throws Exception {
        for (double bad : new double[] {0.0, -0.5, 1.5, Double.NaN}) {
            policy.ramp = 1_000;
            policy.share = e -> bad;
            policy.sharesAsked.set(0);
            CircuitBreaker b = breaker();
            tripAndRecover(b, 1);
            try (LogCapture log = new LogCapture()) {
                assertTrue(b.tryAcquire().granted(), "share " + bad);
                assertTrue(b.tryAcquire().granted(), "share " + bad);
                assertEquals(1, policy.sharesAsked.get(), "share " + bad);
                assertTrue(log.text().contains("= " + bad + ", outside (0, 1]"), log.text());
            }
        }
    }

    @Test
    void aTickerThatFailsAtTheCloseStartsTheRampAtTheFirstGoodReading() {
        FlakyTicker flaky = new FlakyTicker();
        policy.ramp = 100;
        policy.share = e -> e < 100 ? 0.5 : 1.0;
        CircuitBreaker b = breaker(flaky);
        b.tryAcquire().onFailure(0, DOWN);
        flaky.advance(COOLDOWN);
        Permit probe = b.tryAcquire();
        assertTrue(probe.isProbe());
        flaky.advance(500); // long after: had the ramp started at the round's start, it would be over
        flaky.failNext(1);
        assertThrows(FlakyTicker.TickerBroke.class, () -> probe.onSuccess(0));
        assertEquals(State.CLOSED, b.state());
        assertFalse(b.tryAcquire().granted(), "the ramp starts now: 0.5, not yet a unit");
        assertTrue(b.tryAcquire().granted());
        flaky.advance(100);
        assertTrue(b.tryAcquire().granted());
    }

    @Test
    void aTripThatLosesItsCompareAndSetToTheRampsEndStillOpens() {
        InterleavingTests.InterleavingTicker clock = new InterleavingTests.InterleavingTicker();
        policy.ramp = 100;
        policy.share = e -> 1.0;
        CircuitBreaker b = CircuitBreaker.builder("rounds")
                .window(Windows.consecutiveFailures(1))
                .halfOpen(policy)
                .ticker(clock)
                .build();
        b.tryAcquire().onFailure(0, DOWN);
        clock.advance(COOLDOWN);
        b.tryAcquire().onSuccess(0); // closes: the ramp begins
        Permit p = b.tryAcquire(); // admitted during the ramp (share 1)
        assertTrue(p.granted());
        long generation = b.metrics().generation();
        // between the window's trip and the trip's compare-and-set, another request ends the ramp
        clock.atNextRead(() -> {
            clock.advance(100);
            assertTrue(b.tryAcquire().granted()); // swaps in the same era without its ramp
        });
        p.onFailure(0, DOWN);
        assertEquals(State.OPEN, b.state(), "the trip tried again on the same generation");
        assertEquals(generation + 1, b.metrics().generation());
    }
}
