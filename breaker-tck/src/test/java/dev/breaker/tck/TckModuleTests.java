package dev.breaker.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.module.ModuleDescriptor;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The TCK's descriptor, pinned: an open module that exports its one package and passes on what its users need. */
class TckModuleTests {

    @Test
    void descriptorIsPinned() {
        Module module = WindowContract.class.getModule();
        assertTrue(module.isNamed(), "runs on the module path");
        ModuleDescriptor d = module.getDescriptor();
        assertEquals("dev.breaker.tck", d.name());
        assertTrue(d.isOpen(), "open, so test engines need no --add-opens");
        assertEquals(
                Set.of("dev.breaker.tck"),
                d.exports().stream().map(ModuleDescriptor.Exports::source).collect(Collectors.toSet()));
        assertEquals(
                Set.of("dev.breaker", "org.junit.jupiter.api", "net.jqwik.api"),
                d.requires().stream()
                        .filter(r -> r.modifiers().contains(ModuleDescriptor.Requires.Modifier.TRANSITIVE))
                        .map(ModuleDescriptor.Requires::name)
                        .collect(Collectors.toSet()));
        assertTrue(d.uses().isEmpty() && d.provides().isEmpty());
    }
}
