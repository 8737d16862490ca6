package dev.breaker.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Pins the descriptor of a provider module (window, half-open, classifier modules): it runs on
 * the module path, exports exactly what it says, uses no service (only the API module does),
 * provides what it says, and ships matching {@code META-INF/services} files for the class path.
 * Shipped in {@code breaker-tck}.
 */
public abstract class ProviderModuleContract {

    /** For subclasses. */
    protected ProviderModuleContract() {}

    /**
     * Any class of the module under test.
     *
     * @return the class
     */
    protected abstract Class<?> classInModule();

    /**
     * The module's expected name.
     *
     * @return the name, such as {@code dev.breaker.window.count}
     */
    protected abstract String moduleName();

    /**
     * The packages the module must export, and no others.
     *
     * @return the package names
     */
    protected abstract Set<String> exports();

    /**
     * The services the module must provide, each with its provider classes in order.
     *
     * @return service name to provider class names
     */
    protected abstract Map<String, List<String>> provides();

    private ModuleDescriptor descriptor() {
        Module module = classInModule().getModule();
        assertTrue(module.isNamed(), "expected to run on the module path, got " + module);
        return module.getDescriptor();
    }

    /** Name, exports, opens and uses are exactly as declared. */
    @Test
    public void descriptorIsPinned() {
        ModuleDescriptor d = descriptor();
        assertEquals(moduleName(), d.name());
        assertEquals(
                exports(),
                d.exports().stream()
                        .map(e -> e.source() + (e.isQualified() ? " to " + e.targets() : ""))
                        .collect(Collectors.toSet()));
        assertTrue(d.opens().isEmpty(), "opens nothing");
        assertTrue(d.uses().isEmpty(), "only the API module uses the SPIs");
        assertTrue(d.requires().stream().anyMatch(r -> r.name().equals("dev.breaker")), "requires dev.breaker");
        for (String pkg : d.packages()) {
            assertTrue(
                    pkg.equals(moduleName()) || pkg.startsWith(moduleName() + "."),
                    "package " + pkg + " is named after the module");
        }
    }

    /**
     * Provides exactly the declared services, and the service files say the same.
     *
     * @throws IOException when a service file cannot be read
     */
    @Test
    public void providesMatchServiceFiles() throws IOException {
        ModuleDescriptor d = descriptor();
        Map<String, List<String>> declared = new TreeMap<>();
        d.provides().forEach(p -> declared.put(p.service(), p.providers()));
        assertEquals(new TreeMap<>(provides()), declared);
        Module module = classInModule().getModule();
        for (Map.Entry<String, List<String>> e : declared.entrySet()) {
            try (InputStream in = module.getResourceAsStream("META-INF/services/" + e.getKey())) {
                assertNotNull(in, "missing META-INF/services/" + e.getKey());
                assertEquals(
                        String.join("\n", e.getValue()), new String(in.readAllBytes(), StandardCharsets.UTF_8).trim());
            }
        }
    }
}
