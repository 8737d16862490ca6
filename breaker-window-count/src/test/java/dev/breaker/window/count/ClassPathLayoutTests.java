package dev.breaker.window.count;

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
        assertFalse(CountWindow.class.getModule().isNamed());
        assertEquals(
                "count(size=8, failureRateThreshold=0.5, slowCallRateThreshold=1.0, minimumCalls=8)",
                Windows.named("count", Map.of("size", "8")).describe());
    }
}
