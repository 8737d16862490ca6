package dev.breaker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Configuration from properties, for any choice of keys, spellings, values and instance names. */
class PropertiesConfigProperties {

    /**
     * One key after the scope's prefix, in both spellings, with a value.
     *
     * @param kebab its kebab-case spelling
     * @param camel its camelCase spelling
     * @param value a value
     */
    record Setting(String kebab, String camel, String value) {}

    /**
     * Some settings of one scope, the spelling of each, and the name of an instance.
     *
     * @param name     an instance name, maybe with dots
     * @param settings the settings
     * @param camel    per setting, whether it is spelled in camelCase
     */
    record Case(String name, List<Setting> settings, List<Boolean> camel) {
        Map<String, String> under(String prefix, boolean mixed) {
            Map<String, String> m = new TreeMap<>();
            for (int i = 0; i < settings.size(); i++) {
                Setting s = settings.get(i);
                m.put(prefix + "." + (mixed && camel.get(i) ? s.camel() : s.kebab()), s.value());
            }
            return m;
        }
    }

    @Property(tries = 300)
    void eitherSpellingOfEveryKeyGivesTheSameConfig(@ForAll("cases") Case c) {
        String instance = "breaker.instances." + c.name();
        CircuitBreakerConfig kebab =
                BreakerRegistry.fromProperties(c.under(instance, false)).configFor(c.name());
        assertEquals(
                kebab, BreakerRegistry.fromProperties(c.under(instance, true)).configFor(c.name()));
        assertEquals(kebab, CircuitBreakerConfig.fromProperties(c.under(instance, true), instance));
        assertEquals(kebab, CircuitBreakerConfig.fromProperties(c.under("breaker.defaults", true), "breaker.defaults"));
        assertEquals(
                kebab,
                BreakerRegistry.fromProperties(c.under("breaker.defaults", true))
                        .configFor(c.name()),
                "as the defaults, inherited by every name");
    }

    /** The keys that take a value, in either spelling. */
    private static final List<String> VALUED = List.of(
            "cooldown",
            "probes",
            "slow-call-threshold",
            "slowCallThreshold",
            "max-half-open-duration",
            "maxHalfOpenDuration",
            "back-off-max",
            "backOffMax",
            "rejection-stack-traces",
            "rejectionStackTraces",
            "tracked-permits",
            "trackedPermits",
            "window.type",
            "window.threshold",
            "half-open.type",
            "halfOpen.type",
            "half-open.cooldown",
            "halfOpen.probes",
            "classifier.type");

    @Property(tries = 300)
    void aBadValueIsAlwaysNamedWithItsWholeKey(
            @ForAll("keys") String key, @ForAll("garbage") String value, @ForAll("names") Optional<String> name) {
        String whole = name.map(n -> "breaker.instances." + n).orElse("breaker.defaults") + "." + key;
        String message = assertThrows(
                        IllegalArgumentException.class, () -> BreakerRegistry.fromProperties(Map.of(whole, value)))
                .getMessage();
        assertTrue(message.startsWith(whole + ": "), message);
        assertTrue(message.contains("'" + value + "'"), message);
    }

    @Property(tries = 200)
    void aKeyNotUnderstoodIsNamedAndTheValidKeysListed(@ForAll("garbage") String segment) {
        String key = "breaker.defaults." + segment;
        assertEquals(
                key + ": unknown key (value 'v'); valid keys after breaker.defaults.: " + PropertiesConfigTests.VALID,
                assertThrows(IllegalArgumentException.class, () -> BreakerRegistry.fromProperties(Map.of(key, "v")))
                        .getMessage());
    }

    @Property(tries = 200)
    void keysOutsideBreakerAreIgnoredWhateverTheirValues(@ForAll("foreign") Map<String, String> foreign) {
        assertEquals(
                CircuitBreakerConfig.defaults(),
                BreakerRegistry.fromProperties(foreign).configFor("any"));
    }

    @Provide
    Arbitrary<String> keys() {
        return Arbitraries.of(VALUED);
    }

    /** Never a valid value of any key: no duration, number, boolean or provider name starts with q. */
    @Provide
    Arbitrary<String> garbage() {
        return Arbitraries.strings().alpha().numeric().ofMaxLength(8).map(s -> "q" + s);
    }

    @Provide
    Arbitrary<Optional<String>> names() {
        return name().optional();
    }

    @Provide
    Arbitrary<Map<String, String>> foreign() {
        return Arbitraries.maps(
                        Arbitraries.strings()
                                .withChars("abekr.-")
                                .ofMaxLength(20)
                                .filter(k -> !k.startsWith(ConfigProperties.ROOT)),
                        Arbitraries.strings().ofMaxLength(10))
                .ofMaxSize(6);
    }

    /** One to three dot-separated segments; the last never a group's name (the ambiguity is tested apart). */
    private static Arbitrary<String> name() {
        return Arbitraries.strings()
                .withCharRange('a', 'z')
                .ofMinLength(1)
                .ofMaxLength(6)
                .list()
                .ofMinSize(1)
                .ofMaxSize(3)
                .map(parts -> String.join(".", parts))
                .filter(n -> ConfigProperties.Group.of(n.substring(n.lastIndexOf('.') + 1)) == null);
    }

    @Provide
    Arbitrary<Case> cases() {
        Arbitrary<String> duration = Combinators.combine(
                        Arbitraries.integers().between(1, 3_600_000),
                        Arbitraries.integers().between(0, 2))
                .as((ms, form) -> switch (form) {
                    case 0 -> ms + "ms";
                    case 1 -> Duration.ofMillis(ms).toString();
                    default -> ms % 1000 == 0 ? ms / 1000 + "s" : ms + "ms";
                });
        Arbitrary<String> count = Arbitraries.integers().between(1, 20).map(String::valueOf);
        Arbitrary<String> bool = Arbitraries.of("true", "false", "TRUE", " false ");
        List<Arbitrary<Optional<Setting>>> single = List.of(
                duration.map(v -> new Setting("slow-call-threshold", "slowCallThreshold", v))
                        .optional(),
                duration.map(v -> new Setting("max-half-open-duration", "maxHalfOpenDuration", v))
                        .optional(),
                duration.map(v -> new Setting("back-off-max", "backOffMax", v)).optional(),
                bool.map(v -> new Setting("rejection-stack-traces", "rejectionStackTraces", v))
                        .optional(),
                bool.map(v -> new Setting("tracked-permits", "trackedPermits", v))
                        .optional(),
                Arbitraries.just(new Setting("window.type", "window.type", "consecutive"))
                        .optional(),
                count.map(v -> new Setting("window.threshold", "window.threshold", v))
                        .optional(),
                Arbitraries.just(new Setting("classifier.type", "classifier.type", "default"))
                        .optional());
        Arbitrary<List<Setting>> halfOpen = Arbitraries.integers().between(0, 3).flatMap(mode -> switch (mode) {
            case 0 -> Arbitraries.just(List.<Setting>of());
            case 1 ->
                Combinators.combine(duration, count)
                        .as((c, p) ->
                                List.of(new Setting("cooldown", "cooldown", c), new Setting("probes", "probes", p)));
            case 2 -> duration.map(c -> List.of(new Setting("half-open.cooldown", "halfOpen.cooldown", c)));
            default ->
                Combinators.combine(duration, count)
                        .as((c, p) -> List.of(
                                new Setting("half-open.type", "halfOpen.type", "fixed"),
                                new Setting("half-open.cooldown", "halfOpen.cooldown", c),
                                new Setting("half-open.probes", "halfOpen.probes", p)));
        });
        Arbitrary<List<Setting>> settings = Combinators.combine(
                        Combinators.combine(single).as(list -> list), halfOpen)
                .as((optional, policy) -> {
                    List<Setting> all = new ArrayList<>();
                    optional.forEach(o -> o.ifPresent(all::add));
                    all.addAll(policy);
                    return all;
                });
        return Combinators.combine(
                        name(), settings, Arbitraries.of(true, false).list().ofSize(12))
                .as(Case::new);
    }
}
