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
 * Other sizes, outside the default runs and the footprint table ({@link #MEASURED}), check that
 * the design is not tuned to one size: {@code COUNT_50} (at least 50 calls), {@code COUNT_1000}
 * and {@code TIME_60S} (60 buckets of 1 s), the last two with at least 100 calls; pass them with
 * {@code -p shape=...}.
 * An open breaker of any library has a cooldown of an hour, so it stays open for the run.
 */
public final class Subjects {

    /** The window shapes, as JMH parameter values. */
    public enum Shape {
        CONSECUTIVE,
        COUNT_100,
        TIME_10S,
        COUNT_50,
        COUNT_1000,
        TIME_60S
    }

    /** The shapes of the default runs and of the footprint table. */
    static final java.util.List<Shape> MEASURED = java.util.List.of(Shape.CONSECUTIVE, Shape.COUNT_100, Shape.TIME_10S);

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
            case COUNT_100 -> countWindow(100, 100);
            case COUNT_50 -> countWindow(50, 50);
            case COUNT_1000 -> countWindow(1000, 100);
            case TIME_10S -> timeWindow(10);
            case TIME_60S -> timeWindow(60);
        };
    }

    private static WindowFactory countWindow(int size, int minimumCalls) {
        return CountWindow.builder()
                .size(size)
                .failureRateThreshold(0.5)
                .minimumCalls(minimumCalls)
                .build();
    }

    /** A time window of this many 1 s buckets, at least 100 calls. */
    private static WindowFactory timeWindow(int seconds) {
        return TimeWindow.builder()
                .length(Duration.ofSeconds(seconds))
                .buckets(seconds)
                .failureRateThreshold(0.5)
                .minimumCalls(100)
                .build();
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
            case COUNT_100 -> countBased(config, 100, 100);
            case COUNT_50 -> countBased(config, 50, 50);
            case COUNT_1000 -> countBased(config, 1000, 100);
            case TIME_10S -> timeBased(config, 10);
            case TIME_60S -> timeBased(config, 60);
        }
        io.github.resilience4j.circuitbreaker.CircuitBreaker breaker =
                io.github.resilience4j.circuitbreaker.CircuitBreaker.of("bench", config.build());
        if (open) {
            breaker.transitionToOpenState();
        }
        return breaker;
    }

    private static void countBased(CircuitBreakerConfig.Builder config, int size, int minimumCalls) {
        config.slidingWindowType(SlidingWindowType.COUNT_BASED)
                .slidingWindowSize(size)
                .minimumNumberOfCalls(minimumCalls)
                .failureRateThreshold(50);
    }

    private static void timeBased(CircuitBreakerConfig.Builder config, int seconds) {
        config.slidingWindowType(SlidingWindowType.TIME_BASED)
                .slidingWindowSize(seconds)
                .minimumNumberOfCalls(100)
                .failureRateThreshold(50);
    }

    static dev.failsafe.CircuitBreaker<Object> failsafe(Shape shape, boolean open) {
        var builder = dev.failsafe.CircuitBreaker.builder().withDelay(COOLDOWN);
        switch (shape) {
            case CONSECUTIVE -> builder.withFailureThreshold(5);
            case COUNT_100 -> builder.withFailureThreshold(50, 100);
            case COUNT_50 -> builder.withFailureThreshold(25, 50);
            case COUNT_1000 -> builder.withFailureThreshold(500, 1000);
            case TIME_10S -> builder.withFailureRateThreshold(50, 100, Duration.ofSeconds(10));
            case TIME_60S -> builder.withFailureRateThreshold(50, 100, Duration.ofSeconds(60));
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
