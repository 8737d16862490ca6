package dev.breaker.window.time;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.breaker.Windows;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** On the plain class path the provider is found through META-INF/services. */
@Tag("class-path")
class ClassPathLayoutTests {

    @Test
    void foundByNameOnTheClassPath() {
        assertFalse(TimeWindow.class.getModule().isNamed());
        assertEquals(
                "time(length=PT5S, buckets=5, failureRateThreshold=0.5, slowCallRateThreshold=1.0,"
                        + " minimumCalls=100)",
                Windows.named("time", Map.of("length", "PT5S", "buckets", "5")).describe());
    }
}
