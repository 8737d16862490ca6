package dev.breaker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.module.ModuleDescriptor;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The module descriptor, pinned: what is exported, used and provided. These tests run on the module path. */
class ModuleLayoutTests {

    private final Module module = CircuitBreaker.class.getModule();

    @Test
    void testsRunOnTheModulePath() {
        assertTrue(module.isNamed(), "expected the named module dev.breaker, got " + module);
        assertEquals("dev.breaker", module.getName());
    }

    @Test
    void exportsExactlyTheApiAndSpiPackagesAndTheRacePointsToTheEventsModuleAlone() {
        ModuleDescriptor d = module.getDescriptor();
        Set<String> exports = d.exports().stream()
                .map(e -> e.source() + (e.isQualified() ? " to " + e.targets() : ""))
                .collect(Collectors.toCollection(java.util.TreeSet::new));
        assertEquals(
                Set.of("dev.breaker", "dev.breaker.spi", "dev.breaker.internal.race to [dev.breaker.events]"), exports);
        assertTrue(d.opens().isEmpty());
        assertEquals(
                Set.of("java.base"),
                d.requires().stream().map(ModuleDescriptor.Requires::name).collect(Collectors.toSet()),
                "JDK only");
    }

    @Test
    void usesAndProvidesTheSpis() {
        ModuleDescriptor d = module.getDescriptor();
        assertEquals(
                Set.of(
                        "dev.breaker.spi.WindowProvider",
                        "dev.breaker.spi.HalfOpenPolicyProvider",
                        "dev.breaker.spi.FailureClassifierProvider"),
                d.uses());
        Map<String, String> provides = new TreeMap<>();
        d.provides().forEach(p -> provides.put(p.service(), String.join(",", p.providers())));
        assertEquals(
                Map.of(
                        "dev.breaker.spi.WindowProvider", "dev.breaker.internal.ConsecutiveWindowProvider",
                        "dev.breaker.spi.HalfOpenPolicyProvider", "dev.breaker.internal.FixedHalfOpenPolicyProvider",
                        "dev.breaker.spi.FailureClassifierProvider",
                                "dev.breaker.internal.DefaultClassifierProvider,"
                                        + "dev.breaker.internal.ExceptionsClassifierProvider"),
                provides);
    }

    @Test
    void serviceFilesMatchTheDescriptor() throws Exception {
        ModuleDescriptor d = module.getDescriptor();
        for (ModuleDescriptor.Provides p : d.provides()) {
            try (var in = module.getResourceAsStream("META-INF/services/" + p.service())) {
                assertTrue(in != null, "missing META-INF/services/" + p.service());
                String listed = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).trim();
                assertEquals(String.join("\n", p.providers()), listed, p.service());
            }
        }
    }

    @Test
    void artifactFolderModuleAndPackageFollowOneRule() {
        // breaker-api -> dev.breaker -> packages dev.breaker and dev.breaker.*
        for (String pkg : module.getPackages()) {
            assertTrue(pkg.equals("dev.breaker") || pkg.startsWith("dev.breaker."), pkg);
        }
    }
}
