package dev.breaker.halfopen;

import static dev.breaker.halfopen.Breakers.failAt;
import static dev.breaker.halfopen.Breakers.rejectedAt;
import static dev.breaker.halfopen.ManualTicker.MILLI;
import static dev.breaker.halfopen.ManualTicker.SECOND;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breaker.CallNotPermittedException;
import dev.breaker.CircuitBreaker;
import dev.breaker.Permit;
import dev.breaker.State;
import dev.breaker.spi.HalfOpenPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The SPEC's "Exponential cooldown" worked example, exactly (initial 1 s, multiplier 2, max 4 s,
 * probes 1, consecutive window of 1): fail at 0 -> OPEN until 1 s; the probe at 1 s fails -> OPEN
 * until 3 s; at 3 s fails -> until 7 s; at 7 s fails -> until 11 s (capped at 4 s); the probe at 11
 * s succeeds -> CLOSED; a failure at 12 s -> OPEN until 13 s. Each test also runs with the ticker
 * starting 2 s before {@code Long.MAX_VALUE}, so that it wraps during the example, and at -7.
 */
class ExponentialWorkedExampleTests {

    private static final long NEAR_WRAP = Long.MAX_VALUE - 2 * SECOND;

    private static HalfOpenPolicy policy() {
        return ExponentialPolicy.builder()
                .initial(Duration.ofSeconds(1))
                .multiplier(2)
                .max(Duration.ofSeconds(4))
                .probes(1)
                .build();
    }

    /** The example in the replay notation: each call asks at t and reports at the same t. */
    @ParameterizedTest
    @ValueSource(longs = {0L, NEAR_WRAP, -7L})
    void replayGivesTheExamplesOutputs(long start) {
        ManualTicker ticker = new ManualTicker(start);
        CircuitBreaker b = Breakers.breaker(policy(), ticker, 1);
        long[] times = {0, 999, 1000, 2999, 3000, 6999, 7000, 10_999, 11_000, 12_000, 12_999, 13_000};
        boolean[] ok = {false, true, false, true, false, true, false, true, true, false, true, true};
        List<String> out = new ArrayList<>();
        for (int i = 0; i < times.length; i++) {
            ticker.at(times[i] * MILLI);
            Permit p = b.tryAcquire();
            if (!p.granted()) {
                out.add("rejected");
            } else if (ok[i]) {
                p.onSuccess(0);
                out.add("ok");
            } else {
                p.onFailure(0, new IllegalStateException("down"));
                out.add("fail");
            }
        }
        assertEquals(
                List.of(
                        "fail",
                        "rejected",
                        "fail",
                        "rejected",
                        "fail",
                        "rejected",
                        "fail",
                        "rejected",
                        "ok",
                        "fail",
                        "rejected",
                        "ok"),
                out);
        assertEquals(State.CLOSED, b.state());
        assertEquals(5, b.metrics().rejectedCalls());
    }

    /** State, grant and rejection just before and at each cooldown's end, with the exact retry-after. */
    @ParameterizedTest
    @ValueSource(longs = {0L, NEAR_WRAP, -7L})
    void eachCooldownEndsExactlyWhereTheExampleSays(long start) {
        ManualTicker ticker = new ManualTicker(start);
        CircuitBreaker b = Breakers.breaker(policy(), ticker, 1);
        long rejections = 0;

        failAt(b, ticker, 0);
        assertEquals(State.OPEN, b.state(), "fail at 0 -> OPEN");

        // OPEN until 1 s
        CallNotPermittedException e = rejectedAt(b, ticker, 0);
        assertEquals(State.OPEN, e.state());
        assertEquals(SECOND, e.retryAfterNanos(), "at once: the whole first cooldown, 1 s");
        e = rejectedAt(b, ticker, 999 * MILLI);
        assertEquals(MILLI, e.retryAfterNanos(), "at 0.999 s: 1 ms left");
        e = rejectedAt(b, ticker, SECOND - 1);
        assertEquals(1, e.retryAfterNanos());
        assertEquals(State.OPEN, b.state());
        rejections += 3;
        probeFailsAt(b, ticker, SECOND);

        // OPEN until 3 s (2 s)
        e = rejectedAt(b, ticker, SECOND);
        assertEquals(2 * SECOND, e.retryAfterNanos(), "the failed probe at 1 s restarts a cooldown of 2 s");
        e = rejectedAt(b, ticker, 2999 * MILLI);
        assertEquals(MILLI, e.retryAfterNanos());
        e = rejectedAt(b, ticker, 3 * SECOND - 1);
        assertEquals(1, e.retryAfterNanos());
        rejections += 3;
        probeFailsAt(b, ticker, 3 * SECOND);

        // OPEN until 7 s (4 s)
        e = rejectedAt(b, ticker, 3 * SECOND);
        assertEquals(4 * SECOND, e.retryAfterNanos());
        e = rejectedAt(b, ticker, 5 * SECOND);
        assertEquals(2 * SECOND, e.retryAfterNanos());
        e = rejectedAt(b, ticker, 7 * SECOND - 1);
        assertEquals(1, e.retryAfterNanos());
        rejections += 3;
        probeFailsAt(b, ticker, 7 * SECOND);

        // OPEN until 11 s (8 s capped at 4 s)
        e = rejectedAt(b, ticker, 7 * SECOND);
        assertEquals(4 * SECOND, e.retryAfterNanos(), "capped at max = 4 s, not 8 s");
        e = rejectedAt(b, ticker, 10_999 * MILLI);
        assertEquals(MILLI, e.retryAfterNanos());
        e = rejectedAt(b, ticker, 11 * SECOND - 1);
        assertEquals(1, e.retryAfterNanos());
        rejections += 3;

        // the probe at 11 s succeeds -> CLOSED
        ticker.at(11 * SECOND);
        Permit probe = b.tryAcquire();
        assertTrue(probe.granted());
        assertTrue(probe.isProbe());
        assertEquals(State.HALF_OPEN, b.state());
        assertFalse(b.tryAcquire().granted(), "probes 1: a second request in the round is rejected");
        rejections++;
        probe.onSuccess(0);
        assertEquals(State.CLOSED, b.state());
        assertEquals("ok", b.get(() -> "ok"), "CLOSED: calls pass");

        // a failure at 12 s -> OPEN until 13 s: the count started over
        failAt(b, ticker, 12 * SECOND);
        assertEquals(State.OPEN, b.state());
        e = rejectedAt(b, ticker, 12 * SECOND);
        assertEquals(SECOND, e.retryAfterNanos(), "the first cooldown again, 1 s");
        e = rejectedAt(b, ticker, 12_999 * MILLI);
        assertEquals(MILLI, e.retryAfterNanos());
        e = rejectedAt(b, ticker, 13 * SECOND - 1);
        assertEquals(1, e.retryAfterNanos());
        rejections += 3;
        ticker.at(13 * SECOND);
        assertEquals("ok", b.get(() -> "ok"), "the probe at 13 s");
        assertEquals(State.CLOSED, b.state());

        assertEquals(rejections, b.metrics().rejectedCalls());
    }

    /** At {@code time}: the request is the round's probe (HALF_OPEN), it fails, the breaker is OPEN again. */
    private static void probeFailsAt(CircuitBreaker b, ManualTicker ticker, long time) {
        ticker.at(time);
        Permit probe = b.tryAcquire();
        assertTrue(probe.granted(), () -> "the probe at " + time + " ns");
        assertTrue(probe.isProbe());
        assertEquals(State.HALF_OPEN, b.state());
        probe.onFailure(0, new IllegalStateException("still down"));
        assertEquals(State.OPEN, b.state());
    }
}
