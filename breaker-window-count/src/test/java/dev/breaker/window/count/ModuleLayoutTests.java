package dev.breaker.window.count;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.module.ModuleDescriptor;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The module descriptor, pinned; runs on the module path. */
class ModuleLayoutTests {

    private final Module module = CountWindow.class.getModule();

    @Test
    void exportsOnlyTheTypedBuilderAndProvidesTheWindow() {
        assertTrue(module.isNamed(), "expected the module path, got " + module);
        ModuleDescriptor d = module.getDescriptor();
        assertEquals("dev.breaker.window.count", d.name());
        assertEquals(Set.of("dev.breaker.window.count"),
                d.exports().stream().map(ModuleDescriptor.Exports::source).collect(Collectors.toSet()));
        assertTrue(d.opens().isEmpty());
        assertTrue(d.uses().isEmpty(), "only the API module uses the SPIs");
        assertEquals(1, d.provides().size());
        ModuleDescriptor.Provides p = d.provides().iterator().next();
        assertEquals("dev.breaker.spi.WindowProvider", p.service());
        assertEquals(java.util.List.of("dev.breaker.window.count.internal.CountWindowProvider"), p.providers());
        assertTrue(d.requires().stream().anyMatch(r -> r.name().equals("dev.breaker")));
    }

    @Test
    void serviceFileMatchesTheDescriptor() throws Exception {
        try (var in = module.getResourceAsStream("META-INF/services/dev.breaker.spi.WindowProvider")) {
            assertEquals("dev.breaker.window.count.internal.CountWindowProvider",
                    new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).trim());
        }
    }
}
