package dev.breaker.bench;

import dev.breaker.CircuitBreaker;
import dev.breaker.Windows;
import dev.breaker.spi.WindowFactory;
import dev.breaker.window.count.CountWindow;
import dev.breaker.window.time.TimeWindow;
import dev.failsafe.Failsafe;
import dev.failsafe.FailsafeExecutor;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig.SlidingWindowType;
import java.time.Duration;

/**
 * The breakers under test, configured to the same shapes in all three libraries:
 * <ul>
 * <li>{@code CONSECUTIVE}: 5 failures in a row (Resilience4j has no such window; a count window
 *     of 5 at a 100% failure rate is the same rule);</li>
 * <li>{@code COUNT_100}: 50% of the last 100 calls, at least 100 calls;</li>
 * <li>{@code TIME_10S}: 50% of the calls of the last 10 s (10 buckets where configurable), at
 *     least 100 calls.</li>
 * </ul>
 * An open breaker of any library has a cooldown of an hour, so it stays open for the run.
 */
public final class Subjects {

    /** The window shapes, as JMH parameter values. */
    public enum Shape {
        CONSECUTIVE,
        COUNT_100,
        TIME_10S
    }

    private static final Duration COOLDOWN = Duration.ofHours(1);

    private Subjects() {}

    static CircuitBreaker ours(Shape shape, boolean open) {
        return ours(shape, open, dev.breaker.Ticker.system());
    }

    static CircuitBreaker ours(Shape shape, boolean open, dev.breaker.Ticker ticker) {
        return ours(shape, open, ticker, null);
    }

    /** With a slow-call threshold (slow-call rate threshold: 100%, everyone's default). */
    static CircuitBreaker ours(Shape shape, boolean open, Duration slowCallThreshold) {
        return ours(shape, open, dev.breaker.Ticker.system(), slowCallThreshold);
    }

    private static CircuitBreaker ours(Shape shape, boolean open, dev.breaker.Ticker ticker, Duration slow) {
        dev.breaker.CircuitBreakerBuilder b = CircuitBreaker.builder("bench")
                .window(window(shape))
                .cooldown(COOLDOWN)
                .ticker(ticker);
        if (slow != null) {
            b.slowCallThreshold(slow);
        }
        CircuitBreaker breaker = b.build();
        if (open) {
            while (breaker.state() != dev.breaker.State.OPEN) {
                breaker.tryAcquire().onFailure(0, null);
            }
        }
        return breaker;
    }

    static WindowFactory window(Shape shape) {
        return switch (shape) {
            case CONSECUTIVE -> Windows.consecutiveFailures(5);
            case COUNT_100 ->
                CountWindow.builder()
                        .size(100)
                        .failureRateThreshold(0.5)
                        .minimumCalls(100)
                        .build();
            case TIME_10S ->
                TimeWindow.builder()
                        .length(Duration.ofSeconds(10))
                        .buckets(10)
                        .failureRateThreshold(0.5)
                        .minimumCalls(100)
                        .build();
        };
    }

    static io.github.resilience4j.circuitbreaker.CircuitBreaker resilience4j(Shape shape, boolean open) {
        return resilience4j(shape, open, null);
    }

    static io.github.resilience4j.circuitbreaker.CircuitBreaker resilience4j(Shape shape, boolean open, Duration slow) {
        CircuitBreakerConfig.Builder config = CircuitBreakerConfig.custom().waitDurationInOpenState(COOLDOWN);
        if (slow != null) {
            config.slowCallDurationThreshold(slow).slowCallRateThreshold(100);
        }
        switch (shape) {
            case CONSECUTIVE ->
                config.slidingWindowType(SlidingWindowType.COUNT_BASED)
                        .slidingWindowSize(5)
                        .minimumNumberOfCalls(5)
                        .failureRateThreshold(100);
            case COUNT_100 ->
                config.slidingWindowType(SlidingWindowType.COUNT_BASED)
                        .slidingWindowSize(100)
                        .minimumNumberOfCalls(100)
                        .failureRateThreshold(50);
            case TIME_10S ->
                config.slidingWindowType(SlidingWindowType.TIME_BASED)
                        .slidingWindowSize(10)
                        .minimumNumberOfCalls(100)
                        .failureRateThreshold(50);
        }
        io.github.resilience4j.circuitbreaker.CircuitBreaker breaker =
                io.github.resilience4j.circuitbreaker.CircuitBreaker.of("bench", config.build());
        if (open) {
            breaker.transitionToOpenState();
        }
        return breaker;
    }

    static dev.failsafe.CircuitBreaker<Object> failsafe(Shape shape, boolean open) {
        var builder = dev.failsafe.CircuitBreaker.builder().withDelay(COOLDOWN);
        switch (shape) {
            case CONSECUTIVE -> builder.withFailureThreshold(5);
            case COUNT_100 -> builder.withFailureThreshold(50, 100);
            case TIME_10S -> builder.withFailureRateThreshold(50, 100, Duration.ofSeconds(10));
        }
        dev.failsafe.CircuitBreaker<Object> breaker = builder.build();
        if (open) {
            breaker.open();
        }
        return breaker;
    }

    static FailsafeExecutor<Object> failsafeExecutor(dev.failsafe.CircuitBreaker<Object> breaker) {
        return Failsafe.with(breaker);
    }

    /** One successful call through the permit API: what the closed-path rows measure for us. */
    static boolean succeed(CircuitBreaker breaker) {
        dev.breaker.Permit permit = breaker.tryAcquire();
        if (permit.granted()) {
            permit.onSuccess(0);
            return true;
        }
        return false;
    }

    /** The same through Resilience4j's permission API. */
    static boolean succeed(io.github.resilience4j.circuitbreaker.CircuitBreaker breaker) {
        if (breaker.tryAcquirePermission()) {
            breaker.onSuccess(0, java.util.concurrent.TimeUnit.NANOSECONDS);
            return true;
        }
        return false;
    }
}
