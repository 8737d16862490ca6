package dev.breaker.halfopen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.breaker.HalfOpenPolicies;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** On the plain class path the provider is found through META-INF/services. */
@Tag("class-path")
class ClassPathLayoutTests {

    @Test
    void foundByNameOnTheClassPath() {
        assertFalse(ExponentialPolicy.class.getModule().isNamed());
        assertEquals(
                "exponential(initial=PT1S, multiplier=2.0, max=PT4S, probes=1)",
                HalfOpenPolicies.named("exponential", Map.of("initial", "1s", "max", "PT4S"))
                        .toString());
    }
}
