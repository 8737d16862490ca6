package dev.breaker.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.breaker.CircuitBreaker;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** On the plain class path the binder works as on the module path. */
@Tag("class-path")
class ClassPathLayoutTests {

    @Test
    void bindsOnTheClassPath() {
        assertFalse(BreakerMeterBinder.class.getModule().isNamed());
        MeterRegistry meters = new SimpleMeterRegistry();
        CircuitBreaker b = CircuitBreaker.builder("payments").build();
        new BreakerMeterBinder(b).bindTo(meters);
        b.run(() -> {});
        assertEquals(Meters.PER_BREAKER, meters.getMeters().size());
        assertEquals(1.0, Meters.calls(meters, "payments", "success"));
        assertEquals(1.0, Meters.state(meters, "payments", "closed"));
    }
}
