package dev.breaker.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breaker.tck.ProviderModuleContract;
import java.lang.module.ModuleDescriptor;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The descriptor of dev.breaker.micrometer, pinned: it exports its one package, provides and uses
 * nothing, and requires the API and Micrometer (an automatic module, by the name its manifest
 * gives) transitively. Runs on the module path.
 */
class ModuleLayoutTests extends ProviderModuleContract {

    @Override
    protected Class<?> classInModule() {
        return BreakerMeterBinder.class;
    }

    @Override
    protected String moduleName() {
        return "dev.breaker.micrometer";
    }

    @Override
    protected Set<String> exports() {
        return Set.of("dev.breaker.micrometer");
    }

    @Override
    protected Map<String, List<String>> provides() {
        return Map.of();
    }

    @Test
    void requiresTheApiAndMicrometerTransitively() {
        ModuleDescriptor d = BreakerMeterBinder.class.getModule().getDescriptor();
        assertEquals(
                Set.of("dev.breaker", "micrometer.core"),
                d.requires().stream()
                        .filter(r -> r.modifiers().contains(ModuleDescriptor.Requires.Modifier.TRANSITIVE))
                        .map(ModuleDescriptor.Requires::name)
                        .collect(Collectors.toSet()));
        assertEquals(
                Set.of("dev.breaker", "micrometer.core", "java.base"),
                d.requires().stream().map(ModuleDescriptor.Requires::name).collect(Collectors.toSet()));
        Module micrometer = io.micrometer.core.instrument.MeterRegistry.class.getModule();
        assertTrue(micrometer.isNamed() && micrometer.getDescriptor().isAutomatic(), micrometer.toString());
        assertEquals("micrometer.core", micrometer.getName());
    }
}
