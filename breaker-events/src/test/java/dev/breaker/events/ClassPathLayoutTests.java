package dev.breaker.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.breaker.CircuitBreaker;
import dev.breaker.StateTransition;
import dev.breaker.Windows;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** On the plain class path the bus works as on the module path. */
@Tag("class-path")
class ClassPathLayoutTests {

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
