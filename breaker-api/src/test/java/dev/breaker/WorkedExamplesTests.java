package dev.breaker;

import static dev.breaker.Replay.MILLI;
import static dev.breaker.Replay.fail;
import static dev.breaker.Replay.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The SPEC's worked examples, exactly; each also run with a ticker about to wrap. */
class WorkedExamplesTests {

    private static final long NEAR_WRAP = Long.MAX_VALUE - 5 * MILLI;

    @ParameterizedTest
    @ValueSource(longs = {0L, NEAR_WRAP, -7L})
    void probeAfterCooldownThenClosed(long offset) {
        assertEquals(
                List.of("fail", "fail", "rejected", "ok", "ok"),
                Replay.run(2, 10, MILLI, offset, List.of(fail(0), fail(1), ok(2), ok(11), ok(12))));
    }

    @ParameterizedTest
    @ValueSource(longs = {0L, NEAR_WRAP, -7L})
    void cooldownBoundaryIsStrict(long offset) {
        assertEquals(
                List.of("fail", "rejected", "ok"),
                Replay.run(1, 10, MILLI, offset, List.of(fail(0), ok(9.999), ok(10))));
    }

    @ParameterizedTest
    @ValueSource(longs = {0L, NEAR_WRAP, -7L})
    void failedProbeRestartsCooldownFromItsOwnTime(long offset) {
        assertEquals(
                List.of("fail", "fail", "rejected", "ok"),
                Replay.run(1, 10, MILLI, offset, List.of(fail(0), fail(10), ok(15), ok(20))));
    }

    @ParameterizedTest
    @ValueSource(longs = {0L, NEAR_WRAP, -7L})
    void successBetweenFailuresPreventsTrip(long offset) {
        assertEquals(
                List.of("fail", "ok", "fail", "ok"),
                Replay.run(2, 10, MILLI, offset, List.of(fail(0), ok(1), fail(2), ok(3))));
    }

    @ParameterizedTest
    @ValueSource(longs = {0L, NEAR_WRAP, -7L})
    void rejectionsChangeNothing(long offset) {
        assertEquals(
                List.of("fail", "rejected", "rejected"),
                Replay.run(1, 100, MILLI, offset, List.of(fail(0), ok(50), ok(99))));
    }

    @ParameterizedTest
    @ValueSource(longs = {0L, NEAR_WRAP, -7L})
    void zeroCooldownProbesAtOnce(long offset) {
        assertEquals(List.of("fail", "ok", "ok"), Replay.run(1, 0, MILLI, offset, List.of(fail(0), ok(0), ok(0))));
    }

    @Test
    void emptyTraceGivesEmptyOutput() {
        assertEquals(List.of(), Replay.run(1, 10, MILLI, 0, List.of()));
    }

    /** Threshold 3, cooldown 60 ms, probes 2: the "several probes" example, success branch. */
    @Test
    void severalProbesCloseWhenBothSucceed() {
        FakeTicker ticker = new FakeTicker();
        CircuitBreaker b = severalProbes(ticker);
        threeFailuresAt(b, ticker, 0, 1, 2);
        assertEquals(State.OPEN, b.state());
        ticker.set(2 * MILLI + 60 * MILLI - 1);
        assertFalse(b.tryAcquire().granted(), "rejected until 60 ms after the third failure");
        ticker.set(2 * MILLI + 60 * MILLI);
        Permit first = b.tryAcquire();
        Permit second = b.tryAcquire();
        assertTrue(first.granted());
        assertTrue(second.granted());
        assertFalse(b.tryAcquire().granted(), "exactly 2 permits");
        assertEquals(State.HALF_OPEN, b.state());
        first.onSuccess(0);
        assertEquals(State.HALF_OPEN, b.state(), "one success of two does not close");
        second.onSuccess(0);
        assertEquals(State.CLOSED, b.state());
        assertTrue(b.tryAcquire().granted(), "the next calls pass");
    }

    /** The same example, failure branch: the first probe fails. */
    @Test
    void severalProbesReopenWhenFirstFails() {
        FakeTicker ticker = new FakeTicker();
        CircuitBreaker b = severalProbes(ticker);
        threeFailuresAt(b, ticker, 0, 1, 2);
        ticker.set(62 * MILLI);
        Permit first = b.tryAcquire();
        Permit second = b.tryAcquire();
        ticker.set(70 * MILLI);
        first.onFailure(0, new RuntimeException("still down"));
        assertEquals(State.OPEN, b.state());
        ticker.set(70 * MILLI + 60 * MILLI - 1);
        assertFalse(b.tryAcquire().granted(), "rejects until 60 ms after that failure");
        second.onSuccess(0);
        assertEquals(State.OPEN, b.state(), "the other probe of the failed round is late");
        assertEquals(1, b.metrics().lateResults());
        ticker.set(130 * MILLI);
        assertTrue(b.tryAcquire().granted());
        assertEquals(State.HALF_OPEN, b.state());
    }

    private static CircuitBreaker severalProbes(FakeTicker ticker) {
        return CircuitBreaker.builder("payments")
                .window(Windows.consecutiveFailures(3))
                .cooldown(Duration.ofMillis(60))
                .probes(2)
                .ticker(ticker)
                .build();
    }

    private static void threeFailuresAt(CircuitBreaker b, FakeTicker ticker, long... millis) {
        for (long ms : millis) {
            ticker.set(ms * MILLI);
            b.tryAcquire().onFailure(0, new RuntimeException("down"));
        }
    }
}
