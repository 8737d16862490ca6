package dev.breaker.halfopen;

import static dev.breaker.halfopen.Breakers.failAt;
import static dev.breaker.halfopen.Breakers.openExactly;
import static dev.breaker.halfopen.ManualTicker.MILLI;
import static dev.breaker.halfopen.ManualTicker.SECOND;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breaker.CircuitBreaker;
import dev.breaker.Permit;
import dev.breaker.State;
import dev.breaker.spi.HalfOpenPolicy;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * SPEC rule 14: the k-th consecutive opening waits {@code min(initial * multiplier^(k-1), max)},
 * drawn from {@code [w * (1 - j), w]} with jitter; the count starts over once the breaker has stayed
 * CLOSED for the calm period (from the moment it entered CLOSED), and at {@code reset()}; a
 * back-off opening (rule 19) does not count.
 */
class CooldownRuleTests {

    private final ManualTicker ticker = new ManualTicker(Long.MAX_VALUE - 3 * SECOND); // wraps in every test

    // ---------------------------------------------------------------- jitter

    /** w - floor(w * j * r), exactly, for an injected r. */
    @ParameterizedTest(name = "w={0} ns, jitter={1}, r={2} -> {3} ns")
    @CsvSource({
        "1000000000, 0.5, 0.5, 750000000",
        "1000000000, 0.2, 0.25, 950000000",
        "1000000000, 0.5, 0.9999999999999999, 500000001",
        "1000000000, 0.9, 0.999, 100900000",
        "1000000000, 0.3, 0.7, 790000000",
        "1000000000, 0.1, 0.123456789, 987654322",
        "1000000000, 0.5, 0.0, 1000000000",
        "7, 0.5, 0.5, 6",
        "1, 0.99, 0.99, 1",
    })
    void jitterTakesExactlyTheDrawnFraction(long w, double jitter, double r, long expected) {
        HalfOpenPolicy p = ExponentialPolicy.builder()
                .initial(Duration.ofNanos(w))
                .jitter(jitter)
                .random(() -> r)
                .build();
        assertEquals(expected, p.cooldownNanos(1));
    }

    /** The jitter applies to the capped, multiplied cooldown of each opening. */
    @Test
    void jitterAppliesToEachOpeningsCooldown() {
        HalfOpenPolicy p = jittered(() -> 0.5);
        assertEquals(750 * MILLI, p.cooldownNanos(1));
        assertEquals(1500 * MILLI, p.cooldownNanos(2));
        assertEquals(3 * SECOND, p.cooldownNanos(3));
        assertEquals(6 * SECOND, p.cooldownNanos(4));
        assertEquals(6 * SECOND, p.cooldownNanos(5), "w capped at 8 s, then jittered");
        assertEquals(6 * SECOND, p.cooldownNanos(Integer.MAX_VALUE));
    }

    /** Initial 1 s, multiplier 2, max 8 s, jitter 0.5, r = 0.5: the breaker waits 750 ms, 1.5 s, 3 s. */
    @Test
    void breakerHonoursTheJitteredCooldowns() {
        CircuitBreaker b = Breakers.breaker(jittered(() -> 0.5), ticker, 1);
        failAt(b, ticker, 0);
        Permit probe = openExactly(b, ticker, 0, 750 * MILLI);
        probe.onFailure(0, new IllegalStateException("down"));
        probe = openExactly(b, ticker, 750 * MILLI, 1500 * MILLI);
        probe.onFailure(0, new IllegalStateException("down"));
        probe = openExactly(b, ticker, 2250 * MILLI, 3 * SECOND);
        probe.onSuccess(0);
        assertEquals(State.CLOSED, b.state());
        assertEquals(9, b.metrics().rejectedCalls());
    }

    /** A source that leaves [0, 1) counts as 0: the full cooldown, in the policy and in the breaker. */
    @ParameterizedTest
    @ValueSource(doubles = {1.0, -0.1, Double.NaN, 1.5, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY})
    void outOfRangeRandomCountsAsZero(double r) {
        HalfOpenPolicy p = jittered(() -> r);
        assertEquals(SECOND, p.cooldownNanos(1));
        assertEquals(2 * SECOND, p.cooldownNanos(2));
        assertEquals(8 * SECOND, p.cooldownNanos(9));
        CircuitBreaker b = Breakers.breaker(p, ticker, 1);
        failAt(b, ticker, 0);
        Permit probe = openExactly(b, ticker, 0, SECOND);
        probe.onFailure(0, new IllegalStateException("down"));
        openExactly(b, ticker, SECOND, 2 * SECOND).onSuccess(0);
        assertEquals(State.CLOSED, b.state());
    }

    /**
     * A random source that throws when the breaker trips cannot stop the opening: the breaker
     * opens with its first cooldown (drawn when it was built), rejects, and logs the failure.
     */
    @ParameterizedTest
    @ValueSource(strings = {"runtime", "error"})
    void throwingRandomAtATripFallsBackToTheFirstCooldown(String kind) throws Exception {
        AtomicBoolean broken = new AtomicBoolean();
        CircuitBreaker b = Breakers.breaker(jittered(breakable(broken, kind)), ticker, 1); // first: 750 ms
        broken.set(true);
        try (LogCapture log = new LogCapture()) {
            ticker.at(0);
            Permit p = b.tryAcquire();
            assertTrue(p.granted());
            assertDoesNotThrow(() -> p.onFailure(0, new IllegalStateException("down")));
            assertEquals(State.OPEN, b.state(), "the opening happened");
            assertFalse(b.tryAcquire().granted(), "and rejects");
            String text = log.text();
            assertTrue(text.contains("half-open policy failed on opening 1"), text);
            assertTrue(text.contains("random source broken"), text);
        }
        openExactly(b, ticker, 0, 750 * MILLI).onSuccess(0);
        assertEquals(State.CLOSED, b.state());
    }

    /**
     * A random source that throws when a probe fails: the breaker reopens with the previous
     * cooldown (that of the opening before the round), again and again while it stays broken.
     */
    @ParameterizedTest
    @ValueSource(strings = {"runtime", "error"})
    void throwingRandomAtAReopeningFallsBackToThePreviousCooldown(String kind) throws Exception {
        AtomicBoolean broken = new AtomicBoolean();
        CircuitBreaker b = Breakers.breaker(jittered(breakable(broken, kind)), ticker, 1);
        failAt(b, ticker, 0); // 750 ms
        Permit probe = openExactly(b, ticker, 0, 750 * MILLI);
        probe.onFailure(0, new IllegalStateException("down")); // 1.5 s
        probe = openExactly(b, ticker, 750 * MILLI, 1500 * MILLI);
        broken.set(true);
        try (LogCapture log = new LogCapture()) {
            Permit failing = probe;
            assertDoesNotThrow(() -> failing.onFailure(0, new IllegalStateException("down")));
            assertEquals(State.OPEN, b.state());
            assertTrue(log.text().contains("half-open policy failed on opening 3"), log.text());
            probe = openExactly(b, ticker, 2250 * MILLI, 1500 * MILLI); // not 3 s: the previous cooldown
            probe.onFailure(0, new IllegalStateException("down"));
            assertTrue(log.text().contains("half-open policy failed on opening 4"), log.text());
            probe = openExactly(b, ticker, 3750 * MILLI, 1500 * MILLI);
        }
        broken.set(false);
        probe.onFailure(0, new IllegalStateException("down")); // opening 5: 16 s capped at 8, jittered
        openExactly(b, ticker, 5250 * MILLI, 6 * SECOND).onSuccess(0);
        assertEquals(State.CLOSED, b.state());
    }

    // ---------------------------------------------------------------- calm period

    /**
     * Calm period 10 s. Trip at 0 (1 s); the probe at 1 s fails (2 s); the probe granted at 3 s
     * reports success at 4 s, so the breaker enters CLOSED at 4 s with 2 openings. A trip
     * {@code after} later is the 3rd consecutive opening (4 s) before the calm period has passed
     * since 4 s, and the 1st (1 s) at or after it. 9.5 s after the close is 10.5 s after the
     * round began: the calm period counts from the close, not from the round.
     */
    @ParameterizedTest(name = "trip {0} ns after the close -> cooldown {1} ns")
    @CsvSource({
        "1000000, 4000000000",
        "9500000000, 4000000000",
        "9999999999, 4000000000",
        "10000000000, 1000000000",
        "10000000001, 1000000000",
        "3600000000000, 1000000000",
    })
    void calmPeriodCountsFromEnteringClosed(long after, long expectedCooldown) {
        CircuitBreaker b = Breakers.breaker(calm(Duration.ofSeconds(10)), ticker, 1);
        failAt(b, ticker, 0);
        Permit probe = openExactly(b, ticker, 0, SECOND);
        probe.onFailure(0, new IllegalStateException("down"));
        probe = openExactly(b, ticker, SECOND, 2 * SECOND);
        ticker.at(4 * SECOND);
        probe.onSuccess(SECOND); // granted at 3 s, reported at 4 s
        assertEquals(State.CLOSED, b.state(), "entered CLOSED at 4 s");
        ticker.at(4 * SECOND + after - 1);
        assertEquals("ok", b.get(() -> "ok"), "calls pass while CLOSED");
        failAt(b, ticker, 4 * SECOND + after);
        openExactly(b, ticker, 4 * SECOND + after, expectedCooldown).onSuccess(0);
    }

    /** Within the calm period the count carries over several closes: 1 s, 2 s, 4 s, 8 s. */
    @Test
    void countContinuesAcrossClosesWithinTheCalmPeriod() {
        CircuitBreaker b = Breakers.breaker(calm(Duration.ofSeconds(10)), ticker, 1);
        long t = 0;
        long expected = SECOND;
        for (int opening = 1; opening <= 4; opening++) {
            failAt(b, ticker, t);
            Permit probe = openExactly(b, ticker, t, expected);
            t += expected;
            probe.onSuccess(0);
            assertEquals(State.CLOSED, b.state());
            t += 9 * SECOND; // 1 s short of the calm period
            expected *= 2;
        }
        t += SECOND; // now 10 s since the last close: calm
        failAt(b, ticker, t);
        openExactly(b, ticker, t, SECOND).onSuccess(0);
    }

    /** With the default calm period of 0, the count starts over at every close. */
    @Test
    void zeroCalmPeriodStartsOverAtTheClose() {
        CircuitBreaker b = Breakers.breaker(calm(Duration.ZERO), ticker, 1);
        failAt(b, ticker, 0);
        Permit probe = openExactly(b, ticker, 0, SECOND);
        probe.onFailure(0, new IllegalStateException("down"));
        openExactly(b, ticker, SECOND, 2 * SECOND).onSuccess(0); // CLOSED at 3 s
        failAt(b, ticker, 3 * SECOND); // at the very moment of the close
        openExactly(b, ticker, 3 * SECOND, SECOND).onSuccess(0);
    }

    // ---------------------------------------------------------------- reset

    /** OPEN after 3 consecutive openings, calm period 1 h: reset() starts the count over. */
    @Test
    void resetFromOpenStartsTheCountOver() {
        CircuitBreaker b = Breakers.breaker(calm(Duration.ofHours(1)), ticker, 1);
        threeOpenings(b); // OPEN since 3 s, for 4 s
        ticker.at(4 * SECOND);
        b.reset();
        assertEquals(State.CLOSED, b.state());
        failAt(b, ticker, 4 * SECOND);
        openExactly(b, ticker, 4 * SECOND, SECOND).onSuccess(0);
    }

    /** CLOSED with 3 openings carried (calm period 1 h): reset() starts the count over. */
    @Test
    void resetWhileClosedWithinTheCalmPeriodStartsTheCountOver() {
        CircuitBreaker b = Breakers.breaker(calm(Duration.ofHours(1)), ticker, 1);
        threeOpenings(b);
        openExactly(b, ticker, 3 * SECOND, 4 * SECOND).onSuccess(0); // CLOSED at 7 s, 3 carried
        ticker.at(8 * SECOND);
        b.reset();
        failAt(b, ticker, 9 * SECOND);
        openExactly(b, ticker, 9 * SECOND, SECOND).onSuccess(0);
        // and the control: without a reset the same trip would have been the 4th opening
        CircuitBreaker control = Breakers.breaker(calm(Duration.ofHours(1)), ticker, 1);
        threeOpenings(control);
        openExactly(control, ticker, 3 * SECOND, 4 * SECOND).onSuccess(0);
        failAt(control, ticker, 9 * SECOND);
        openExactly(control, ticker, 9 * SECOND, 8 * SECOND);
    }

    // ---------------------------------------------------------------- back-off (rule 19)

    /**
     * Calm period 1 h. Two openings (1 s, 2 s), then CLOSED at 3 s with 2 carried. At 4 s the
     * dependency asks for 5 s: OPEN for exactly 5 s. The probe at 9 s fails: that is the 3rd
     * consecutive opening (4 s), not the 4th (8 s), as the back-off opening did not count.
     */
    @ParameterizedTest
    @ValueSource(strings = {"get", "onFailure"})
    void backOffFromClosedDoesNotCountAsAnOpening(String path) {
        CircuitBreaker b = Breakers.breaker(calm(Duration.ofHours(1)), ticker, 1);
        failAt(b, ticker, 0);
        Permit probe = openExactly(b, ticker, 0, SECOND);
        probe.onFailure(0, new IllegalStateException("down"));
        openExactly(b, ticker, SECOND, 2 * SECOND).onSuccess(0);
        assertEquals(State.CLOSED, b.state());
        backOffAt(b, 4 * SECOND, Duration.ofSeconds(5), path);
        probe = openExactly(b, ticker, 4 * SECOND, 5 * SECOND);
        probe.onFailure(0, new IllegalStateException("down"));
        openExactly(b, ticker, 9 * SECOND, 4 * SECOND).onSuccess(0);
    }

    /**
     * Calm period 0. Trip at 0 (1 s); the probe at 1 s is told to back off 5 s: OPEN until 6 s.
     * The probe at 6 s fails: the 2nd consecutive opening (2 s), not the 3rd (4 s).
     */
    @ParameterizedTest
    @ValueSource(strings = {"get", "onFailure"})
    void backOffFromAProbeDoesNotCountAsAnOpening(String path) {
        CircuitBreaker b = Breakers.breaker(calm(Duration.ZERO), ticker, 1);
        failAt(b, ticker, 0);
        Breakers.assertOpenUntil(b, ticker, 0, SECOND);
        backOffAt(b, SECOND, Duration.ofSeconds(5), path); // the request at 1 s is the probe
        Permit probe = openExactly(b, ticker, SECOND, 5 * SECOND);
        probe.onFailure(0, new IllegalStateException("down"));
        openExactly(b, ticker, 6 * SECOND, 2 * SECOND).onSuccess(0);
    }

    /** A fresh breaker told to back off: the failing probe after it is the 1st opening (1 s). */
    @ParameterizedTest
    @ValueSource(strings = {"get", "onFailure"})
    void backOffBeforeAnyOpeningLeavesTheCountAtZero(String path) {
        CircuitBreaker b = Breakers.breaker(calm(Duration.ofHours(1)), ticker, 1);
        backOffAt(b, 0, Duration.ofSeconds(5), path);
        Permit probe = openExactly(b, ticker, 0, 5 * SECOND);
        probe.onFailure(0, new IllegalStateException("down"));
        openExactly(b, ticker, 5 * SECOND, SECOND).onSuccess(0);
    }

    /**
     * DEFECT (SPI contract): a back-off opening of a breaker that has no consecutive opening yet
     * leaves the count at 0, and the core then asks the policy {@code probes(0)} and
     * {@code decide(0, ...)} for the round after it, although {@link HalfOpenPolicy} promises
     * {@code consecutiveOpens} "at least 1" to both. The exponential policy ignores the count
     * there, so only a policy that reads it sees the difference (a policy with {@code probes(k) =
     * k} would answer 0 and be overruled with a logged warning).
     */
    @ParameterizedTest
    @ValueSource(strings = {"get", "onFailure"})
    void roundAfterABackOffIsAskedAboutWithACountOfAtLeastOne(String path) {
        HalfOpenPolicy exponential = calm(Duration.ZERO);
        List<String> asked = new CopyOnWriteArrayList<>();
        HalfOpenPolicy recording = new HalfOpenPolicy() {
            @Override
            public long cooldownNanos(int consecutiveOpens) {
                asked.add("cooldownNanos(" + consecutiveOpens + ")");
                return exponential.cooldownNanos(consecutiveOpens);
            }

            @Override
            public int probes(int consecutiveOpens) {
                asked.add("probes(" + consecutiveOpens + ")");
                return exponential.probes(consecutiveOpens);
            }

            @Override
            public Verdict decide(int consecutiveOpens, int successes, int failures) {
                asked.add("decide(" + consecutiveOpens + ")");
                return exponential.decide(consecutiveOpens, successes, failures);
            }
        };
        CircuitBreaker b = Breakers.breaker(recording, ticker, 1);
        backOffAt(b, 0, Duration.ofSeconds(5), path);
        openExactly(b, ticker, 0, 5 * SECOND).onSuccess(0);
        assertEquals(State.CLOSED, b.state());
        for (String question : asked) {
            assertFalse(question.endsWith("(0)"), "asked " + asked);
        }
    }

    // ---------------------------------------------------------------- cap

    /** 100 failed rounds: 1, 2, 4, ..., 32 s, then 60 s (max) every time; no overflow, then it closes and starts over. */
    @Test
    void cooldownIsCappedForVeryManyConsecutiveOpenings() {
        HalfOpenPolicy p = ExponentialPolicy.builder()
                .initial(Duration.ofSeconds(1))
                .multiplier(2)
                .max(Duration.ofMinutes(1))
                .build();
        CircuitBreaker b = Breakers.breaker(p, ticker, 1);
        failAt(b, ticker, 0);
        long openedAt = 0;
        for (int k = 1; k <= 100; k++) {
            long expected = k <= 6 ? (1L << (k - 1)) * SECOND : 60 * SECOND;
            assertEquals(expected, p.cooldownNanos(k), "opening " + k);
            Permit probe = openExactly(b, ticker, openedAt, expected);
            openedAt += expected;
            probe.onFailure(0, new IllegalStateException("down"));
        }
        assertEquals(60 * SECOND, p.cooldownNanos(101));
        openExactly(b, ticker, openedAt, 60 * SECOND).onSuccess(0);
        assertEquals(State.CLOSED, b.state());
        failAt(b, ticker, openedAt + 60 * SECOND);
        openExactly(b, ticker, openedAt + 60 * SECOND, SECOND);
        assertEquals(303 + 3, b.metrics().rejectedCalls());
    }

    /** Past where initial * multiplier^(k-1) overflows a long or a double: the cap, never negative. */
    @Test
    void hugeOpeningCountsGiveTheCap() {
        HalfOpenPolicy p = ExponentialPolicy.builder()
                .initial(Duration.ofSeconds(1))
                .multiplier(2)
                .max(Duration.ofNanos(Long.MAX_VALUE))
                .build();
        assertEquals(SECOND << 30, p.cooldownNanos(31));
        assertEquals(Long.MAX_VALUE, p.cooldownNanos(64), "2^63 s is past Long.MAX_VALUE ns");
        for (int k : new int[] {100, 1024, 1025, 1100, 100_000, Integer.MAX_VALUE}) {
            assertEquals(Long.MAX_VALUE, p.cooldownNanos(k), "opening " + k);
        }
        HalfOpenPolicy steep = ExponentialPolicy.builder()
                .initial(Duration.ofMillis(1))
                .multiplier(1e300)
                .max(Duration.ofHours(1))
                .build();
        assertEquals(MILLI, steep.cooldownNanos(1));
        assertEquals(3600 * SECOND, steep.cooldownNanos(2));
        assertEquals(3600 * SECOND, steep.cooldownNanos(Integer.MAX_VALUE));
        HalfOpenPolicy zero = ExponentialPolicy.builder()
                .initial(Duration.ZERO)
                .multiplier(2)
                .max(Duration.ofSeconds(1))
                .build();
        for (int k : new int[] {1, 2, 1025, Integer.MAX_VALUE}) {
            assertEquals(0, zero.cooldownNanos(k), "0 * multiplier^(k-1) is 0, also when the power overflows");
        }
        HalfOpenPolicy flat = ExponentialPolicy.builder()
                .initial(Duration.ofSeconds(3))
                .multiplier(1)
                .build();
        for (int k : new int[] {1, 2, 1025, Integer.MAX_VALUE}) {
            assertEquals(3 * SECOND, flat.cooldownNanos(k), "multiplier 1: a fixed cooldown");
        }
    }

    // ---------------------------------------------------------------- helpers

    /** Initial 1 s, multiplier 2, max 8 s, jitter 0.5 and the given source. */
    private static HalfOpenPolicy jittered(java.util.function.DoubleSupplier random) {
        return ExponentialPolicy.builder()
                .initial(Duration.ofSeconds(1))
                .multiplier(2)
                .max(Duration.ofSeconds(8))
                .jitter(0.5)
                .random(random)
                .build();
    }

    /** Initial 1 s, multiplier 2, max 1 min, the given calm period. */
    private static HalfOpenPolicy calm(Duration calmPeriod) {
        return ExponentialPolicy.builder()
                .initial(Duration.ofSeconds(1))
                .multiplier(2)
                .max(Duration.ofMinutes(1))
                .calmPeriod(calmPeriod)
                .build();
    }

    /** r = 0.5 until {@code broken}, then throws (an exception or an error). */
    private static java.util.function.DoubleSupplier breakable(AtomicBoolean broken, String kind) {
        return () -> {
            if (broken.get()) {
                if (kind.equals("error")) {
                    throw new AssertionError("random source broken");
                }
                throw new IllegalStateException("random source broken");
            }
            return 0.5;
        };
    }

    /** Trip at 0 (1 s), probes fail at 1 s (2 s) and 3 s (4 s): OPEN since 3 s with 3 consecutive openings. */
    private void threeOpenings(CircuitBreaker b) {
        failAt(b, ticker, 0);
        Permit probe = openExactly(b, ticker, 0, SECOND);
        probe.onFailure(0, new IllegalStateException("down"));
        probe = openExactly(b, ticker, SECOND, 2 * SECOND);
        probe.onFailure(0, new IllegalStateException("down"));
        assertEquals(State.OPEN, b.state());
    }

    /** At {@code time}: a granted call fails with a "retry after {@code delay}", through {@code get} or {@code onFailure}. */
    private void backOffAt(CircuitBreaker b, long time, Duration delay, String path) {
        ticker.at(time);
        RateLimited told = new RateLimited(delay);
        if (path.equals("get")) {
            Supplier<String> call = () -> {
                throw told;
            };
            assertSame(told, assertThrows(RateLimited.class, () -> b.get(call)), "the call's own exception");
        } else {
            Permit p = b.tryAcquire();
            assertTrue(p.granted());
            assertEquals(State.HALF_OPEN.equals(b.state()), p.isProbe());
            p.onFailure(0, told);
        }
        assertEquals(State.OPEN, b.state(), "told to back off: OPEN at once");
    }
}
