package dev.breaker.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import com.jayway.jsonpath.JsonPath;
import dev.breaker.BreakerRegistry;
import dev.breaker.spi.FailureClassifierProvider;
import dev.breaker.spi.HalfOpenPolicyProvider;
import dev.breaker.spi.WindowProvider;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The IDE metadata ({@code META-INF/spring-configuration-metadata.json}) lists every key the
 * properties format accepts, and only keys it accepts: each single key of the format, each
 * setting of every window, policy and classifier provider found here, and each listed key is
 * taken by {@link BreakerRegistry#fromProperties} with a value of its kind.
 */
class MetadataTests {

    /** Per listed key under {@code breaker.defaults.}: the type key it needs (or null) and a value. */
    private static final Map<String, String[]> SAMPLES = new LinkedHashMap<>();

    static {
        sample("window.type", null, "count");
        sample("window.threshold", "consecutive", "3");
        for (String k : List.of("size", "minimum-calls", "consecutive-failures")) {
            sample("window." + k, "count", "4");
        }
        sample("window.failure-rate-threshold", "count", "50%");
        sample("window.slow-call-rate-threshold", "time", "0.5");
        sample("window.length", "time", "10s");
        sample("window.buckets", "time", "10");
        sample("cooldown", null, "30s");
        sample("probes", null, "2");
        sample("slow-call-threshold", null, "2s");
        sample("max-half-open-duration", null, "1m");
        sample("back-off-max", null, "5m");
        sample("rejection-stack-traces", null, "true");
        sample("tracked-permits", null, "false");
        sample("shadow", null, "true");
        sample("half-open.type", null, "exponential");
        sample("half-open.cooldown", "fixed", "5s");
        sample("half-open.probes", "exponential", "3");
        for (String k : List.of("initial", "calm-period", "ramp-up")) {
            sample("half-open." + k, "exponential", "2s");
        }
        sample("half-open.max", "exponential", "1m");
        sample("half-open.multiplier", "exponential", "2");
        sample("half-open.jitter", "exponential", "0.1");
        sample("half-open.close-after", "exponential", "1");
        sample("half-open.ramp-from", "exponential", "0.5");
        sample("classifier.type", null, "exceptions");
        sample("classifier.record-exceptions", "exceptions", "java.io.IOException");
        sample("classifier.ignore-exceptions", "exceptions", "java.lang.IllegalStateException");
    }

    private static void sample(String key, String type, String value) {
        SAMPLES.put(key, new String[] {type, value});
    }

    private static List<String> listed() throws Exception {
        try (InputStream in = MetadataTests.class.getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            return JsonPath.read(new String(in.readAllBytes(), StandardCharsets.UTF_8), "$.properties[*].name");
        }
    }

    private static Set<String> listedDefaults() throws Exception {
        return listed().stream()
                .filter(n -> n.startsWith("breaker.defaults."))
                .map(n -> n.substring("breaker.defaults.".length()))
                .collect(Collectors.toCollection(TreeSet::new));
    }

    private static String kebab(String camel) {
        return camel.replaceAll("([A-Z])", "-$1").toLowerCase(java.util.Locale.ROOT);
    }

    @Test
    void everyListedKeyIsTakenByThePropertiesFormat() throws Exception {
        assertThat(listedDefaults()).isEqualTo(new TreeSet<>(SAMPLES.keySet()));
        for (Map.Entry<String, String[]> e : SAMPLES.entrySet()) {
            String group = e.getKey().contains(".")
                    ? e.getKey().substring(0, e.getKey().indexOf('.'))
                    : null;
            Map<String, String> props = new LinkedHashMap<>();
            if (e.getValue()[0] != null) {
                props.put("breaker.defaults." + group + ".type", e.getValue()[0]);
            }
            props.put("breaker.defaults." + e.getKey(), e.getValue()[1]);
            assertThatCode(() -> BreakerRegistry.fromProperties(props))
                    .as(props.toString())
                    .doesNotThrowAnyException();
        }
        assertThat(listed())
                .contains(
                        "breaker.instances",
                        "breaker.registry.max-open-share",
                        "breaker.registry.evict-idle-after",
                        "breaker.health.include");
        assertThatCode(() -> BreakerRegistry.fromProperties(
                        Map.of("breaker.registry.max-open-share", "50%", "breaker.registry.evict-idle-after", "10m")))
                .doesNotThrowAnyException();
    }

    @Test
    void everyKeyOfTheFormatAndEverySettingOfEveryProviderFoundIsListed() throws Exception {
        Set<String> listed = listedDefaults();
        String valid;
        try {
            BreakerRegistry.fromProperties(Map.of("breaker.defaults.nothing", "1"));
            throw new AssertionError("an unknown key was taken");
        } catch (IllegalArgumentException e) {
            valid = e.getMessage().substring(e.getMessage().indexOf("valid keys after breaker.defaults.: ") + 36);
        }
        Set<String> single = Arrays.stream(
                        valid.substring(0, valid.indexOf(" (each")).split(", "))
                .filter(k -> !k.contains("<"))
                .collect(Collectors.toCollection(TreeSet::new));
        assertThat(single).contains("cooldown", "shadow", "window.type");
        assertThat(listed).containsAll(single);
        for (WindowProvider p : ServiceLoader.load(WindowProvider.class)) {
            p.settingKeys().forEach(k -> assertThat(listed).as(p.name()).contains("window." + kebab(k)));
        }
        for (HalfOpenPolicyProvider p : ServiceLoader.load(HalfOpenPolicyProvider.class)) {
            p.settingKeys().forEach(k -> assertThat(listed).as(p.name()).contains("half-open." + kebab(k)));
        }
        for (FailureClassifierProvider p : ServiceLoader.load(FailureClassifierProvider.class)) {
            p.settingKeys().forEach(k -> assertThat(listed).as(p.name()).contains("classifier." + kebab(k)));
        }
        Set<String> found = new TreeSet<>();
        ServiceLoader.load(WindowProvider.class).forEach(p -> found.add(p.name()));
        ServiceLoader.load(HalfOpenPolicyProvider.class).forEach(p -> found.add(p.name()));
        assertThat(found).as("the providers checked").contains("consecutive", "count", "time", "fixed", "exponential");
    }
}
