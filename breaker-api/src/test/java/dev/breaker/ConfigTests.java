package dev.breaker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breaker.spi.HalfOpenPolicy;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The configuration value (issue 9): defaults in one place, a value with equality, a starting point for builders. */
class ConfigTests {

    @Test
    void theDefaultsAreOneValueAndSayWhatTheyAre() {
        CircuitBreakerConfig d = CircuitBreakerConfig.defaults();
        assertEquals(d, CircuitBreakerConfig.builder().build());
        assertEquals(d.hashCode(), CircuitBreakerConfig.builder().build().hashCode());
        assertEquals(Windows.consecutiveFailures(CircuitBreakerConfig.DEFAULT_CONSECUTIVE_FAILURES), d.window());
        assertEquals(
                HalfOpenPolicies.fixed(CircuitBreakerConfig.DEFAULT_COOLDOWN, CircuitBreakerConfig.DEFAULT_PROBES),
                d.halfOpen());
        assertEquals(Optional.empty(), d.slowCallThreshold());
        assertEquals(Duration.ofSeconds(60), d.maxHalfOpenDuration());
        assertSame(FailureClassifier.defaults(), d.classifier());
        assertEquals(
                "CircuitBreakerConfig[window=consecutive(threshold=5), halfOpen=fixed(cooldown=PT1M, probes=1), "
                        + "slowCallThreshold=none, maxHalfOpenDuration=PT1M, classifier=default, rejectionStackTraces=false, "
                        + "trackedPermits=false, backOffMax=PT10M]",
                d.toString());
        assertEquals(
                d, CircuitBreaker.builder("b").build().config(), "a breaker built with no settings has the defaults");
    }

    @Test
    void equalityComparesEverySettingAndPluginsByTheirOwnEquals() {
        CircuitBreakerConfig a = CircuitBreakerConfig.builder()
                .window(Windows.consecutiveFailures(3))
                .cooldown(Duration.ofSeconds(5))
                .probes(2)
                .slowCallThreshold(Duration.ofMillis(200))
                .build();
        CircuitBreakerConfig b = CircuitBreakerConfig.builder()
                .window(Windows.consecutiveFailures(3))
                .cooldown(Duration.ofSeconds(5))
                .probes(2)
                .slowCallThreshold(Duration.ofMillis(200))
                .build();
        assertEquals(a, b, "built-in windows and policies are values");
        assertEquals(a.hashCode(), b.hashCode());
        assertNotEquals(a, CircuitBreakerConfig.builder(a).probes(3).build());
        assertNotEquals(a, CircuitBreakerConfig.builder(a).trackedPermits(true).build());
        assertNotEquals(
                a, CircuitBreakerConfig.builder(a).rejectionStackTraces(true).build());
        assertNotEquals(
                a,
                CircuitBreakerConfig.builder(a)
                        .maxHalfOpenDuration(Duration.ofSeconds(1))
                        .build());
        FailureClassifier lambda = (r, e) -> Outcome.SUCCESS;
        CircuitBreakerConfig withLambda =
                CircuitBreakerConfig.builder(a).classifier(lambda).build();
        assertEquals(
                withLambda, CircuitBreakerConfig.builder(a).classifier(lambda).build(), "the same lambda");
        assertNotEquals(
                withLambda,
                CircuitBreakerConfig.builder(a)
                        .classifier((r, e) -> Outcome.SUCCESS)
                        .build(),
                "another lambda, by identity");
    }

    @Test
    void aBuilderStartedFromAConfigKeepsWhatItDoesNotSet() {
        CircuitBreakerConfig base = CircuitBreakerConfig.builder()
                .cooldown(Duration.ofSeconds(7))
                .probes(3)
                .slowCallThreshold(Duration.ofSeconds(1))
                .trackedPermits(true)
                .build();
        CircuitBreakerConfig more = CircuitBreakerConfig.builder(base).probes(4).build();
        assertEquals(HalfOpenPolicies.fixed(Duration.ofSeconds(7), 4), more.halfOpen(), "the cooldown is kept");
        assertEquals(Optional.of(Duration.ofSeconds(1)), more.slowCallThreshold());
        assertTrue(more.trackedPermits());
        HalfOpenPolicy custom = HalfOpenPolicies.fixed(Duration.ZERO, 9);
        CircuitBreakerConfig replaced =
                CircuitBreakerConfig.builder(base).halfOpen(custom).build();
        assertEquals(custom, replaced.halfOpen(), "a policy may replace an inherited cooldown and probes");
        assertEquals(base, CircuitBreakerConfig.builder(base).build());
    }

    @Test
    void cooldownOrProbesWithAPolicyIsAnErrorNamingBoth() {
        HalfOpenPolicy policy = new HalfOpenPolicy() {
            @Override
            public int probes(int consecutiveOpens) {
                return 1;
            }

            @Override
            public long cooldownNanos(int consecutiveOpens) {
                return 0;
            }

            @Override
            public Verdict decide(int consecutiveOpens, int successes, int failures) {
                return Verdict.CLOSE;
            }

            @Override
            public String toString() {
                return "custom";
            }
        };
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> CircuitBreakerConfig.builder().halfOpen(policy).probes(2).build());
        assertEquals(
                "halfOpen(custom) sets the cooldown and probes itself; remove cooldown(null) and probes(2)",
                e.getMessage());
        CircuitBreakerConfig withPolicy =
                CircuitBreakerConfig.builder().halfOpen(policy).build();
        assertThrows(
                IllegalArgumentException.class,
                () -> CircuitBreakerConfig.builder(withPolicy)
                        .cooldown(Duration.ofSeconds(1))
                        .build(),
                "an inherited policy conflicts with a cooldown just as a set one does");
    }

    @Test
    void aBreakerStartsFromTheConfigAndKeepsItsOwnTickerAndListeners() {
        CircuitBreakerConfig config = CircuitBreakerConfig.builder()
                .window(Windows.consecutiveFailures(1))
                .cooldown(Duration.ofMillis(10))
                .build();
        FakeTicker ticker = new FakeTicker();
        java.util.List<BreakerEvent> heard = new java.util.ArrayList<>();
        CircuitBreaker one = CircuitBreaker.builder("one", config)
                .ticker(ticker)
                .eventExecutor(Runnable::run)
                .listener(heard::add)
                .build();
        CircuitBreaker two =
                CircuitBreaker.builder("two", config).ticker(ticker).probes(2).build();
        assertEquals(config, one.config());
        assertEquals(
                CircuitBreakerConfig.builder(config).probes(2).build(),
                two.config(),
                "the builder may change a setting");
        one.tryAcquire().onFailure(0, null);
        two.tryAcquire().onFailure(0, null);
        assertEquals(State.OPEN, one.state());
        assertEquals(1, heard.size(), "listeners are the breaker's own");
        ticker.advanceMillis(10);
        assertTrue(two.tryAcquire().granted());
        assertTrue(two.tryAcquire().granted(), "two probes for the breaker that asked for them");
        assertTrue(one.tryAcquire().granted());
        assertTrue(!one.tryAcquire().granted());
        assertThrows(NullPointerException.class, () -> CircuitBreaker.builder("x", null));
        assertThrows(NullPointerException.class, () -> CircuitBreakerConfig.builder(null));
    }

    @Test
    void badValuesAreRefusedByTheConfigBuilderAsByTheBreakerBuilder() {
        assertEquals(
                "probes must be >= 1, was 0",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> CircuitBreakerConfig.builder().probes(0))
                        .getMessage());
        assertEquals(
                "slowCallThreshold must be > 0, was PT0S",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> CircuitBreakerConfig.builder().slowCallThreshold(Duration.ZERO))
                        .getMessage());
        assertEquals(
                "classifier",
                assertThrows(
                                NullPointerException.class,
                                () -> CircuitBreakerConfig.builder().classifier(null))
                        .getMessage());
    }

    @Test
    void configsThatDifferSpreadOverHashCodes() {
        java.util.Set<Integer> hashes = new java.util.HashSet<>();
        for (int probes = 1; probes <= 8; probes++) {
            hashes.add(CircuitBreakerConfig.builder().probes(probes).build().hashCode());
        }
        assertEquals(8, hashes.size(), "eight configs differing in probes share no hash code: " + hashes);
    }

    private static HalfOpenPolicy policy(int probes, long firstCooldownNanos) {
        return new HalfOpenPolicy() {
            @Override
            public int probes(int consecutiveOpens) {
                return probes;
            }

            @Override
            public long cooldownNanos(int consecutiveOpens) {
                return firstCooldownNanos;
            }

            @Override
            public Verdict decide(int consecutiveOpens, int successes, int failures) {
                return Verdict.CLOSE;
            }

            @Override
            public String toString() {
                return "custom";
            }
        };
    }

    @Test
    void aPolicyThatAnswersNoProbesOrANegativeCooldownIsRefusedByName() {
        assertEquals(
                "halfOpen policy custom: probes(1) must be >= 1, was 0",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> CircuitBreakerConfig.builder()
                                        .halfOpen(policy(0, 0))
                                        .build())
                        .getMessage());
        assertEquals(
                "halfOpen policy custom: cooldownNanos(1) must be >= 0, was -1",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> CircuitBreakerConfig.builder()
                                        .halfOpen(policy(1, -1))
                                        .build())
                        .getMessage());
        HalfOpenPolicy smallest = policy(1, 0);
        assertSame(
                smallest,
                CircuitBreakerConfig.builder().halfOpen(smallest).build().halfOpen());
    }

    @Test
    void pluginsThatCannotDescribeThemselvesArePrintedByClassAndIdentity() {
        dev.breaker.spi.WindowFactory window = new dev.breaker.spi.WindowFactory() {
            @Override
            public dev.breaker.spi.Window create(Ticker ticker) {
                return Windows.consecutiveFailures(1).create(ticker);
            }

            @Override
            public String describe() {
                throw new IllegalStateException("describe bug");
            }
        };
        CircuitBreakerConfig c = CircuitBreakerConfig.builder().window(window).build();
        String identity = window.getClass().getName() + "@" + Integer.toHexString(System.identityHashCode(window));
        assertTrue(
                c.toString().startsWith("CircuitBreakerConfig[window=" + identity + ", halfOpen=fixed("), c.toString());
    }
}
