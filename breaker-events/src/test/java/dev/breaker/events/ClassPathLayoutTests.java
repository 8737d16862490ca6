package dev.breaker.events;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** On the plain class path: SLF4J finds slf4j-simple, and JFR records the package-private events. */
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
}
