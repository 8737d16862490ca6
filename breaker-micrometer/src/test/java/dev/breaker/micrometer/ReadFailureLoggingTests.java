package dev.breaker.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

/**
 * A breaker whose reading fails is logged once per breaker and meter registry (WARNING, logger
 * "dev.breaker.micrometer"), however many meters read it and however often.
 */
class ReadFailureLoggingTests {

    private static final String MESSAGE =
            "breaker 'stub': reading it for a meter failed; its meters read NaN while it fails (logged once)";

    @Test
    void aFailingReadIsLoggedOnceWithItsCause() throws ReflectiveOperationException {
        MeterRegistry meters = new SimpleMeterRegistry();
        StubBreaker b = new StubBreaker("stub");
        new BreakerMeterBinder(b).bindTo(meters);
        try (LogCapture log = new LogCapture("dev.breaker.micrometer")) {
            b.failure = new IllegalStateException("broken metrics");
            for (int scrape = 0; scrape < 3; scrape++) {
                assertTrue(Double.isNaN(Meters.state(meters, "stub", "open")));
                assertTrue(Double.isNaN(Meters.calls(meters, "stub", "late")));
                assertTrue(Double.isNaN(Meters.transitions(meters, "stub", "open", "half_open")));
            }
            String text = log.text();
            assertEquals(
                    1,
                    text.split(java.util.regex.Pattern.quote(MESSAGE), -1).length - 1,
                    "logged once, not once per read:\n" + text);
            assertTrue(text.contains("WARNING: " + MESSAGE), text);
            assertTrue(text.contains("java.lang.IllegalStateException: broken metrics"), text);
        }
    }

    @Test
    void aReadThatWorksLogsNothing() throws ReflectiveOperationException {
        MeterRegistry meters = new SimpleMeterRegistry();
        StubBreaker b = new StubBreaker("stub");
        new BreakerMeterBinder(b).bindTo(meters);
        try (LogCapture log = new LogCapture("dev.breaker.micrometer")) {
            assertEquals(1.0, Meters.state(meters, "stub", "closed"));
            assertEquals("", log.text());
        }
    }
}
