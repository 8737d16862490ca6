package dev.breaker;

import static dev.breaker.PropertiesConfigTests.props;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.breaker.ExtraProviders.Sampled;
import dev.breaker.ExtraProviders.Stepped;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Configuration from properties with plugins of other jars: {@link ExtraProviders}' window
 * {@code sampled} and policy {@code stepped}, found through {@code META-INF/services} on the class
 * path (see there why not on the module path).
 */
@Tag("class-path")
class PropertiesPluginTests {

    private static BreakerRegistry registry(Map<String, String> properties) {
        return ExtraProviders.run(() -> BreakerRegistry.fromProperties(properties));
    }

    private static String refused(Map<String, String> properties) {
        return ExtraProviders.run(
                () -> assertThrows(IllegalArgumentException.class, () -> BreakerRegistry.fromProperties(properties))
                        .getMessage());
    }

    @Test
    void theOtherJarsProvidersAreFoundAndListed() {
        assertFalse(CircuitBreaker.class.getModule().isNamed());
        assertEquals(
                new Sampled(100, 0.5, 10),
                registry(props("breaker.defaults.window.type", "sampled"))
                        .configFor("a")
                        .window());
        assertEquals(
                "breaker.defaults.window.type: no window named 'count'; found: [consecutive, sampled]; 'count' comes"
                        + " with breaker-window-count, which is not on the class or module path",
                refused(props("breaker.defaults.window.type", "count")));
        assertEquals(
                "breaker.instances.a.half-open.type: no half-open policy named 'exponential'; found: [fixed, stepped];"
                        + " 'exponential' comes with breaker-halfopen, which is not on the class or module path",
                refused(props("breaker.instances.a.half-open.type", "exponential")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"0.25", "25%", ".25", "2.5e-1", "25 %", " 0.25 ", "25.0%"})
    void ratesInEveryFormAndSettingsInBothSpellings(String rate) {
        Sampled expected = new Sampled(50, 0.25, 20);
        assertEquals(
                expected,
                registry(props(
                                "breaker.defaults.window.type", "sampled",
                                "breaker.defaults.window.size", "50",
                                "breaker.defaults.window.failure-rate-threshold", rate,
                                "breaker.defaults.window.minimum-calls", "20"))
                        .configFor("a")
                        .window());
        assertEquals(
                expected,
                registry(props(
                                "breaker.instances.a.window.type", "sampled",
                                "breaker.instances.a.window.size", "50",
                                "breaker.instances.a.window.failureRateThreshold", rate,
                                "breaker.instances.a.window.minimumCalls", "20"))
                        .configFor("a")
                        .window());
    }

    @Test
    void anInstanceWithAnotherWindowTypeDoesNotInheritTheDefaultsWindowSettings() {
        BreakerRegistry r = registry(props(
                "breaker.defaults.window.type", "sampled",
                "breaker.defaults.window.size", "50",
                "breaker.defaults.window.failure-rate-threshold", "25%",
                "breaker.defaults.window.minimum-calls", "20",
                "breaker.instances.other.window.type", "consecutive",
                "breaker.instances.rate.window.failure-rate-threshold", "0.75",
                "breaker.instances.same.window.type", "sampled",
                "breaker.instances.same.window.size", "60",
                "breaker.instances.none.cooldown", "1s"));
        assertEquals(new Sampled(50, 0.25, 20), r.configFor("unnamed").window());
        assertEquals(
                Windows.consecutiveFailures(5), r.configFor("other").window(), "the consecutive window's defaults");
        assertEquals(new Sampled(50, 0.75, 20), r.configFor("rate").window(), "the defaults' type and other settings");
        assertEquals(new Sampled(60, 0.25, 20), r.configFor("same").window(), "the same type: its settings inherited");
        assertEquals(new Sampled(50, 0.25, 20), r.configFor("none").window());

        BreakerRegistry back = registry(props(
                "breaker.defaults.window.threshold", "3",
                "breaker.instances.a.window.type", "sampled",
                "breaker.instances.b.window.type", "sampled",
                "breaker.instances.b.window.size", "5"));
        assertEquals(new Sampled(100, 0.5, 10), back.configFor("a").window(), "no threshold for a sampled window");
        assertEquals(new Sampled(5, 0.5, 5), back.configFor("b").window());
    }

    @Test
    void aCheckAcrossSettingsBlamesTheInstancesOwnKey() {
        Map<String, String> defaults = props(
                "breaker.defaults.window.type", "sampled",
                "breaker.defaults.window.size", "100",
                "breaker.defaults.window.minimum-calls", "50");
        Map<String, String> a = new java.util.TreeMap<>(defaults);
        a.put("breaker.instances.a.window.size", "10");
        assertEquals(
                "breaker.instances.a.window.size: window 'sampled': minimumCalls (50) must be <= size (10)",
                refused(a),
                "the message names the inherited minimumCalls first, but the instance gave size");
        Map<String, String> b = new java.util.TreeMap<>(defaults);
        b.put("breaker.instances.b.window.minimumCalls", "200");
        assertEquals(
                "breaker.instances.b.window.minimumCalls: window 'sampled': minimumCalls (200) must be <= size (100)",
                refused(b));
        assertEquals(
                "breaker.defaults.window.minimum-calls: window 'sampled': minimumCalls (50) must be <= size (10)",
                refused(props(
                        "breaker.defaults.window.type", "sampled",
                        "breaker.defaults.window.size", "10",
                        "breaker.defaults.window.minimum-calls", "50")),
                "both in one scope: the one the message names first");
    }

    @Test
    void providersErrorsArePrefixedWithTheKey() {
        assertEquals(
                "breaker.defaults.window.sample-rate: window 'sampled': unknown setting 'sampleRate' (value '3');"
                        + " known settings: [failureRateThreshold, minimumCalls, size]",
                refused(props("breaker.defaults.window.type", "sampled", "breaker.defaults.window.sample-rate", "3")));
        assertEquals(
                "breaker.instances.payments.eu.window.failure-rate-threshold: window 'sampled': failureRateThreshold"
                        + " must be in (0, 1], was 150%",
                refused(props(
                        "breaker.instances.payments.eu.window.type", "sampled",
                        "breaker.instances.payments.eu.window.failure-rate-threshold", "150%")));
        assertEquals(
                "breaker.defaults.window.type: window 'sampled' made nothing: its provider returned null (value"
                        + " 'sampled')",
                refused(props("breaker.defaults.window.type", "sampled", "breaker.defaults.window.size", "13")));
        assertEquals(
                "breaker.defaults.window.type: window 'sampled' failed to build: java.lang.IllegalStateException:"
                        + " unlucky (value 'sampled')",
                refused(props("breaker.defaults.window.type", "sampled", "breaker.defaults.window.size", "666")));
        assertEquals(
                "breaker.defaults.half-open.type: halfOpen policy stepped(initial=PT1S, probes=0): probes(1) must be"
                        + " >= 1, was 0",
                refused(props("breaker.defaults.half-open.type", "stepped", "breaker.defaults.half-open.probes", "0")),
                "what the config checks of a policy, prefixed with the policy's key");
        assertEquals(
                "breaker.instances.b.window.type: no window named 'Sampled'; found: [consecutive, sampled]",
                refused(props("breaker.instances.b.window.type", "Sampled")),
                "names are exact");
        assertEquals(
                new Sampled(100, 0.5, 10),
                registry(props("breaker.instances.b.window.type", " sampled "))
                        .configFor("b")
                        .window(),
                "but surrounding spaces are ignored");
    }

    @Test
    void aMessageWithoutAnOwnerIsBlamedOnTheSettingItNamesFirst() {
        assertEquals(
                "breaker.instances.a.window.minimumCalls: minimumCalls and size 7 are refused together",
                refused(props(
                        "breaker.defaults.window.type", "sampled",
                        "breaker.instances.a.window.size", "7",
                        "breaker.instances.a.window.minimumCalls", "5")),
                "no colon: the whole message is read, from its first letter");
        assertEquals(
                "breaker.defaults.window.size: : size 8 is refused",
                refused(props("breaker.defaults.window.type", "sampled", "breaker.defaults.window.size", "8")),
                "an empty owner: what follows its colon is read");
    }

    @Test
    void aFailureThatNamesNoSettingIsBlamedOnTheScopesFirstKeyInKeyOrder() {
        assertEquals(
                "breaker.instances.a.window.minimumCalls: window 'sampled' failed to build:"
                        + " java.lang.IllegalStateException: unlucky (value '5')",
                refused(props(
                        "breaker.defaults.window.type", "sampled",
                        "breaker.instances.a.window.size", "666",
                        "breaker.instances.a.window.minimumCalls", "5")),
                "the instance gave no type, so its first setting key stands for the window");
    }

    @Test
    void anInstancesPolicyWinsOverTheDefaultsShorthand() {
        BreakerRegistry r = registry(props(
                "breaker.defaults.cooldown", "10s",
                "breaker.defaults.probes", "2",
                "breaker.instances.stepped.half-open.type", "stepped",
                "breaker.instances.stepped.half-open.initial", "2s"));
        assertEquals(
                HalfOpenPolicies.fixed(Duration.ofSeconds(10), 2),
                r.configFor("other").halfOpen());
        assertEquals(
                new Stepped(Duration.ofSeconds(2), 1),
                r.configFor("stepped").halfOpen(),
                "no error, and the fixed policy's probes are not the stepped policy's");
    }

    @Test
    void halfOpenSettingsAreInheritedForTheSamePolicyAndTheShorthandCannotChangeAnother() {
        Map<String, String> p = props(
                "breaker.defaults.half-open.type", "stepped",
                "breaker.defaults.half-open.initial", "2s",
                "breaker.defaults.half-open.probes", "2",
                "breaker.instances.more.half-open.probes", "3",
                "breaker.instances.same.halfOpen.type", "stepped",
                "breaker.instances.fixed.half-open.type", "fixed");
        BreakerRegistry r = registry(p);
        assertEquals(
                new Stepped(Duration.ofSeconds(2), 2), r.configFor("unnamed").halfOpen());
        assertEquals(new Stepped(Duration.ofSeconds(2), 3), r.configFor("more").halfOpen());
        assertEquals(new Stepped(Duration.ofSeconds(2), 2), r.configFor("same").halfOpen());
        assertEquals(
                HalfOpenPolicies.fixed(Duration.ofSeconds(60), 1),
                r.configFor("fixed").halfOpen());

        p.put("breaker.instances.shorthand.probes", "3");
        assertEquals(
                "breaker.instances.shorthand.probes: cooldown and probes are the fixed policy's shorthand, but the"
                        + " half-open policy here is 'stepped', from breaker.defaults.half-open.type; give its own"
                        + " settings as breaker.instances.shorthand.half-open.<setting> (value '3')",
                refused(p));
    }

    @Test
    void kebabAndCamelSpellingsMakeEqualRegistries() {
        BreakerRegistry kebab = registry(props(
                "breaker.defaults.window.type", "sampled",
                "breaker.defaults.window.failure-rate-threshold", "40%",
                "breaker.defaults.slow-call-threshold", "1s",
                "breaker.instances.a.half-open.type", "stepped",
                "breaker.instances.a.half-open.initial", "3s",
                "breaker.instances.a.window.minimum-calls", "7",
                "breaker.instances.a.max-half-open-duration", "20s"));
        BreakerRegistry camel = registry(props(
                "breaker.defaults.window.type", "sampled",
                "breaker.defaults.window.failureRateThreshold", "0.4",
                "breaker.defaults.slowCallThreshold", "PT1S",
                "breaker.instances.a.halfOpen.type", "stepped",
                "breaker.instances.a.halfOpen.initial", "PT3S",
                "breaker.instances.a.window.minimumCalls", "7",
                "breaker.instances.a.maxHalfOpenDuration", "PT20S"));
        assertEquals(kebab.configFor("a"), camel.configFor("a"));
        assertEquals(kebab.configFor("b"), camel.configFor("b"));
        assertEquals(
                CircuitBreakerConfig.builder()
                        .window(new Sampled(100, 0.4, 7))
                        .slowCallThreshold(Duration.ofSeconds(1))
                        .halfOpen(new Stepped(Duration.ofSeconds(3), 1))
                        .maxHalfOpenDuration(Duration.ofSeconds(20))
                        .build(),
                kebab.breaker("a").config());
    }

    @Test
    void theConfigReaderFindsThemToo() {
        assertEquals(
                CircuitBreakerConfig.builder()
                        .window(new Sampled(10, 0.5, 10))
                        .halfOpen(new Stepped(Duration.ofMillis(500), 1))
                        .build(),
                ExtraProviders.run(() -> CircuitBreakerConfig.fromProperties(
                        props(
                                "svc.window.type", "sampled",
                                "svc.window.size", "10",
                                "svc.half-open.type", "stepped",
                                "svc.half-open.initial", "500ms"),
                        "svc")));
    }
}
