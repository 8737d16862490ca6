package dev.breaker.halfopen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breaker.CallNotPermittedException;
import dev.breaker.CircuitBreaker;
import dev.breaker.Permit;
import dev.breaker.State;
import dev.breaker.Windows;
import dev.breaker.spi.HalfOpenPolicy;

/** Small steps the rule tests share: a breaker on a manual ticker, and calls at given times. */
final class Breakers {

    private Breakers() {}

    /** A breaker with the consecutive window of {@code threshold}, the policy and the ticker. */
    static CircuitBreaker breaker(HalfOpenPolicy policy, ManualTicker ticker, int threshold) {
        return CircuitBreaker.builder("dependency")
                .window(Windows.consecutiveFailures(threshold))
                .halfOpen(policy)
                .ticker(ticker)
                .build();
    }

    /** At {@code time}: a permit is granted and reports a failure at once. */
    static void failAt(CircuitBreaker b, ManualTicker ticker, long time) {
        ticker.at(time);
        Permit p = b.tryAcquire();
        assertTrue(p.granted(), () -> "a permit at " + time + " ns, breaker " + b);
        p.onFailure(0, new IllegalStateException("down"));
    }

    /** At {@code time}: a permit is granted and reports a success at once. */
    static void succeedAt(CircuitBreaker b, ManualTicker ticker, long time) {
        ticker.at(time);
        Permit p = b.tryAcquire();
        assertTrue(p.granted(), () -> "a permit at " + time + " ns, breaker " + b);
        p.onSuccess(0);
    }

    /** At {@code time}: a call is rejected without being made; the exception it threw. */
    static CallNotPermittedException rejectedAt(CircuitBreaker b, ManualTicker ticker, long time) {
        ticker.at(time);
        return assertThrows(
                CallNotPermittedException.class,
                () -> b.get(() -> {
                    throw new AssertionError("a rejected call must not be made");
                }),
                () -> "rejected at " + time + " ns");
    }

    /**
     * OPEN since {@code openedAt} for exactly {@code cooldown}: rejected halfway and 1 ns before
     * the end (each rejection saying how long is left), then the request at the end is the
     * probe; the probe's permit is returned, the breaker HALF_OPEN.
     */
    static Permit openExactly(CircuitBreaker b, ManualTicker ticker, long openedAt, long cooldown) {
        assertOpenUntil(b, ticker, openedAt, cooldown);
        ticker.at(openedAt + cooldown);
        Permit probe = b.tryAcquire();
        assertTrue(probe.granted(), () -> "the probe at the end of a cooldown of " + cooldown + " ns");
        assertTrue(probe.isProbe());
        assertEquals(State.HALF_OPEN, b.state());
        return probe;
    }

    /**
     * OPEN since {@code openedAt} for {@code cooldown}: rejected halfway and 1 ns before the end,
     * each rejection saying how long is left. Leaves the ticker 1 ns before the end.
     */
    static void assertOpenUntil(CircuitBreaker b, ManualTicker ticker, long openedAt, long cooldown) {
        assertEquals(State.OPEN, b.state(), "OPEN at " + openedAt);
        if (cooldown > 0) {
            CallNotPermittedException half = rejectedAt(b, ticker, openedAt + cooldown / 2);
            assertEquals(State.OPEN, half.state());
            assertEquals(cooldown - cooldown / 2, half.retryAfterNanos(), "the rest of the cooldown, halfway");
            CallNotPermittedException last = rejectedAt(b, ticker, openedAt + cooldown - 1);
            assertEquals(State.OPEN, last.state());
            assertEquals(1, last.retryAfterNanos(), "1 ns before the end of a cooldown of " + cooldown);
            assertFalse(b.tryAcquire().granted(), "tryAcquire agrees 1 ns before the end");
            assertEquals(State.OPEN, b.state(), "a rejection changes nothing");
        }
    }
}
