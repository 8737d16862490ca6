package dev.breaker.events;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.breaker.CircuitBreaker;
import dev.breaker.LateResult;
import dev.breaker.Permit;
import dev.breaker.Windows;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Through the real binding: slf4j-simple (test resources: {@code System.out}, DEBUG, no thread
 * name) prints level, logger name and message, read back from a swapped {@code System.out}.
 */
class Slf4jSimpleOutputTests {

    static final String TRIP =
            "WARN dev.breaker.events - breaker 'stdout' CLOSED -> OPEN (WINDOW_TRIPPED, generation 1):"
                    + " 1 call, failure rate 100.0%, slow-call rate 0.0%";

    /** Trips a breaker that logs through {@code logger}, and reports one late result. */
    static void tripAndReportLate(Slf4jEventLogger logger) {
        CircuitBreaker b = CircuitBreaker.builder("stdout")
                .window(Windows.consecutiveFailures(1))
                .cooldown(Duration.ofDays(1))
                .ticker(new ManualTicker(0))
                .listener(logger)
                .observer(logger)
                .eventExecutor(Runnable::run)
                .build();
        Permit early = b.tryAcquire();
        b.tryAcquire().onFailure(0, null);
        early.onSuccess(0);
    }

    @Test
    void createWritesToLoggerDevBreakerEventsAtTheLevelsDocumented() {
        String out;
        try (StdoutCapture capture = new StdoutCapture()) {
            tripAndReportLate(Slf4jEventLogger.create());
            out = capture.text();
        }
        assertEquals(
                TRIP + "\n" + "DEBUG dev.breaker.events - breaker 'stdout' late result: a permit of generation 0"
                        + " reported in generation 1; it decided nothing\n",
                out);
    }

    @Test
    void aNamedLoggerIsUsed() {
        String out;
        try (StdoutCapture capture = new StdoutCapture()) {
            Slf4jEventLogger.builder().loggerName("ops.breakers").build().onEvent(new LateResult("x", 1, 2));
            out = capture.text();
        }
        assertEquals(
                "DEBUG ops.breakers - breaker 'x' late result: a permit of generation 1 reported in generation 2;"
                        + " it decided nothing\n",
                out);
    }
}
