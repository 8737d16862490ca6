package dev.breaker.spring;

import dev.breaker.BreakerMetrics;
import dev.breaker.CircuitBreaker;
import dev.breaker.State;
import java.util.concurrent.TimeUnit;

/**
 * One breaker as the {@code breakers} actuator endpoint shows it.
 *
 * @param name             the breaker's name
 * @param state            its state
 * @param retryAfterMillis while OPEN, what is left of the cooldown (0: the next request is a
 *                         probe); -1 while ISOLATED; 0 otherwise
 * @param readyToProbe     OPEN with its cooldown over: nothing but a request is missing to probe
 *                         the dependency (an OPEN breaker does not move by itself)
 * @param metrics          its counters and window figures
 * @param config           its settings, as {@code CircuitBreakerConfig} prints them
 */
public record BreakerReport(
        String name, State state, long retryAfterMillis, boolean readyToProbe, BreakerMetrics metrics, String config) {

    /**
     * Reads a breaker.
     *
     * @param breaker the breaker
     * @return what the endpoint shows of it
     */
    public static BreakerReport of(CircuitBreaker breaker) {
        BreakerMetrics metrics = breaker.metrics();
        long retryAfter = breaker.retryAfterNanos();
        long millis = retryAfter < 0 ? -1 : TimeUnit.NANOSECONDS.toMillis(retryAfter + 999_999); // rounded up
        return new BreakerReport(
                breaker.name(),
                metrics.state(),
                millis,
                metrics.state() == State.OPEN && retryAfter == 0,
                metrics,
                breaker.config().toString());
    }
}
