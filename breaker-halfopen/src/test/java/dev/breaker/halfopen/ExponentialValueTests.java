package dev.breaker.halfopen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.breaker.CircuitBreakerConfig;
import dev.breaker.halfopen.internal.Exponential;
import dev.breaker.spi.HalfOpenPolicy;
import java.time.Duration;
import java.util.List;
import java.util.function.DoubleSupplier;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The policy is a value: built alike, equal (so two {@link CircuitBreakerConfig}s with it are
 * equal); any setting different, not equal; every setting kept as given.
 */
class ExponentialValueTests {

    private static final DoubleSupplier HALF = () -> 0.5;

    private static ExponentialPolicy.Builder base() {
        return ExponentialPolicy.builder()
                .initial(Duration.ofSeconds(1))
                .multiplier(3)
                .max(Duration.ofMinutes(2))
                .jitter(0.25)
                .random(HALF)
                .calmPeriod(Duration.ofMinutes(5))
                .probes(4)
                .closeAfter(3)
                .rampUp(Duration.ofSeconds(30))
                .rampFrom(0.2);
    }

    @Test
    void builtAlikeIsEqualAndSoAreConfigsWithIt() {
        HalfOpenPolicy a = base().build();
        HalfOpenPolicy b = base().build();
        assertEquals(a, b);
        assertEquals(a.hashCode(), b.hashCode());
        assertEquals(
                CircuitBreakerConfig.builder().halfOpen(a).build(),
                CircuitBreakerConfig.builder().halfOpen(b).build());
        assertEquals(
                ExponentialPolicy.builder().build(), ExponentialPolicy.builder().build(), "defaults too");
        assertNotEquals(a, "exponential");
    }

    @Test
    void anyDifferentSettingIsADifferentPolicy() {
        HalfOpenPolicy a = base().build();
        List<UnaryOperator<ExponentialPolicy.Builder>> changes = List.of(
                b -> b.initial(Duration.ofSeconds(2)),
                b -> b.multiplier(2),
                b -> b.max(Duration.ofMinutes(3)),
                b -> b.jitter(0.5),
                b -> b.random(() -> 0.5),
                b -> b.calmPeriod(Duration.ofMinutes(6)),
                b -> b.probes(5),
                b -> b.closeAfter(2),
                b -> b.rampUp(Duration.ofSeconds(31)),
                b -> b.rampFrom(0.3));
        for (int i = 0; i < changes.size(); i++) {
            HalfOpenPolicy other = changes.get(i).apply(base()).build();
            assertNotEquals(a, other, "change " + i);
        }
    }

    @Test
    void everySettingIsKeptAsGiven() {
        Exponential e = (Exponential) base().build();
        assertEquals(Duration.ofSeconds(1).toNanos(), e.initialNanos());
        assertEquals(3.0, e.multiplier());
        assertEquals(Duration.ofMinutes(2).toNanos(), e.maxNanos());
        assertEquals(0.25, e.jitter());
        assertSame(HALF, e.random());
        assertEquals(Duration.ofMinutes(5).toNanos(), e.calmNanos());
        assertEquals(Duration.ofMinutes(5).toNanos(), e.calmPeriodNanos());
        assertEquals(4, e.probes());
        assertEquals(3, e.closeAfter());
        assertEquals(Duration.ofSeconds(30).toNanos(), e.rampNanos());
        assertEquals(Duration.ofSeconds(30).toNanos(), e.rampUpNanos());
        assertEquals(0.2, e.rampFrom());
    }

    @Test
    void withoutARampOrPastItsEndEveryRequestIsAdmitted() {
        HalfOpenPolicy none = ExponentialPolicy.builder().build();
        assertEquals(1.0, none.rampShare(0), "no ramp: the whole share, not 0 / 0");
        HalfOpenPolicy ramped = base().build();
        assertEquals(1.0, ramped.rampShare(Duration.ofSeconds(30).toNanos()));
        assertEquals(1.0, ramped.rampShare(Long.MAX_VALUE));
        assertEquals(0.2, ramped.rampShare(-5), "a ticker that stepped back: the start of the ramp");
    }

    @Test
    void withRandomKeepsEverySettingButTheRandomSource() {
        DoubleSupplier other = () -> 0.25;
        HalfOpenPolicy swapped = ExponentialPolicy.withRandom(base().build(), other);
        assertEquals(base().random(other).build(), swapped);
        assertEquals(Duration.ofSeconds(1).toNanos() - Duration.ofSeconds(1).toNanos() / 16, swapped.cooldownNanos(1));
        HalfOpenPolicy named = dev.breaker.HalfOpenPolicies.named("exponential", java.util.Map.of("jitter", "0.5"));
        assertEquals(
                ExponentialPolicy.builder().jitter(0.5).random(other).build(),
                ExponentialPolicy.withRandom(named, other));
    }

    @Test
    void withRandomRefusesAnotherPolicyAndNulls() {
        HalfOpenPolicy fixed = dev.breaker.HalfOpenPolicies.fixed(Duration.ofSeconds(1), 1);
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(
                IllegalArgumentException.class, () -> ExponentialPolicy.withRandom(fixed, HALF));
        assertEquals("not an exponential policy: " + fixed, e.getMessage());
        org.junit.jupiter.api.Assertions.assertThrows(
                NullPointerException.class, () -> ExponentialPolicy.withRandom(base().build(), null));
        org.junit.jupiter.api.Assertions.assertThrows(
                NullPointerException.class, () -> ExponentialPolicy.withRandom(null, HALF));
    }
}
