package dev.breaker.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breaker.tck.ProviderModuleContract;
import java.lang.module.ModuleDescriptor;
import java.lang.reflect.Modifier;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The descriptor of dev.breaker.events, pinned; runs on the module path. */
class ModuleLayoutTests extends ProviderModuleContract {

    @Override
    protected Class<?> classInModule() {
        return Slf4jEventLogger.class;
    }

    @Override
    protected String moduleName() {
        return "dev.breaker.events";
    }

    @Override
    protected Set<String> exports() {
        return Set.of("dev.breaker.events");
    }

    @Override
    protected Map<String, List<String>> provides() {
        return Map.of();
    }

    @Test
    void requiresTheApiAndSlf4jTransitivelyAndJfr() {
        ModuleDescriptor d = Slf4jEventLogger.class.getModule().getDescriptor();
        assertEquals(
                Set.of("java.base", "dev.breaker transitive", "org.slf4j transitive", "jdk.jfr"),
                d.requires().stream()
                        .map(r -> r.name()
                                + (r.modifiers().contains(ModuleDescriptor.Requires.Modifier.TRANSITIVE)
                                        ? " transitive"
                                        : ""))
                        .collect(Collectors.toSet()));
    }

    @Test
    void theJfrEventClassesAreNotApi() {
        for (Class<?> event : List.of(JfrStateTransition.class, JfrLateResult.class, JfrTripSuppressed.class)) {
            assertEquals(Slf4jEventLogger.class.getModule(), event.getModule());
            assertFalse(Modifier.isPublic(event.getModifiers()), event + " is package-private");
            assertTrue(jdk.jfr.Event.class.isAssignableFrom(event));
        }
    }

    @Test
    void jfrRecordsThePackagePrivateEventsOnTheModulePath() throws Exception {
        assertTrue(JfrEventRecorder.class.getModule().isNamed());
        JfrRecordingTests.recordsATransition();
    }
}
