package dev.breaker.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every public type of {@code dev.breaker.spi} is either a promised SPI type (listed here and in
 * the package's javadoc) or marked {@link Helper}; a new type must choose.
 */
class StabilityTests {

    private static final Set<String> PROMISED = Set.of(
            "Window",
            "WindowFactory",
            "WindowCounts",
            "HalfOpenPolicy",
            "WindowProvider",
            "HalfOpenPolicyProvider",
            "FailureClassifierProvider",
            "Helper");
    private static final Set<String> HELPERS =
            Set.of("Settings", "RateThresholds", "RateWindowBuilder", "FailureStreak", "CombiningWindow");

    @Test
    void everyPublicTypeIsPromisedOrMarkedAsAHelper() throws IOException, ClassNotFoundException {
        Set<String> promised = new TreeSet<>();
        Set<String> helpers = new TreeSet<>();
        try (Stream<Path> files = Files.list(Path.of("target/classes/dev/breaker/spi"))) {
            for (Path f : (Iterable<Path>) files::iterator) {
                String file = f.getFileName().toString();
                if (!file.endsWith(".class") || file.contains("$") || file.equals("package-info.class")) {
                    continue;
                }
                String simple = file.substring(0, file.length() - ".class".length());
                Class<?> type = Class.forName("dev.breaker.spi." + simple);
                if (!Modifier.isPublic(type.getModifiers())) {
                    continue;
                }
                (type.isAnnotationPresent(Helper.class) ? helpers : promised).add(simple);
            }
        }
        assertEquals(new TreeSet<>(PROMISED), promised);
        assertEquals(new TreeSet<>(HELPERS), helpers);
    }
}
