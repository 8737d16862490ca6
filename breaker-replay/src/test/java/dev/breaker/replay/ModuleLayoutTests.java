package dev.breaker.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.module.ModuleDescriptor;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The descriptor of dev.breaker.replay, pinned; runs on the module path. */
class ModuleLayoutTests {

    private final ModuleDescriptor descriptor = Replay.class.getModule().getDescriptor();

    @Test
    void aToolThatExportsNothing() {
        assertTrue(Replay.class.getModule().isNamed());
        assertEquals("dev.breaker.replay", descriptor.name());
        assertEquals(Set.of(), descriptor.exports());
        assertEquals(Set.of(), descriptor.opens());
        assertEquals(Set.of(), descriptor.provides());
        assertEquals(Set.of(), descriptor.uses());
        assertEquals(Set.of("dev.breaker.replay"), descriptor.packages());
    }

    @Test
    void requiresTheApiTheHalfOpenPoliciesAndBothRateWindows() {
        assertEquals(
                Set.of(
                        "java.base",
                        "dev.breaker",
                        "dev.breaker.halfopen",
                        "dev.breaker.window.count",
                        "dev.breaker.window.time"),
                descriptor.requires().stream()
                        .map(ModuleDescriptor.Requires::name)
                        .collect(Collectors.toSet()));
    }

    /** On the module path the windows and the policy are found through the modules' descriptors. */
    @Test
    void everyExampleConfigReplaysOnTheModulePath() throws Exception {
        Path trace = ExampleTracesTests.EXAMPLES.resolve("traces").resolve("blip.csv");
        for (String name : List.of("consecutive-5", "count-rate", "time-rate-slow", "exponential")) {
            assertEquals(
                    1257,
                    ExampleTracesTests.replay(trace, ExampleTracesTests.example(name))
                            .calls());
        }
    }
}
