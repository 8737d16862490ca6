package dev.breaker.events;

import static dev.breaker.testsupport.Allocations.CALLS;
import static dev.breaker.testsupport.Allocations.ROUNDS;
import static dev.breaker.testsupport.Allocations.bytesPerCall;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breaker.CircuitBreaker;
import dev.breaker.State;
import dev.breaker.Windows;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The logger adds no allocation to a rejection once its breaker's record exists: measured with the
 * JVM's per-thread allocation counter after a warm-up, over many calls, as breaker-api's
 * AllocationTests measure the breaker (a single object per call would show as at least 16 bytes per
 * call). Runs in the class-path execution, where {@code com.sun.management} is readable.
 */
@Tag("class-path")
class LoggerAllocationTests {

    @Test
    void anObservedRejectionAllocatesNothing() {
        CapturedLog captured = new CapturedLog();
        Slf4jEventLogger log = Slf4jEventLogger.builder().logger(captured).build();
        CircuitBreaker b = CircuitBreaker.builder("alloc")
                .window(Windows.consecutiveFailures(1))
                .cooldown(Duration.ofDays(1))
                .listener(log)
                .observer(log)
                .build();
        b.tryAcquire().onFailure(0, null);
        double perCall = bytesPerCall(() -> b.tryAcquire().granted());
        assertTrue(perCall < 0.05, "bytes per observed rejection: " + perCall);
        assertEquals((1L + ROUNDS) * CALLS, captured.summarised() + log.pendingRejections("alloc"));
    }

    @Test
    void countingARejectionAllocatesNothingInAnyState() {
        Slf4jEventLogger log = Slf4jEventLogger.builder()
                .logger(new CapturedLog())
                .ticker(new ManualTicker(0))
                .build();
        CircuitBreaker b = CircuitBreaker.builder("alloc").build();
        State[] states = State.values();
        int[] i = {0};
        double perCall = bytesPerCall(() -> log.onRejected(b, states[i[0]++ & 3]));
        assertTrue(perCall < 0.05, "bytes per counted rejection: " + perCall);
    }

    @Test
    void aJfrRecorderWithNoRecordingAllocatesNothingPerEvent() {
        JfrEventRecorder jfr = JfrEventRecorder.create();
        dev.breaker.StateTransition t = new dev.breaker.StateTransition(
                "alloc", State.CLOSED, State.OPEN, 1, dev.breaker.TransitionReason.WINDOW_TRIPPED, 0);
        double perCall = bytesPerCall(() -> jfr.onEvent(t));
        assertTrue(perCall < 0.05, "bytes per event with no recording: " + perCall);
    }
}
