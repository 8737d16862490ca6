package dev.breaker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * {@link CircuitBreaker#retryAfterNanos()}: what is left of an OPEN breaker's cooldown, read
 * without a transition (a health check asks it; SPEC rule 1 leaves OPEN only on a request).
 */
class RetryAfterTests {

    private static final long COOLDOWN = Duration.ofMillis(10).toNanos();

    private final FakeTicker ticker = new FakeTicker(1_000);
    private final CircuitBreaker breaker = CircuitBreaker.builder("r")
            .window(Windows.consecutiveFailures(1))
            .cooldown(Duration.ofNanos(COOLDOWN))
            .ticker(ticker)
            .build();

    private static CircuitBreaker breaker(Ticker ticker) {
        return CircuitBreaker.builder("f")
                .window(Windows.consecutiveFailures(1))
                .cooldown(Duration.ofNanos(COOLDOWN))
                .ticker(ticker)
                .build();
    }

    private void trip() {
        breaker.tryAcquire().onFailure(0, new java.io.IOException("down"));
    }

    @Test
    void openCountsDownTheCooldownWithoutLeavingOpen() {
        assertEquals(0, breaker.retryAfterNanos(), "CLOSED admits");
        trip();
        assertEquals(COOLDOWN, breaker.retryAfterNanos());
        ticker.advance(4);
        assertEquals(COOLDOWN - 4, breaker.retryAfterNanos());
        ticker.advance(COOLDOWN - 5);
        assertEquals(1, breaker.retryAfterNanos());
        ticker.advance(1);
        assertEquals(0, breaker.retryAfterNanos(), "ready to probe");
        ticker.advance(COOLDOWN * 3);
        assertEquals(0, breaker.retryAfterNanos());
        assertEquals(State.OPEN, breaker.state(), "asking moved nothing");
        assertEquals(1, breaker.metrics().generation(), "no transition");
        Permit probe = breaker.tryAcquire();
        assertTrue(probe.isProbe());
        assertEquals(0, breaker.retryAfterNanos(), "HALF_OPEN");
    }

    @Test
    void isolatedAnswersMinusOneAndResetZero() {
        breaker.isolate();
        assertEquals(-1, breaker.retryAfterNanos());
        breaker.reset();
        assertEquals(0, breaker.retryAfterNanos());
    }

    @Test
    void aTickerThatSteppedBackOrFailedAtTheOpeningLeavesTheWholeCooldown() {
        trip();
        ticker.advance(-5);
        assertEquals(COOLDOWN, breaker.retryAfterNanos(), "a ticker that stepped back has not moved on");

        FlakyTicker flaky = new FlakyTicker();
        CircuitBreaker b = breaker(flaky);
        Permit p = b.tryAcquire();
        flaky.failNext(1);
        assertThrows(FlakyTicker.TickerBroke.class, () -> p.onFailure(0, null));
        assertEquals(State.OPEN, b.state());
        assertEquals(COOLDOWN, b.retryAfterNanos(), "the cooldown starts at the first good reading of a request");
    }

    @Test
    void aTickerThatFailsWhenAskedAnswersTheWholeCooldownAndThrowsNothing() {
        FlakyTicker flaky = new FlakyTicker();
        CircuitBreaker b = breaker(flaky);
        b.tryAcquire().onFailure(0, null);
        assertEquals(State.OPEN, b.state());
        flaky.failNext(1);
        assertEquals(COOLDOWN, b.retryAfterNanos(), "no time known to have passed");
        assertEquals(State.OPEN, b.state());
    }

    @Test
    void aTickerThatThrowsAnErrorOrACheckedExceptionAnswersTheWholeCooldownToo() {
        java.util.concurrent.atomic.AtomicReference<Throwable> next =
                new java.util.concurrent.atomic.AtomicReference<>();
        long[] now = {0};
        CircuitBreaker b = breaker(() -> {
            Throwable t = next.getAndSet(null);
            if (t != null) {
                throw RetryAfterTests.<RuntimeException>sneaky(t);
            }
            return now[0];
        });
        b.tryAcquire().onFailure(0, null);
        assertEquals(State.OPEN, b.state());
        now[0] = COOLDOWN / 2;
        for (Throwable t :
                new Throwable[] {new AssertionError("ticker bug"), new java.io.IOException("checked, thrown sneakily")
                }) {
            next.set(t);
            assertEquals(COOLDOWN, b.retryAfterNanos(), "no time known to have passed: " + t);
            assertEquals(State.OPEN, b.state());
        }
        assertEquals(COOLDOWN - COOLDOWN / 2, b.retryAfterNanos(), "a good reading counts again");
    }

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> T sneaky(Throwable t) throws T {
        throw (T) t;
    }

    @Test
    void anotherImplementationGetsMinusOneWhenIsolatedAndZeroOtherwise() {
        InvocationHandler forward = (proxy, method, args) -> method.isDefault()
                ? InvocationHandler.invokeDefault(proxy, method, args)
                : method.invoke(breaker, args);
        CircuitBreaker other = (CircuitBreaker) Proxy.newProxyInstance(
                CircuitBreaker.class.getClassLoader(), new Class<?>[] {CircuitBreaker.class}, forward);
        trip();
        assertEquals(0, other.retryAfterNanos(), "it cannot tell, and says so in its javadoc");
        breaker.isolate();
        assertEquals(-1, other.retryAfterNanos());
    }
}
