package dev.breaker.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breaker.FailureClassifier;
import dev.breaker.HalfOpenPolicies;
import dev.breaker.Outcome;
import dev.breaker.Windows;
import dev.breaker.spi.HalfOpenPolicy;
import dev.breaker.spi.WindowFactory;
import dev.breaker.spi.WindowProvider;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Discovery by name: the built-ins are found, and every way to get it wrong is a loud, precise error. */
class DiscoveryTests {

    @Test
    void builtInWindowIsFoundByName() {
        WindowFactory f = Windows.named("consecutive", Map.of("threshold", "3"));
        assertEquals("consecutive(threshold=3)", f.describe());
        assertEquals(
                "consecutive(threshold=5)",
                Windows.named("consecutive", Map.of()).describe());
    }

    @Test
    void builtInPolicyAndClassifierAreFoundByName() {
        HalfOpenPolicy p = HalfOpenPolicies.named("fixed", Map.of("cooldown", "PT2S", "probes", "3"));
        assertEquals(3, p.probes(1));
        assertEquals(2_000_000_000L, p.cooldownNanos(1));
        FailureClassifier c = FailureClassifier.named("default", Map.of());
        assertEquals(Outcome.FAILURE, c.classify(null, new RuntimeException()));
        assertEquals(Outcome.IGNORED, c.classify(null, new AssertionError()));
        assertEquals(Outcome.SUCCESS, c.classify(null, null));
    }

    @Test
    void unknownNameListsWhatWasFoundAndWhereItComesFrom() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> Windows.named("count", Map.of("size", "100")));
        assertEquals(
                "no window named 'count'; found: [consecutive]; 'count' comes with breaker-window-count,"
                        + " which is not on the class or module path",
                e.getMessage());
        assertEquals(
                "no half-open policy named 'exponential'; found: [fixed]; 'exponential' comes with "
                        + "breaker-halfopen, which is not on the class or module path",
                assertThrows(IllegalArgumentException.class, () -> HalfOpenPolicies.named("exponential", Map.of()))
                        .getMessage());
        assertEquals(
                "no window named 'exponential'; found: [consecutive]; 'exponential' is a half-open policy "
                        + "(from breaker-halfopen), not a window",
                assertThrows(IllegalArgumentException.class, () -> Windows.named("exponential", Map.of()))
                        .getMessage(),
                "the hint is keyed by kind and name");
        assertEquals(
                "no half-open policy named 'count'; found: [fixed]; 'count' is a window (from breaker-window-count), "
                        + "not a half-open policy",
                assertThrows(IllegalArgumentException.class, () -> HalfOpenPolicies.named("count", Map.of()))
                        .getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> HalfOpenPolicies.named("sometimes", Map.of()));
        assertEquals("no half-open policy named 'sometimes'; found: [fixed]", e.getMessage());
    }

    @Test
    void unknownSettingAndBadValuesNameKeyAndValue() {
        assertEquals(
                "window 'consecutive': unknown setting 'size' (value '10'); known settings: [threshold]",
                assertThrows(IllegalArgumentException.class, () -> Windows.named("consecutive", Map.of("size", "10")))
                        .getMessage());
        assertEquals(
                "window 'consecutive': threshold must be >= 1, was 0",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> Windows.named("consecutive", Map.of("threshold", "0")))
                        .getMessage());
        assertEquals(
                "window 'consecutive': threshold must be an integer, was 'three'",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> Windows.named("consecutive", Map.of("threshold", "three")))
                        .getMessage());
        assertEquals(
                "half-open policy 'fixed': cooldown must be a duration such as PT10S, 500ms, 30s, 5m or 1h, "
                        + "was '10 secs'",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> HalfOpenPolicies.named("fixed", Map.of("cooldown", "10 secs")))
                        .getMessage());
        assertEquals(
                "fixed(cooldown=PT10S, probes=1)",
                HalfOpenPolicies.named("fixed", Map.of("cooldown", "10s")).toString(),
                "a duration as people write it");
        assertEquals(
                "half-open policy 'fixed': cooldown must not be negative, was PT-1S",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> HalfOpenPolicies.named("fixed", Map.of("cooldown", "PT-1S")))
                        .getMessage());
    }

    @Test
    void nullNameAndSettingsAreNamed() {
        assertEquals(
                "window name",
                assertThrows(NullPointerException.class, () -> Windows.named(null, Map.of()))
                        .getMessage());
        assertEquals(
                "settings",
                assertThrows(NullPointerException.class, () -> Windows.named("consecutive", null))
                        .getMessage());
    }

    @Test
    void twoProvidersWithOneNameAreAnError() {
        WindowProvider a = new ConsecutiveWindowProvider();
        WindowProvider b = new Impostor();
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> Discovery.choose(List.of(a, b), "window", "consecutive", WindowProvider::name));
        assertTrue(
                e.getMessage()
                        .startsWith("2 window providers are named 'consecutive': ["
                                + ConsecutiveWindowProvider.class.getName() + ", " + Impostor.class.getName() + "]"),
                e.getMessage());
        assertTrue(e.getMessage().endsWith("; remove all but one from the path"), e.getMessage());
    }

    /**
     * A broken provider on the path (a stale service entry whose class is missing, a provider
     * whose name() is null or throws) is passed over: the one asked for is still found, and an
     * unknown name's error names the broken ones, an IllegalArgumentException as any other.
     */
    @Test
    void brokenProvidersArePassedOverAndNamedWhenTheNameIsNotFound() {
        WindowProvider good = new ConsecutiveWindowProvider();
        WindowProvider nameless = new Impostor() {
            @Override
            public String name() {
                return null;
            }
        };
        WindowProvider throwing = new Impostor() {
            @Override
            public String name() {
                throw new IllegalStateException("no name today");
            }
        };
        Iterable<WindowProvider> path = () -> new java.util.Iterator<>() {
            private int at;

            @Override
            public boolean hasNext() {
                return at < 5;
            }

            @Override
            public WindowProvider next() {
                switch (at++) {
                    case 0:
                        throw new java.util.ServiceConfigurationError(
                                "dev.breaker.spi.WindowProvider: Provider com.example.Gone not found");
                    case 1:
                        return nameless;
                    case 2:
                        return throwing;
                    case 3:
                        throw new NoClassDefFoundError("com/example/MissingDependency"); // a jar left off the path
                    default:
                        return good;
                }
            }
        };
        assertTrue(Discovery.choose(path, "window", "consecutive", WindowProvider::name) == good);
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> Discovery.choose(path, "window", "count", WindowProvider::name));
        assertTrue(e.getMessage().startsWith("no window named 'count'; found: [consecutive]"), e.getMessage());
        assertTrue(
                e.getMessage()
                        .contains("providers on the path that failed: [dev.breaker.spi.WindowProvider:"
                                + " Provider com.example.Gone not found, "),
                e.getMessage());
        assertTrue(e.getMessage().contains("its name() is null"), e.getMessage());
        assertTrue(e.getMessage().contains("com/example/MissingDependency"), e.getMessage());
        assertTrue(
                e.getMessage().contains("its name() threw java.lang.IllegalStateException: no name today"),
                e.getMessage());
    }

    /** A loader that fails on every entry still ends, with what it could list. */
    @Test
    void aLoaderThatNeverStopsFailingEnds() {
        Iterable<WindowProvider> broken = () -> new java.util.Iterator<>() {
            @Override
            public boolean hasNext() {
                return true;
            }

            @Override
            public WindowProvider next() {
                throw new java.util.ServiceConfigurationError("broken");
            }
        };
        assertThrows(
                IllegalArgumentException.class,
                () -> Discovery.choose(broken, "window", "consecutive", WindowProvider::name));
    }

    /** A second provider claiming the built-in's name. */
    private static class Impostor implements WindowProvider {
        @Override
        public String name() {
            return "consecutive";
        }

        @Override
        public java.util.Set<String> settingKeys() {
            return java.util.Set.of();
        }

        @Override
        public WindowFactory create(Map<String, String> settings) {
            throw new UnsupportedOperationException();
        }
    }
}
