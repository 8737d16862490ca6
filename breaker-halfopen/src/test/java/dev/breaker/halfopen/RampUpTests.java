package dev.breaker.halfopen;

import static dev.breaker.halfopen.Breakers.failAt;
import static dev.breaker.halfopen.Breakers.openExactly;
import static dev.breaker.halfopen.ManualTicker.SECOND;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breaker.CallNotPermittedException;
import dev.breaker.CircuitBreaker;
import dev.breaker.Permit;
import dev.breaker.State;
import dev.breaker.spi.HalfOpenPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * SPEC rule 16: after a round closes the breaker, it is CLOSED but for the next R admits the share
 * {@code s(t) = s0 + (1 - s0) * elapsed / R} of requests through a running credit (the count
 * admitted is the integer part of the shares' sum); the rest are rejected as CLOSED rejections.
 * R = 10 s throughout; the ticker wraps during each ramp.
 */
class RampUpTests {

    private static final long R = 10 * SECOND;

    private final ManualTicker ticker = new ManualTicker(Long.MAX_VALUE - 5 * SECOND);

    /** Requests at these times into the ramp (elapsed ns, count): none lands near a whole unit of shares. */
    private static final long[][] SCHEDULE = {{0, 3}, {R / 8, 5}, {R / 3, 7}, {R / 2, 4}, {R * 9 / 10, 6}, {R - 1, 2}};

    /**
     * Over the ramp, each request is admitted exactly when the SPEC's sum of shares crosses a
     * whole unit; a rejection is a CLOSED rejection saying the breaker is ramping up, with the
     * rest of the ramp as its retry-after, counted as rejected. At R everything is admitted.
     */
    @ParameterizedTest(name = "rampFrom {0}")
    @ValueSource(doubles = {0.1, 0.01, 0.05, 0.25, 0.3, 0.4, 0.5, 0.6, 0.7, 0.75, 0.9, 1.0})
    void admitsTheIntegerPartOfTheSharesSum(double rampFrom) {
        CircuitBreaker b = Breakers.breaker(policy(rampFrom, Duration.ZERO), ticker, 1);
        long close = closeAfterARound(b);
        long rejectedBefore = b.metrics().rejectedCalls();
        ShareSum spec = new ShareSum(rampFrom, R);
        List<String> expected = new ArrayList<>();
        List<String> actual = new ArrayList<>();
        long rejections = 0;
        for (long[] step : SCHEDULE) {
            long elapsed = step[0];
            ticker.at(close + elapsed);
            for (int i = 0; i < step[1]; i++) {
                boolean admit = spec.request(elapsed);
                expected.add(admit ? "ok" : "shed");
                try {
                    actual.add(b.get(() -> "ok"));
                } catch (CallNotPermittedException e) {
                    actual.add("shed");
                    rejections++;
                    assertEquals(State.CLOSED, e.state(), "a ramp rejection names CLOSED");
                    assertEquals(R - elapsed, e.retryAfterNanos(), "the rest of the ramp");
                    assertEquals("dependency", e.breakerName());
                    assertTrue(e.getMessage().contains("ramping up"), e.getMessage());
                    assertTrue(e.getMessage().contains("CLOSED"), e.getMessage());
                }
                assertEquals(State.CLOSED, b.state());
            }
        }
        assertEquals(expected, actual, "rampFrom " + rampFrom + ", shares' sum " + spec.sum());
        assertEquals(spec.admitted(), expected.stream().filter("ok"::equals).count());
        assertEquals(rejectedBefore + rejections, b.metrics().rejectedCalls(), "shed calls count as rejected");

        ticker.at(close + R);
        for (int i = 0; i < 1000; i++) {
            assertTrue(b.tryAcquire().granted(), "after R every request is admitted");
        }
        ticker.at(close + R + 3600 * SECOND);
        assertEquals("ok", b.get(() -> "ok"));
        assertEquals(rejectedBefore + rejections, b.metrics().rejectedCalls());
    }

    /** The share at the close is s0: with 0.1, exactly every 10th request of the first instant gets through. */
    @Test
    void atTheCloseOneRequestInTenIsAdmitted() {
        CircuitBreaker b = Breakers.breaker(policy(0.1, Duration.ZERO), ticker, 1);
        long close = closeAfterARound(b);
        ticker.at(close);
        StringBuilder pattern = new StringBuilder();
        for (int i = 0; i < 30; i++) {
            Permit p = b.tryAcquire();
            pattern.append(p.granted() ? 'x' : '.');
            if (p.granted()) {
                p.onSuccess(0);
            }
        }
        assertEquals(".........x.........x.........x", pattern.toString());
        assertEquals(State.CLOSED, b.state());
    }

    /**
     * DEFECT: the credit rounds each share to the nearest 2^-32, so a share that rounds down (0.2,
     * 0.4, 0.7, 0.9, 0.325 ...) leaves the credit just short of a whole unit where the shares'
     * sum reaches it exactly. Five requests at the close with rampFrom 0.2 have shares summing to
     * 1: the fifth must be admitted (the integer part rises to 1), but the credit is 5 *
     * 858993459 / 2^32 = 0.99999999977 and it is shed; none admitted, sum 1: they differ by a
     * whole call, which rule 16 forbids. With 0.4, five requests sum to 2 and only one is
     * admitted. (jqwik finds this too when request times may be 0 and s0 has one decimal.)
     */
    @ParameterizedTest(name = "rampFrom {0}, {1} requests at the close")
    @CsvSource({"0.2, 5", "0.4, 5", "0.7, 10", "0.9, 10"})
    void rampAdmitsTheRequestWhoseShareCompletesAWholeUnit(double rampFrom, int requests) {
        CircuitBreaker b = Breakers.breaker(policy(rampFrom, Duration.ZERO), ticker, 1);
        long close = closeAfterARound(b);
        ticker.at(close);
        ShareSum spec = new ShareSum(rampFrom, R);
        List<Boolean> expected = new ArrayList<>();
        List<Boolean> actual = new ArrayList<>();
        for (int i = 0; i < requests; i++) {
            expected.add(spec.request(0));
            actual.add(b.tryAcquire().granted());
        }
        assertEquals(spec.sum().longValueExact(), spec.admitted(), "the shares sum to a whole number");
        assertEquals(expected, actual);
    }

    /** The same defect halfway through a ramp: s0 = 0.1, 2.5 s into 10 s, the share is 0.325; 40 requests sum to 13. */
    @Test
    void rampAdmitsThirteenOfFortyRequestsAtAShareOf0325() {
        CircuitBreaker b = Breakers.breaker(policy(0.1, Duration.ZERO), ticker, 1);
        long close = closeAfterARound(b);
        ticker.at(close + R / 4);
        int admitted = 0;
        for (int i = 0; i < 40; i++) {
            if (b.tryAcquire().granted()) {
                admitted++;
            }
        }
        assertEquals(13, admitted, "40 * 0.325 = 13");
    }

    /**
     * A trip during the ramp (2 failures of admitted calls, window of 2) opens the breaker; the
     * next cooldown follows rule 14. The breaker had 2 consecutive openings when it closed at 3 s;
     * the trip is at 8 s, 5 s into the ramp. Calm period 0: the count started over at the close,
     * so the first cooldown (1 s). Longer than 5 s: it continues, the 3rd opening (4 s). Exactly
     * 5 s: the calm period has passed (the ramp is part of it), 1 s.
     */
    @ParameterizedTest(name = "calm period {0} ns -> cooldown {1} ns")
    @CsvSource({"0, 1000000000", "20000000000, 4000000000", "5000000000, 1000000000", "5000000001, 4000000000"})
    void tripDuringTheRampOpensWithRule14sCooldown(long calmNanos, long expectedCooldown) {
        CircuitBreaker b = Breakers.breaker(policy(0.1, Duration.ofNanos(calmNanos)), ticker, 2);
        failAt(b, ticker, 0);
        failAt(b, ticker, 0);
        Permit probe = openExactly(b, ticker, 0, SECOND);
        probe.onFailure(0, new IllegalStateException("down"));
        openExactly(b, ticker, SECOND, 2 * SECOND).onSuccess(0); // CLOSED at 3 s, ramping
        assertEquals(State.CLOSED, b.state());

        ticker.at(8 * SECOND); // share 0.55: the 2nd and 4th requests are admitted
        assertFalse(b.tryAcquire().granted());
        Permit first = b.tryAcquire();
        assertTrue(first.granted());
        first.onFailure(0, new IllegalStateException("down"));
        assertEquals(State.CLOSED, b.state(), "one failure of two");
        assertEquals(1, b.metrics().failedCalls(), "the admitted call's outcome is in the new window");
        assertFalse(b.tryAcquire().granted());
        Permit second = b.tryAcquire();
        assertTrue(second.granted());
        second.onFailure(0, new IllegalStateException("down"));
        assertEquals(State.OPEN, b.state(), "the trip during the ramp opens the breaker");

        probe = openExactly(b, ticker, 8 * SECOND, expectedCooldown);
        probe.onSuccess(0);
        long close = 8 * SECOND + expectedCooldown;
        // a new ramp, with a new credit: the 10th request at the close is the first admitted
        ticker.at(close);
        for (int i = 1; i <= 9; i++) {
            assertFalse(b.tryAcquire().granted(), "request " + i + " of the new ramp");
        }
        assertTrue(b.tryAcquire().granted(), "request 10 of the new ramp");
    }

    /** The ramp starts when the breaker enters CLOSED (the probe's report), not when the probe was granted. */
    @Test
    void rampRunsFromTheClose() {
        CircuitBreaker b = Breakers.breaker(policy(0.1, Duration.ZERO), ticker, 1);
        failAt(b, ticker, 0);
        Permit probe = openExactly(b, ticker, 0, SECOND);
        ticker.at(3 * SECOND);
        probe.onSuccess(2 * SECOND); // CLOSED at 3 s
        ticker.at(SECOND + R); // 10 s after the grant, 8 s after the close: share 0.82
        CallNotPermittedException e =
                assertThrows(CallNotPermittedException.class, () -> b.get(() -> "ok"), "0.82: the first is shed");
        assertEquals(2 * SECOND, e.retryAfterNanos(), "2 s of the ramp left");
        assertEquals("ok", b.get(() -> "ok"));
        ticker.at(3 * SECOND + R);
        for (int i = 0; i < 100; i++) {
            assertEquals("ok", b.get(() -> "ok"), "R after the close");
        }
    }

    /** rampFrom 1: every share is 1, every request is admitted during the ramp. */
    @Test
    void rampFromOneAdmitsEverything() {
        CircuitBreaker b = Breakers.breaker(policy(1.0, Duration.ZERO), ticker, 1);
        long close = closeAfterARound(b);
        long rejected = b.metrics().rejectedCalls();
        for (long elapsed : new long[] {0, 1, R / 2, R - 1}) {
            ticker.at(close + elapsed);
            for (int i = 0; i < 1000; i++) {
                assertEquals("ok", b.get(() -> "ok"));
            }
        }
        assertEquals(rejected, b.metrics().rejectedCalls());
    }

    /** rampUp 0 (the default): no ramp at all, whatever rampFrom says. */
    @Test
    void zeroRampUpNeverRamps() {
        HalfOpenPolicy noRamp = ExponentialPolicy.builder()
                .initial(Duration.ofSeconds(1))
                .rampFrom(0.1)
                .build();
        assertEquals(0, noRamp.rampUpNanos());
        CircuitBreaker b = Breakers.breaker(noRamp, ticker, 1);
        long close = closeAfterARound(b);
        long rejected = b.metrics().rejectedCalls();
        ticker.at(close);
        for (int i = 0; i < 1000; i++) {
            assertTrue(b.tryAcquire().granted());
        }
        assertEquals(rejected, b.metrics().rejectedCalls());
    }

    /** A breaker that was never opened does not ramp: not at the start, nor after reset(). */
    @Test
    void noRampWithoutAHalfOpenClose() {
        CircuitBreaker b = Breakers.breaker(policy(0.1, Duration.ZERO), ticker, 1);
        ticker.at(0);
        for (int i = 0; i < 100; i++) {
            assertEquals("ok", b.get(() -> "ok"), "initial CLOSED state");
        }
        failAt(b, ticker, SECOND);
        ticker.at(SECOND + 1);
        b.reset(); // from OPEN
        for (int i = 0; i < 100; i++) {
            assertEquals("ok", b.get(() -> "ok"), "CLOSED by reset() from OPEN");
        }
        failAt(b, ticker, 2 * SECOND);
        openExactly(b, ticker, 2 * SECOND, SECOND).onSuccess(0); // CLOSED at 3 s, ramping
        assertFalse(b.tryAcquire().granted(), "ramping");
        ticker.at(3 * SECOND + R / 2);
        b.reset(); // in the middle of the ramp
        for (int i = 0; i < 100; i++) {
            assertEquals("ok", b.get(() -> "ok"), "CLOSED by reset() during a ramp");
        }
        assertEquals(3 + 1, b.metrics().rejectedCalls(), "3 while OPEN, then the one ramp rejection");
    }

    // ---------------------------------------------------------------- helpers

    /** Initial 1 s, multiplier 2, max 1 min, probes 1, ramp-up 10 s from {@code rampFrom}. */
    private static HalfOpenPolicy policy(double rampFrom, Duration calmPeriod) {
        return ExponentialPolicy.builder()
                .initial(Duration.ofSeconds(1))
                .multiplier(2)
                .max(Duration.ofMinutes(1))
                .calmPeriod(calmPeriod)
                .rampUp(Duration.ofNanos(R))
                .rampFrom(rampFrom)
                .build();
    }

    /** Fail at 0, the probe at 1 s succeeds: CLOSED, ramping up, since 1 s. */
    private long closeAfterARound(CircuitBreaker b) {
        failAt(b, ticker, 0);
        openExactly(b, ticker, 0, SECOND).onSuccess(0);
        assertEquals(State.CLOSED, b.state());
        return SECOND;
    }
}
