package dev.breaker.spring;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.TypeReference;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;

/** The AOT hints a native image needs: service files, endpoint records, fallbacks invoked by reflection. */
class RuntimeHintsTests {

    @Test
    void serviceFilesAndEndpointRecordsAreDeclared() {
        RuntimeHints hints = new RuntimeHints();
        new BreakerRuntimeHints().registerHints(hints, getClass().getClassLoader());
        assertThat(RuntimeHintsPredicates.resource().forResource("META-INF/services/dev.breaker.spi.WindowProvider"))
                .accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onType(BreakerReport.class))
                .accepts(hints);
    }

    @Test
    void everyFallbackIsDeclaredForInvocation() throws Exception {
        RuntimeHints hints = new RuntimeHints();
        BreakerRuntimeHints.Fallbacks.register(AnnotationTests.Flaky.class, hints);
        List<String> invoked = hints.reflection()
                .getTypeHint(TypeReference.of(AnnotationTests.Flaky.class))
                .methods()
                .filter(m -> m.getMode() == ExecutableMode.INVOKE)
                .map(m -> m.getName())
                .sorted()
                .toList();
        assertThat(invoked).containsExactly("asyncFallback", "busy", "cached", "hangingFallback");
    }

    @Test
    void theRegistrarsAreListedInAotFactories() throws Exception {
        Properties factories = new Properties();
        try (InputStream in = getClass().getResourceAsStream("/META-INF/spring/aot.factories")) {
            factories.load(in);
        }
        assertThat(factories.getProperty("org.springframework.aot.hint.RuntimeHintsRegistrar"))
                .isEqualTo(BreakerRuntimeHints.class.getName());
        assertThat(factories.getProperty("org.springframework.beans.factory.aot.BeanRegistrationAotProcessor"))
                .isEqualTo(BreakerRuntimeHints.Fallbacks.class.getName());
    }
}
