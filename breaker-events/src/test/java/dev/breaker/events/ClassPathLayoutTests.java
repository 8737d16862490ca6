package dev.breaker.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breaker.CircuitBreaker;
import dev.breaker.StateTransition;
import dev.breaker.Windows;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** On the plain class path: SLF4J finds slf4j-simple, JFR records the package-private events, the bus delivers. */
@Tag("class-path")
class ClassPathLayoutTests {

    @Test
    void logsThroughSlf4jOnTheClassPath() {
        assertFalse(Slf4jEventLogger.class.getModule().isNamed());
        String out;
        try (StdoutCapture capture = new StdoutCapture()) {
            Slf4jSimpleOutputTests.tripAndReportLate(Slf4jEventLogger.create());
            out = capture.text();
        }
        assertTrue(out.startsWith(Slf4jSimpleOutputTests.TRIP + "\n"), out);
    }

    @Test
    void jfrRecordsThePackagePrivateEventsOnTheClassPath() throws Exception {
        assertFalse(JfrEventRecorder.class.getModule().isNamed());
        JfrRecordingTests.recordsATransition();
    }

    @Test
    void theBusDeliversOnTheClassPath() throws Exception {
        assertFalse(EventBus.class.getModule().isNamed());
        List<String> seen = new CopyOnWriteArrayList<>();
        try (EventBus bus = EventBus.async()) {
            bus.subscribe(StateTransition.class, t -> seen.add(t.breakerName() + " " + t.to()));
            CircuitBreaker b = CircuitBreaker.builder("cp")
                    .window(Windows.consecutiveFailures(1))
                    .listener(bus)
                    .build();
            b.tryAcquire().onFailure(0, null);
        }
        assertEquals(List.of("cp OPEN"), seen);
    }
}
