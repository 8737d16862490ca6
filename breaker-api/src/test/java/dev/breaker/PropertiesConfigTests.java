package dev.breaker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breaker.spi.HalfOpenPolicy;
import dev.breaker.spi.Window;
import dev.breaker.spi.WindowFactory;
import java.io.IOException;
import java.io.StringReader;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Configuration from properties with the built-in plugins (the consecutive window, the fixed
 * policy, the default classifier); plugins from other jars are in {@link PropertiesPluginTests}.
 */
class PropertiesConfigTests {

    /** The valid keys, as every unknown-key message lists them. */
    static final String VALID = "window.type, window.<setting>, cooldown, probes, slow-call-threshold,"
            + " max-half-open-duration, half-open.type, half-open.<setting>, back-off-max, classifier.type,"
            + " classifier.<setting>, rejection-stack-traces, tracked-permits, shadow (each also in camelCase, such"
            + " as slowCallThreshold)";

    /** Key, value, key, value ... */
    static Map<String, String> props(String... keysAndValues) {
        Map<String, String> m = new TreeMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            m.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return m;
    }

    static String refused(Map<String, String> properties) {
        return assertThrows(IllegalArgumentException.class, () -> BreakerRegistry.fromProperties(properties))
                .getMessage();
    }

    static String refusedConfig(Map<String, String> properties, String prefix) {
        return assertThrows(
                        IllegalArgumentException.class, () -> CircuitBreakerConfig.fromProperties(properties, prefix))
                .getMessage();
    }

    static CircuitBreakerConfig defaultsOf(String... keysAndValues) {
        return CircuitBreakerConfig.fromProperties(props(keysAndValues), "breaker.defaults");
    }

    private static final CircuitBreakerConfig EVERY_SETTING = CircuitBreakerConfig.builder()
            .window(Windows.consecutiveFailures(3))
            .cooldown(Duration.ofSeconds(30))
            .probes(2)
            .slowCallThreshold(Duration.ofSeconds(2))
            .maxHalfOpenDuration(Duration.ofSeconds(45))
            .backOffMax(Duration.ofMinutes(5))
            .rejectionStackTraces(true)
            .trackedPermits(true)
            .classifier(FailureClassifier.defaults())
            .build();

    // ---- every key, both spellings

    @Test
    void everyKeyInKebabCase() {
        assertEquals(
                EVERY_SETTING,
                defaultsOf(
                        "breaker.defaults.window.type", "consecutive",
                        "breaker.defaults.window.threshold", "3",
                        "breaker.defaults.cooldown", "30s",
                        "breaker.defaults.probes", "2",
                        "breaker.defaults.slow-call-threshold", "2s",
                        "breaker.defaults.max-half-open-duration", "PT45S",
                        "breaker.defaults.back-off-max", "5m",
                        "breaker.defaults.rejection-stack-traces", "true",
                        "breaker.defaults.tracked-permits", "true",
                        "breaker.defaults.classifier.type", "default"));
        assertEquals(
                EVERY_SETTING,
                defaultsOf(
                        "breaker.defaults.window.threshold", "3",
                        "breaker.defaults.half-open.type", "fixed",
                        "breaker.defaults.half-open.cooldown", "30s",
                        "breaker.defaults.half-open.probes", "2",
                        "breaker.defaults.slow-call-threshold", "2000ms",
                        "breaker.defaults.max-half-open-duration", "45s",
                        "breaker.defaults.back-off-max", "PT5M",
                        "breaker.defaults.rejection-stack-traces", "true",
                        "breaker.defaults.tracked-permits", "true"),
                "the policy by name equals the shorthand; a window setting without a type changes the default window");
    }

    @Test
    void everyKeyInCamelCase() {
        assertEquals(
                EVERY_SETTING,
                defaultsOf(
                        "breaker.defaults.window.type", "consecutive",
                        "breaker.defaults.window.threshold", "3",
                        "breaker.defaults.cooldown", "30s",
                        "breaker.defaults.probes", "2",
                        "breaker.defaults.slowCallThreshold", "2s",
                        "breaker.defaults.maxHalfOpenDuration", "PT45S",
                        "breaker.defaults.backOffMax", "5m",
                        "breaker.defaults.rejectionStackTraces", "true",
                        "breaker.defaults.trackedPermits", "true",
                        "breaker.defaults.classifier.type", "default"));
        assertEquals(
                EVERY_SETTING,
                defaultsOf(
                        "breaker.defaults.window.threshold", "3",
                        "breaker.defaults.halfOpen.type", "fixed",
                        "breaker.defaults.halfOpen.cooldown", "30s",
                        "breaker.defaults.halfOpen.probes", "2",
                        "breaker.defaults.slowCallThreshold", "2s",
                        "breaker.defaults.maxHalfOpenDuration", "45s",
                        "breaker.defaults.backOffMax", "5m",
                        "breaker.defaults.rejectionStackTraces", "true",
                        "breaker.defaults.trackedPermits", "true"));
    }

    @Test
    void noKeysGiveTheStartingConfig() {
        assertEquals(CircuitBreakerConfig.defaults(), defaultsOf());
        assertEquals(
                CircuitBreakerConfig.defaults(),
                BreakerRegistry.fromProperties(Map.of()).configFor("any"));
    }

    // ---- values in every form

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '"',
            value = {
                "PT30S|30000",
                "pt30s|30000",
                "30s|30000",
                "\" 30s \"|30000",
                "30000ms|30000",
                "PT0.5S|500",
                "500ms|500",
                "5m|300000",
                "1h|3600000",
                "2d|172800000",
                "PT1H30M|5400000",
                "0s|0",
                "PT0S|0"
            })
    void durationsInEveryForm(String text, long millis) {
        assertEquals(
                HalfOpenPolicies.fixed(Duration.ofMillis(millis), 1),
                defaultsOf("breaker.defaults.cooldown", text).halfOpen());
        assertEquals(
                HalfOpenPolicies.fixed(Duration.ofMillis(millis), 1),
                defaultsOf("breaker.defaults.half-open.cooldown", text).halfOpen());
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '"',
            value = {"100us|100000", "10ns|10", "PT0.000000001S|1", "1500ms|1500000000"})
    void durationsBelowAMillisecond(String text, long nanos) {
        assertEquals(
                Duration.ofNanos(nanos),
                defaultsOf("breaker.defaults.slow-call-threshold", text)
                        .slowCallThreshold()
                        .orElseThrow());
        assertEquals(
                Duration.ofNanos(nanos),
                defaultsOf("breaker.defaults.back-off-max", text).backOffMax());
        assertEquals(
                Duration.ofNanos(nanos),
                defaultsOf("breaker.defaults.max-half-open-duration", text).maxHalfOpenDuration());
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '"',
            value = {"true|true", "TRUE|true", "\" True \"|true", "false|false", "FALSE|false", "\"\tfalse\"|false"})
    void booleansAsWritten(String text, boolean expected) {
        CircuitBreakerConfig c =
                defaultsOf("breaker.defaults.rejection-stack-traces", text, "breaker.defaults.tracked-permits", text);
        assertEquals(expected, c.rejectionStackTraces());
        assertEquals(expected, c.trackedPermits());
    }

    @ParameterizedTest
    @ValueSource(strings = {"yes", "1", "", "on", "t", "true!"})
    void otherBooleansAreRefusedByKeyAndValue(String text) {
        assertEquals(
                "breaker.defaults.tracked-permits: trackedPermits must be true or false, was '" + text + "'",
                refused(props("breaker.defaults.tracked-permits", text)));
        assertEquals(
                "breaker.instances.x.rejectionStackTraces: rejectionStackTraces must be true or false, was '" + text
                        + "'",
                refused(props("breaker.instances.x.rejectionStackTraces", text)));
    }

    @Test
    void controlCharactersInABooleanAreRefused() {
        assertEquals(
                "breaker.defaults.tracked-permits: trackedPermits must be true or false, was 'true\\n'",
                refused(props("breaker.defaults.tracked-permits", "true\n")));
    }

    // ---- prefixes

    /** The README's one-config call with a {@code java.util.Properties}, its defaults included. */
    @Test
    void oneConfigReadsFromJavaUtilPropertiesToo() throws IOException {
        Properties defaults = new Properties();
        defaults.setProperty("breaker.defaults.cooldown", "30s");
        Properties p = new Properties(defaults);
        p.load(new StringReader("breaker.defaults.probes = 3\nserver.port = 8080\n"));
        assertEquals(
                CircuitBreakerConfig.builder()
                        .probes(3)
                        .cooldown(Duration.ofSeconds(30))
                        .build(),
                CircuitBreakerConfig.fromProperties(p, "breaker.defaults"));
        Properties oddDefaults = new Properties();
        oddDefaults.put("app.breaker.cooldown", Duration.ofSeconds(1)); // not text, in the defaults
        Properties inDefaults = new Properties(oddDefaults);
        assertEquals(
                "app.breaker.cooldown: the value must be a String, was not one (in the defaults of the Properties)",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> CircuitBreakerConfig.fromProperties(inDefaults, "app.breaker"))
                        .getMessage());
        Properties outside = new Properties();
        outside.put("breaker.instances.x.probes", 3); // outside the prefix: the rest of the application's
        assertEquals(CircuitBreakerConfig.defaults(), CircuitBreakerConfig.fromProperties(outside, "breaker.defaults"));
        Properties shadowing = new Properties(new Properties());
        shadowing.put(42, "a key that is not text, elsewhere in the application");
        shadowing.put("app.breaker.probes", 3);
        assertEquals(
                "app.breaker.probes: the value must be a String, was java.lang.Integer 3",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> CircuitBreakerConfig.fromProperties(shadowing, "app.breaker"))
                        .getMessage());
        Properties dotted = new Properties(new Properties());
        dotted.put(7, "a key that is not text turns propertyNames() off: the own entries are checked first");
        dotted.put("app.breakerX.probes", 3); // not under "app.breaker.": the rest of the application's
        assertEquals(CircuitBreakerConfig.defaults(), CircuitBreakerConfig.fromProperties(dotted, "app.breaker"));
        dotted.put("app.breaker.probes", 3);
        assertThrows(IllegalArgumentException.class, () -> CircuitBreakerConfig.fromProperties(dotted, "app.breaker."));
        Properties odd = new Properties();
        odd.put("app.breaker.probes", 3); // an Integer: Properties holds any object
        assertEquals(
                "app.breaker.probes: the value must be a String, was java.lang.Integer 3",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> CircuitBreakerConfig.fromProperties(odd, "app.breaker"))
                        .getMessage());
    }

    @Test
    void keysOutsideThePrefixAreIgnoredAndThePrefixMayEndWithADot() {
        Map<String, String> p = props(
                "breaker.defaults.probes", "3",
                "breaker.instances.payments.probes", "oops",
                "breaker.defaultsX.probes", "oops",
                "server.port", "8080");
        CircuitBreakerConfig expected = CircuitBreakerConfig.builder().probes(3).build();
        assertEquals(expected, CircuitBreakerConfig.fromProperties(p, "breaker.defaults"));
        assertEquals(expected, CircuitBreakerConfig.fromProperties(p, "breaker.defaults."));
        assertEquals(
                CircuitBreakerConfig.builder().probes(4).build(),
                CircuitBreakerConfig.fromProperties(props("probes", "4"), ""),
                "an empty prefix: every key is a setting");
        assertEquals(
                "server.port: unknown key (value '8080'); valid keys: " + VALID,
                refusedConfig(props("probes", "4", "server.port", "8080"), ""));
    }

    @Test
    void everyKeyUnderThePrefixMustBeUnderstood() {
        assertEquals(
                "breaker.instances.payments.eu.probes: unknown key (value '3'); valid keys after "
                        + "breaker.instances.payments.: " + VALID,
                refusedConfig(
                        props("breaker.instances.payments.eu.probes", "3", "breaker.instances.payments.probes", "2"),
                        "breaker.instances.payments"),
                "the config reader knows no instance names: a registry's dotted names are read by the registry");
    }

    @Test
    void nullArgumentsAreRefused() {
        assertThrows(
                NullPointerException.class, () -> CircuitBreakerConfig.fromProperties((Map<String, String>) null, "p"));
        assertThrows(NullPointerException.class, () -> CircuitBreakerConfig.fromProperties((Properties) null, "p"));
        assertThrows(NullPointerException.class, () -> CircuitBreakerConfig.fromProperties(new Properties(), null));
        assertThrows(NullPointerException.class, () -> CircuitBreakerConfig.fromProperties(Map.of(), null));
        assertThrows(NullPointerException.class, () -> CircuitBreakerConfig.fromProperties(Map.of(), "p", null));
        assertThrows(NullPointerException.class, () -> BreakerRegistry.fromProperties((Map<String, String>) null));
        assertThrows(NullPointerException.class, () -> BreakerRegistry.fromProperties((Properties) null));
    }

    @Test
    void aNullValueIsAnErrorANullKeyIsNotOurs() {
        Map<String, String> p = new HashMap<>();
        p.put(null, "x");
        p.put("other", null);
        assertEquals(
                CircuitBreakerConfig.defaults(),
                BreakerRegistry.fromProperties(p).configFor("a"));
        p.put("breaker.defaults.cooldown", null);
        assertEquals("breaker.defaults.cooldown: the value must not be null", refused(p));
        assertEquals("breaker.defaults.cooldown: the value must not be null", refusedConfig(p, "breaker.defaults"));
    }

    // ---- starting from a base

    private static final CircuitBreakerConfig BASE = CircuitBreakerConfig.builder()
            .window(Windows.consecutiveFailures(3))
            .cooldown(Duration.ofSeconds(10))
            .probes(2)
            .backOffMax(Duration.ofMinutes(1))
            .build();

    private static CircuitBreakerConfig fromBase(CircuitBreakerConfig base, String... keysAndValues) {
        return CircuitBreakerConfig.fromProperties(props(keysAndValues), "x", base);
    }

    @Test
    void aBaseKeepsEverySettingNotGiven() {
        assertEquals(BASE, fromBase(BASE));
        assertEquals(
                CircuitBreakerConfig.builder(BASE)
                        .slowCallThreshold(Duration.ofSeconds(1))
                        .build(),
                fromBase(BASE, "x.slow-call-threshold", "1s"));
        assertEquals(
                CircuitBreakerConfig.builder(BASE).probes(5).build(),
                fromBase(BASE, "x.probes", "5"),
                "the shorthand changes the base's fixed policy, as the builder does");
        assertEquals(
                CircuitBreakerConfig.builder(BASE).probes(4).build(),
                fromBase(BASE, "x.half-open.probes", "4"),
                "settings without a type change the base's fixed policy");
        assertEquals(
                BASE, fromBase(BASE, "x.window.type", "consecutive"), "the same type keeps the base's window settings");
        assertEquals(
                CircuitBreakerConfig.builder(BASE)
                        .window(Windows.consecutiveFailures(7))
                        .build(),
                fromBase(BASE, "x.window.threshold", "7"));
        assertEquals(
                BASE,
                fromBase(BASE, "x.half-open.type", "fixed"),
                "the same type named again keeps the base's settings");
        assertEquals(
                CircuitBreakerConfig.builder(BASE)
                        .halfOpen(HalfOpenPolicies.fixed(Duration.ofSeconds(1), 2))
                        .build(),
                fromBase(BASE, "x.half-open.type", "fixed", "x.half-open.cooldown", "1s"));
    }

    @Test
    void aBasePluginWhoseSettingsCannotBeReadBackNeedsATypeToChange() {
        WindowFactory custom = new WindowFactory() {
            @Override
            public Window create(Ticker ticker) {
                return Windows.consecutiveFailures(1).create(ticker);
            }

            @Override
            public String describe() {
                return "custom-window";
            }
        };
        CircuitBreakerConfig base =
                CircuitBreakerConfig.builder().window(custom).build();
        assertEquals(
                "x.window.threshold: no window.type to apply it to: the window it starts from, custom-window, was not"
                        + " made from settings that can be read back; give x.window.type (value '2')",
                assertThrows(IllegalArgumentException.class, () -> fromBase(base, "x.window.threshold", "2"))
                        .getMessage());
        assertEquals(
                Windows.consecutiveFailures(2),
                fromBase(base, "x.window.type", "consecutive", "x.window.threshold", "2")
                        .window());

        HalfOpenPolicy policy = new HalfOpenPolicy() {
            @Override
            public long cooldownNanos(int consecutiveOpens) {
                return 1;
            }

            @Override
            public int probes(int consecutiveOpens) {
                return 1;
            }

            @Override
            public Verdict decide(int consecutiveOpens, int successes, int failures) {
                return failures > 0 ? Verdict.OPEN : Verdict.CLOSE;
            }

            @Override
            public String toString() {
                return "custom-policy";
            }
        };
        CircuitBreakerConfig withPolicy =
                CircuitBreakerConfig.builder().halfOpen(policy).build();
        assertEquals(
                "x.cooldown: cooldown and probes are the fixed policy's shorthand, but the half-open policy it starts"
                        + " from is custom-policy; give its own settings as x.half-open.<setting> (value '1s')",
                assertThrows(IllegalArgumentException.class, () -> fromBase(withPolicy, "x.cooldown", "1s"))
                        .getMessage());
        assertEquals(
                "x.half-open.probes: no half-open.type to apply it to: the half-open policy it starts from,"
                        + " custom-policy, was not made from settings that can be read back; give x.half-open.type"
                        + " (value '2')",
                assertThrows(IllegalArgumentException.class, () -> fromBase(withPolicy, "x.half-open.probes", "2"))
                        .getMessage());
        FailureClassifier classifier = (result, failure) -> Outcome.SUCCESS;
        CircuitBreakerConfig withClassifier =
                CircuitBreakerConfig.builder().classifier(classifier).build();
        assertTrue(assertThrows(
                        IllegalArgumentException.class, () -> fromBase(withClassifier, "x.classifier.strict", "true"))
                .getMessage()
                .startsWith("x.classifier.strict: no classifier.type to apply it to: the failure classifier it starts"
                        + " from, "));
        assertSame(
                FailureClassifier.defaults(),
                fromBase(withClassifier, "x.classifier.type", "default").classifier());
    }

    // ---- the fixed policy's shorthand

    @Test
    void theShorthandWithAHalfOpenKeyInOnePlaceIsAnErrorNamingBoth() {
        assertEquals(
                "breaker.defaults.cooldown: cooldown and probes are the fixed policy's shorthand and cannot be combined"
                        + " with breaker.defaults.half-open.type (value 'fixed'); give the policy's settings as"
                        + " breaker.defaults.half-open.<setting> (value '10s')",
                refused(props("breaker.defaults.cooldown", "10s", "breaker.defaults.half-open.type", "fixed")));
        assertEquals(
                "breaker.instances.a.probes: cooldown and probes are the fixed policy's shorthand and cannot be"
                        + " combined with breaker.instances.a.halfOpen.cooldown (value '1s'); give the policy's"
                        + " settings as breaker.instances.a.half-open.<setting> (value '2')",
                refused(props("breaker.instances.a.probes", "2", "breaker.instances.a.halfOpen.cooldown", "1s")),
                "any half-open key, not only the type");
        assertEquals(
                "x.cooldown: cooldown and probes are the fixed policy's shorthand and cannot be combined with"
                        + " x.half-open.type (value 'fixed'); give the policy's settings as x.half-open.<setting>"
                        + " (value '1s')",
                refusedConfig(props("x.cooldown", "1s", "x.probes", "2", "x.half-open.type", "fixed"), "x"));
    }

    // ---- errors: unknown keys, keys not supported yet, two spellings

    @ParameterizedTest
    @ValueSource(
            strings = {
                "cooldwn",
                "Cooldown",
                "slow-callThreshold",
                "slow_call_threshold",
                "window",
                "window.",
                "window.a.b",
                "window..size",
                "half.open.type",
                "type",
                ".cooldown"
            })
    void unknownKeysListTheValidOnes(String key) {
        assertEquals(
                "breaker.defaults." + key + ": unknown key (value 'v'); valid keys after breaker.defaults.: " + VALID,
                refused(props("breaker.defaults." + key, "v")));
        assertEquals(
                "x." + key + ": unknown key (value 'v'); valid keys after x.: " + VALID,
                refusedConfig(props("x." + key, "v"), "x"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"breaker.defaults", "breaker.foo", "breaker.foo.cooldown", "breaker.", "breaker.instances"})
    void keysUnderBreakerOutsideTheScopesAreUnknown(String key) {
        assertEquals(
                key + ": unknown key (value 'v'); the keys under breaker. are breaker.defaults.<key>,"
                        + " breaker.instances.<name>.<key> and breaker.registry.<setting>, where <key> is one of: "
                        + VALID,
                refused(props(key, "v")));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "breaker.instances.payments",
                "breaker.instances.payments.cooldwn",
                "breaker.instances.window.type",
                "breaker.instances.payments.window.",
                "breaker.instances.payments.eu.window"
            })
    void unknownInstanceKeysSayHowTheyAreRead(String key) {
        assertEquals(
                key + ": unknown key (value 'v'); an instance's keys are breaker.instances.<name>.<key>, read from the"
                        + " right, where <key> is one of: " + VALID,
                refused(props(key, "v")));
    }

    @Test
    void unknownRegistryKeysSayWhatTheRegistryTakes() {
        assertEquals(
                "breaker.registry.size: unknown key (value '3'); breaker.registry. takes evict-idle-after and"
                        + " max-open-share",
                refused(props("breaker.registry.size", "3")));
    }

    @Test
    void theOpenShareCapIsReadAsARate() {
        BreakerRegistry r = BreakerRegistry.fromProperties(
                props("breaker.defaults.window.threshold", "1", "breaker.registry.max-open-share", "50%"));
        CircuitBreaker a = r.breaker("a");
        CircuitBreaker b = r.breaker("b");
        a.tryAcquire().onFailure(0, null);
        b.tryAcquire().onFailure(0, null);
        assertEquals(State.OPEN, a.state());
        assertEquals(State.CLOSED, b.state(), "half of two");
        assertEquals(
                "breaker.registry.maxOpenShare: maxOpenShare must be in (0, 1], was 0",
                refused(props("breaker.registry.maxOpenShare", "0")));
        assertEquals(
                "breaker.registry.max-open-share and breaker.registry.maxOpenShare are the same setting; give it once"
                        + " (values '0.5' and '0.25')",
                refused(props("breaker.registry.max-open-share", "0.5", "breaker.registry.maxOpenShare", "0.25")));
    }

    @Test
    void shadowAndIdleEvictionAreRead() {
        BreakerRegistry r = BreakerRegistry.fromProperties(props(
                "breaker.defaults.shadow", "true",
                "breaker.instances.payments.eu.shadow", "false",
                "breaker.registry.evict-idle-after", "10m"));
        assertEquals(true, r.breaker("any").config().shadow());
        assertEquals(false, r.breaker("payments.eu").config().shadow());
        assertEquals(
                true,
                CircuitBreakerConfig.fromProperties(props("x.shadow", "TRUE"), "x")
                        .shadow());
        assertEquals(
                "breaker.registry.evict-idle-after: evictIdleAfter must be > 0, was PT0S",
                refused(props("breaker.registry.evict-idle-after", "0s")));
        assertEquals(
                "breaker.registry.evict-idle-after and breaker.registry.evictIdleAfter are the same setting; give it"
                        + " once (values '1m' and '2m')",
                refused(props("breaker.registry.evict-idle-after", "1m", "breaker.registry.evictIdleAfter", "2m")));
    }

    @Test
    void oneSettingInTwoSpellingsIsAnErrorNamingBothKeys() {
        assertEquals(
                "breaker.defaults.slow-call-threshold and breaker.defaults.slowCallThreshold are the same setting;"
                        + " give it once (values '1s' and '2s')",
                refused(props(
                        "breaker.defaults.slow-call-threshold", "1s", "breaker.defaults.slowCallThreshold", "2s")));
        assertEquals(
                "breaker.instances.a.half-open.type and breaker.instances.a.halfOpen.type are the same setting; give"
                        + " it once (values 'fixed' and 'fixed')",
                refused(props(
                        "breaker.instances.a.half-open.type", "fixed", "breaker.instances.a.halfOpen.type", "fixed")),
                "even with equal values");
        assertEquals(
                "breaker.defaults.window.minimum-calls and breaker.defaults.window.minimumCalls are the same setting;"
                        + " give it once (values '10' and '20')",
                refused(props(
                        "breaker.defaults.window.minimum-calls", "10", "breaker.defaults.window.minimumCalls", "20")),
                "window settings too, before any provider is asked");
        assertEquals(
                "x.back-off-max and x.backOffMax are the same setting; give it once (values '1m' and '1m')",
                refusedConfig(props("x.back-off-max", "1m", "x.backOffMax", "1m"), "x"));
        assertEquals(
                CircuitBreakerConfig.builder().probes(2).build(),
                BreakerRegistry.fromProperties(props("breaker.defaults.probes", "2", "breaker.instances.a.probes", "2"))
                        .configFor("a"),
                "the same key in two scopes is two settings");
    }

    // ---- errors: bad values

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '"',
            value = {
                "cooldown|soon|cooldown must be a duration such as PT10S, 500ms, 30s, 5m or 1h, was 'soon'",
                "cooldown|-1s|cooldown must be a duration such as PT10S, 500ms, 30s, 5m or 1h, was '-1s'",
                "cooldown|-PT1S|cooldown must not be negative, was -PT1S",
                "cooldown|300000d|cooldown must be at most PT2562047H47M16.854775807S (Long.MAX_VALUE nanoseconds,"
                        + " about 292 years), was 300000d",
                "probes|0|probes must be >= 1, was 0",
                "probes|two|probes must be an integer, was 'two'",
                "probes|1.5|probes must be an integer, was '1.5'",
                "slow-call-threshold|0s|slowCallThreshold must be > 0, was PT0S",
                "slowCallThreshold|10 parsecs|slowCallThreshold must be a duration such as PT10S, 500ms, 30s, 5m or"
                        + " 1h, was '10 parsecs'",
                "max-half-open-duration|PT0S|maxHalfOpenDuration must be > 0, was PT0S",
                "back-off-max|0ms|backOffMax must be > 0, was PT0S",
                "back-off-max|5 minutes|backOffMax must be a duration such as PT10S, 500ms, 30s, 5m or 1h, was '5"
                        + " minutes'",
                "window.threshold|0|window 'consecutive': threshold must be >= 1, was 0",
                "window.threshold|many|window 'consecutive': threshold must be an integer, was 'many'",
                "window.size|10|window 'consecutive': unknown setting 'size' (value '10'); known settings:"
                        + " [threshold]",
                "window.type|count|no window named 'count'; found: [consecutive]; 'count' comes with"
                        + " breaker-window-count, which is not on the class or module path",
                "window.type|exponential|no window named 'exponential'; found: [consecutive]; 'exponential' is a"
                        + " half-open policy (from breaker-halfopen), not a window",
                "half-open.type|exponential|no half-open policy named 'exponential'; found: [fixed]; 'exponential'"
                        + " comes with breaker-halfopen, which is not on the class or module path",
                "halfOpen.type|sometimes|no half-open policy named 'sometimes'; found: [fixed]",
                "half-open.cooldown|-5s|half-open policy 'fixed': cooldown must be a duration such as PT10S, 500ms,"
                        + " 30s, 5m or 1h, was '-5s'",
                "half-open.probes|0|half-open policy 'fixed': probes must be >= 1, was 0",
                "half-open.jitter|20%|half-open policy 'fixed': unknown setting 'jitter' (value '20%'); known"
                        + " settings: [cooldown, probes]",
                "classifier.type|http|no failure classifier named 'http'; found: [default, exceptions]",
                "classifier.status-codes|503|failure classifier 'default': unknown setting 'statusCodes' (value"
                        + " '503'); known settings: []"
            })
    void badValuesAreRefusedByWholeKeyAndValue(String key, String value, String message) {
        assertEquals("breaker.defaults." + key + ": " + message, refused(props("breaker.defaults." + key, value)));
        assertEquals(
                "breaker.instances.payments.eu." + key + ": " + message,
                refused(props("breaker.instances.payments.eu." + key, value)));
        assertEquals(
                "breaker.defaults." + key + ": " + message,
                refusedConfig(props("breaker.defaults." + key, value), "breaker.defaults"));
    }

    @Test
    void aProvidersErrorIsPrefixedWithTheKeyOfTheSettingItNames() {
        assertEquals(
                "breaker.instances.a.window.size: window 'consecutive': unknown setting 'size' (value '10'); known"
                        + " settings: [threshold]",
                refused(props(
                        "breaker.instances.a.window.type", "consecutive", "breaker.instances.a.window.size", "10")),
                "not the type's key");
        assertEquals(
                "breaker.instances.a.window.size: window 'consecutive': unknown setting 'size' (value '10'); known"
                        + " settings: [threshold]",
                refused(props(
                        "breaker.defaults.window.threshold", "4",
                        "breaker.instances.a.window.size", "10")));
    }

    // ---- the registry

    @Test
    void theRegistryMakesTheDefaultsAndEveryInstanceThatInheritsThem() {
        BreakerRegistry r = BreakerRegistry.fromProperties(props(
                "breaker.defaults.window.threshold", "4",
                "breaker.defaults.cooldown", "10s",
                "breaker.defaults.back-off-max", "2m",
                "breaker.instances.payments.probes", "3",
                "breaker.instances.payments.slow-call-threshold", "1500ms",
                "breaker.instances.inventory.window.threshold", "2",
                "breaker.instances.inventory.tracked-permits", "true",
                "breaker.instances.search.back-off-max", "30s"));
        CircuitBreakerConfig defaults = CircuitBreakerConfig.builder()
                .window(Windows.consecutiveFailures(4))
                .cooldown(Duration.ofSeconds(10))
                .backOffMax(Duration.ofMinutes(2))
                .build();
        assertEquals(defaults, r.configFor("anything"));
        assertEquals(defaults, r.breaker("anything").config());
        CircuitBreakerConfig payments = CircuitBreakerConfig.builder(defaults)
                .probes(3)
                .slowCallThreshold(Duration.ofMillis(1500))
                .build();
        assertEquals(payments, r.configFor("payments"));
        assertEquals(payments, r.breaker("payments").config());
        assertEquals(HalfOpenPolicies.fixed(Duration.ofSeconds(10), 3), payments.halfOpen());
        assertEquals(
                CircuitBreakerConfig.builder(defaults)
                        .window(Windows.consecutiveFailures(2))
                        .trackedPermits(true)
                        .build(),
                r.breaker("inventory").config());
        assertEquals(
                CircuitBreakerConfig.builder(defaults)
                        .backOffMax(Duration.ofSeconds(30))
                        .build(),
                r.breaker("search").config());
        assertEquals(4, r.breakers().size());
    }

    @Test
    void anInstanceIsWhatTheConfigReaderMakesFromTheDefaults() {
        Map<String, String> p = props(
                "breaker.defaults.cooldown", "10s",
                "breaker.defaults.window.threshold", "4",
                "breaker.instances.payments.probes", "3",
                "breaker.instances.payments.window.threshold", "2");
        CircuitBreakerConfig defaults = CircuitBreakerConfig.fromProperties(p, "breaker.defaults");
        assertEquals(
                CircuitBreakerConfig.fromProperties(p, "breaker.instances.payments", defaults),
                BreakerRegistry.fromProperties(p).configFor("payments"));
    }

    @Test
    void windowSettingsAreInheritedForTheSameWindow() {
        BreakerRegistry r = BreakerRegistry.fromProperties(props(
                "breaker.defaults.window.type", "consecutive",
                "breaker.defaults.window.threshold", "4",
                "breaker.instances.same.window.type", "consecutive",
                "breaker.instances.settings.window.threshold", "2",
                "breaker.instances.none.probes", "2"));
        assertEquals(Windows.consecutiveFailures(4), r.configFor("same").window(), "same type: its settings kept");
        assertEquals(Windows.consecutiveFailures(2), r.configFor("settings").window());
        assertEquals(Windows.consecutiveFailures(4), r.configFor("none").window());
    }

    @Test
    void halfOpenSettingsAndTheShorthandAreInheritedForTheFixedPolicy() {
        BreakerRegistry r = BreakerRegistry.fromProperties(props(
                "breaker.defaults.cooldown", "10s",
                "breaker.defaults.probes", "2",
                "breaker.instances.shorthand.probes", "3",
                "breaker.instances.setting.half-open.probes", "4",
                "breaker.instances.type.half-open.type", "fixed",
                "breaker.instances.both.half-open.type", "fixed",
                "breaker.instances.both.half-open.cooldown", "1s"));
        assertEquals(
                HalfOpenPolicies.fixed(Duration.ofSeconds(10), 3),
                r.configFor("shorthand").halfOpen());
        assertEquals(
                HalfOpenPolicies.fixed(Duration.ofSeconds(10), 4),
                r.configFor("setting").halfOpen());
        assertEquals(
                HalfOpenPolicies.fixed(Duration.ofSeconds(10), 2),
                r.configFor("type").halfOpen(),
                "the defaults' shorthand are the fixed policy's settings, inherited by the same type");
        assertEquals(
                HalfOpenPolicies.fixed(Duration.ofSeconds(1), 2),
                r.configFor("both").halfOpen());

        BreakerRegistry named = BreakerRegistry.fromProperties(props(
                "breaker.defaults.half-open.type", "fixed",
                "breaker.defaults.half-open.cooldown", "10s",
                "breaker.instances.a.cooldown", "20s",
                "breaker.instances.b.probes", "5"));
        assertEquals(
                HalfOpenPolicies.fixed(Duration.ofSeconds(20), 1),
                named.configFor("a").halfOpen());
        assertEquals(
                HalfOpenPolicies.fixed(Duration.ofSeconds(10), 5),
                named.configFor("b").halfOpen(),
                "an instance's shorthand changes the defaults' policy when it is the fixed one");
    }

    // ---- names with dots

    @Test
    void instanceNamesMayContainDotsTheKeyIsFoundFromTheRight() {
        BreakerRegistry r = BreakerRegistry.fromProperties(props(
                "breaker.instances.payments.cooldown", "7s",
                "breaker.instances.payments.eu.cooldown", "5s",
                "breaker.instances.payments.eu.window.threshold", "2",
                "breaker.instances.a.b.c.half-open.probes", "2",
                "breaker.instances.a.b.c.max-half-open-duration", "5s",
                "breaker.instances.x.window.window.type", "consecutive",
                "breaker.instances.x.window.window.threshold", "9",
                "breaker.instances.window.cooldown", "3s"));
        assertEquals(
                CircuitBreakerConfig.builder().cooldown(Duration.ofSeconds(7)).build(), r.configFor("payments"));
        assertEquals(
                CircuitBreakerConfig.builder()
                        .cooldown(Duration.ofSeconds(5))
                        .window(Windows.consecutiveFailures(2))
                        .build(),
                r.configFor("payments.eu"));
        assertEquals(
                CircuitBreakerConfig.builder()
                        .probes(2)
                        .maxHalfOpenDuration(Duration.ofSeconds(5))
                        .build(),
                r.configFor("a.b.c"));
        assertEquals(Windows.consecutiveFailures(9), r.configFor("x.window").window());
        assertEquals(
                HalfOpenPolicies.fixed(Duration.ofSeconds(3), 1),
                r.configFor("window").halfOpen());
        assertEquals("payments.eu", r.breaker("payments.eu").name());
    }

    @Test
    void theOneAmbiguityANameEndingInAGroupCannotTakeASingleSetting() {
        assertEquals(
                "breaker.instances.x.window.probes: window 'consecutive': unknown setting 'probes' (value '2'); known"
                        + " settings: [threshold]",
                refused(props("breaker.instances.x.window.probes", "2")),
                "read as instance x's window setting probes, never as instance x.window's probes");
        assertEquals(
                "breaker.instances.x.half-open.cooldown: half-open policy 'fixed': cooldown must be a duration such as"
                        + " PT10S, 500ms, 30s, 5m or 1h, was 'soon'",
                refused(props("breaker.instances.x.half-open.cooldown", "soon")));
    }

    @Test
    void instanceNamesAreCheckedLikeAnyBreakersName() {
        assertEquals(
                "breaker.instances..cooldown: the instance name must contain a visible character, was ''",
                refused(props("breaker.instances..cooldown", "1s")));
        assertEquals(
                "breaker.instances. .window.type: the instance name must contain a visible character, was ' '",
                refused(props("breaker.instances. .window.type", "consecutive")));
        assertEquals(
                "breaker.instances..window.type: the instance name must contain a visible character, was ''",
                refused(props("breaker.instances..window.type", "consecutive")));
    }

    // ---- nothing built when any key is bad; which error comes first

    @Test
    void keysAreParsedBeforeValuesAreReadAndInKeyOrder() {
        assertEquals(
                "breaker.instances.z.cooldwn: unknown key (value '1s'); an instance's keys are"
                        + " breaker.instances.<name>.<key>, read from the right, where <key> is one of: " + VALID,
                refused(props(
                        "breaker.defaults.cooldown", "soon",
                        "breaker.instances.a.probes", "0",
                        "breaker.instances.z.cooldwn", "1s")),
                "a key not understood anywhere fails before any value is read");
        assertEquals(
                "breaker.defaults.cooldown: cooldown must be a duration such as PT10S, 500ms, 30s, 5m or 1h, was"
                        + " 'soon'",
                refused(props(
                        "breaker.defaults.cooldown", "soon",
                        "breaker.instances.a.probes", "0")),
                "then the defaults, then the instances in name order");
        assertEquals(
                "breaker.instances.a.probes: probes must be >= 1, was 0",
                refused(props(
                        "breaker.instances.b.probes", "-1",
                        "breaker.instances.a.probes", "0",
                        "breaker.instances.c.probes", "3")));
    }

    // ---- keys outside breaker. and java.util.Properties

    @Test
    void keysOutsideBreakerAreNotOurs() {
        BreakerRegistry r = BreakerRegistry.fromProperties(props(
                "breaker", "x",
                "breakers.defaults.cooldown", "x",
                "Breaker.defaults.cooldown", "x",
                "app.breaker.defaults.cooldown", "x",
                "server.port", "8080"));
        assertEquals(CircuitBreakerConfig.defaults(), r.configFor("any"));
        assertEquals("BreakerRegistry[0 breakers, 0 named configs]", r.toString());
    }

    @Test
    void javaUtilPropertiesAsReadFromAFile() throws IOException {
        Properties file = new Properties();
        file.load(new StringReader(String.join(
                "\n",
                "# the application's own keys share the file",
                "server.port = 8080",
                "breaker.defaults.window.type = consecutive",
                "breaker.defaults.window.threshold = 5",
                "breaker.defaults.cooldown = 30s",
                "breaker.instances.payments.eu.window.threshold: 2",
                "breaker.instances.payments.eu.halfOpen.probes = 3",
                "breaker.instances.inventory.slowCallThreshold = PT2S")));
        BreakerRegistry r = BreakerRegistry.fromProperties(file);
        CircuitBreakerConfig defaults =
                CircuitBreakerConfig.builder().cooldown(Duration.ofSeconds(30)).build();
        assertEquals(defaults, r.configFor("other"));
        assertEquals(
                CircuitBreakerConfig.builder(defaults)
                        .window(Windows.consecutiveFailures(2))
                        .probes(3)
                        .build(),
                r.breaker("payments.eu").config());
        assertEquals(
                CircuitBreakerConfig.builder(defaults)
                        .slowCallThreshold(Duration.ofSeconds(2))
                        .build(),
                r.breaker("inventory").config());
        assertEquals(
                BreakerRegistry.fromProperties(ConfigProperties.strings(file)).configFor("payments.eu"),
                r.configFor("payments.eu"));
    }

    @Test
    void theReadmeExample() throws IOException {
        Properties file = new Properties();
        file.load(new StringReader(String.join(
                "\n",
                "breaker.defaults.window.type = consecutive",
                "breaker.defaults.window.threshold = 5",
                "breaker.defaults.cooldown = 30s",
                "breaker.defaults.slow-call-threshold = 2s",
                "breaker.instances.payments.window.threshold = 3",
                "breaker.instances.payments.eu.half-open.probes = 2")));
        BreakerRegistry r = BreakerRegistry.fromProperties(file);
        CircuitBreakerConfig defaults = CircuitBreakerConfig.builder()
                .window(Windows.consecutiveFailures(5))
                .cooldown(Duration.ofSeconds(30))
                .slowCallThreshold(Duration.ofSeconds(2))
                .build();
        assertEquals(defaults, r.breaker("inventory").config());
        assertEquals(
                CircuitBreakerConfig.builder(defaults)
                        .window(Windows.consecutiveFailures(3))
                        .build(),
                r.breaker("payments").config());
        assertEquals(
                CircuitBreakerConfig.builder(defaults).probes(2).build(),
                r.breaker("payments.eu").config());
        Map<String, String> bad = ConfigProperties.strings(file);
        bad.put("breaker.instances.payments.window.threshold", "0");
        assertEquals(
                "breaker.instances.payments.window.threshold: window 'consecutive': threshold must be >= 1, was 0",
                refused(bad));
        assertEquals(defaults, CircuitBreakerConfig.fromProperties(ConfigProperties.strings(file), "breaker.defaults"));
    }

    @Test
    void propertiesDefaultsCountAndAValueThatIsNotAStringIsAnError() {
        Properties defaults = new Properties();
        defaults.setProperty("breaker.defaults.probes", "2");
        Properties p = new Properties(defaults);
        p.setProperty("breaker.defaults.cooldown", "5s");
        assertEquals(
                HalfOpenPolicies.fixed(Duration.ofSeconds(5), 2),
                BreakerRegistry.fromProperties(p).configFor("a").halfOpen());
        p.put("server.threads", 8); // not ours
        assertEquals(
                HalfOpenPolicies.fixed(Duration.ofSeconds(5), 2),
                BreakerRegistry.fromProperties(p).configFor("a").halfOpen());
        p.put("breaker.defaults.max-half-open-duration", Duration.ofSeconds(5));
        assertEquals(
                "breaker.defaults.max-half-open-duration: the value must be a String, was java.time.Duration PT5S",
                assertThrows(IllegalArgumentException.class, () -> BreakerRegistry.fromProperties(p))
                        .getMessage());
    }

    // ---- pieces

    @Test
    void kebabSegmentsBecomeCamelCaseOthersStayAsTheyAre() {
        assertEquals("failureRateThreshold", ConfigProperties.camel("failure-rate-threshold"));
        assertEquals("rate2x", ConfigProperties.camel("rate-2x"));
        assertEquals("failureRateThreshold", ConfigProperties.camel("failureRateThreshold"));
        assertEquals("Failure-Rate", ConfigProperties.camel("Failure-Rate"));
        assertEquals("slow-callThreshold", ConfigProperties.camel("slow-callThreshold"));
        assertEquals("a--b", ConfigProperties.camel("a--b"));
        assertEquals("-a", ConfigProperties.camel("-a"));
        assertEquals("", ConfigProperties.camel(""));
    }

    @Test
    void aWordStandsAloneOrIsNotFound() {
        assertEquals(0, ConfigProperties.wordAt("size must be", "size"));
        assertEquals(-1, ConfigProperties.wordAt("sizes must be", "size"));
        assertEquals(-1, ConfigProperties.wordAt("maxSize must be", "size"));
        assertEquals(14, ConfigProperties.wordAt("minimumCalls (size) must", "size"));
        assertEquals(17, ConfigProperties.wordAt("unknown setting 'size'", "size"));
        assertEquals(-1, ConfigProperties.wordAt("anything", ""));
    }
}
