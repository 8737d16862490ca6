package dev.breaker;

import java.time.Duration;

/**
 * An exception that says how long the dependency asked to be left alone: an HTTP 429 or 503 with
 * {@code Retry-After}, a rate-limit error carrying a delay (SPEC rule 19). When a call fails with
 * one (also under a future or stage wrapper), the default classifier asks the breaker to back
 * off: it opens at once for that delay, capped by {@link CircuitBreakerConfig#backOffMax()}, and
 * then probes as usual. A delay of zero or less is an ordinary failure.
 *
 * <pre>{@code
 * final class TooManyRequests extends IOException implements RetryAfter {
 *     private final Duration wait;
 *     TooManyRequests(Duration wait) { this.wait = wait; }
 *     public Duration retryAfter() { return wait; }
 * }
 * }</pre>
 */
public interface RetryAfter {

    /**
     * How long the dependency asked to be left alone.
     *
     * @return the delay; null, zero or negative for none
     */
    Duration retryAfter();
}
