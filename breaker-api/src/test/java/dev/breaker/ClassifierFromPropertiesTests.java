package dev.breaker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Declarative classification written in properties, as a service's configuration file holds it. */
class ClassifierFromPropertiesTests {

    @Test
    void exceptionListsAreReadFromPropertiesInEitherSpelling() {
        BreakerRegistry r = BreakerRegistry.fromProperties(Map.of(
                "breaker.defaults.window.threshold", "1",
                "breaker.defaults.classifier.type", "exceptions",
                "breaker.defaults.classifier.record-exceptions", "java.io.IOException",
                "breaker.instances.files.classifier.ignoreExceptions", "java.io.FileNotFoundException"));
        CircuitBreaker files = r.breaker("files");
        assertThrows(
                FileNotFoundException.class,
                () -> files.call(() -> {
                    throw new FileNotFoundException("no such file");
                }));
        assertEquals(State.CLOSED, files.state(), "ignored");
        assertEquals(1, files.metrics().totalIgnored());
        assertThrows(
                IllegalStateException.class,
                () -> files.get(() -> {
                    throw new IllegalStateException("not recorded");
                }));
        assertEquals(State.CLOSED, files.state(), "not in the record list: a success");
        assertThrows(
                IOException.class,
                () -> files.call(() -> {
                    throw new IOException("down");
                }));
        assertEquals(State.OPEN, files.state(), "recorded: trips a window of 1");
        CircuitBreaker other = r.breaker("other");
        assertThrows(
                FileNotFoundException.class,
                () -> other.call(() -> {
                    throw new FileNotFoundException("no such file");
                }));
        assertEquals(State.OPEN, other.state(), "without the instance's ignore list, a recorded IOException");
    }

    @Test
    void anUnknownClassNamesTheWholeKey() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> BreakerRegistry.fromProperties(Map.of(
                        "breaker.defaults.classifier.type", "exceptions",
                        "breaker.defaults.classifier.record-exceptions", "java.io.NoSuchException")));
        assertTrue(
                e.getMessage().startsWith("breaker.defaults.classifier.record-exceptions: ")
                        && e.getMessage().contains("java.io.NoSuchException"),
                e.getMessage());
    }
}
