package dev.breaker.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.LongRange;

/**
 * {@link RateThresholds#fewestFailuresTripping} and {@link RateThresholds#fewestSlowCallsTripping}
 * against the rule itself: the answer trips, one less does not, whatever the rounding of the
 * threshold times the calls.
 */
class FewestTrippingProperties {

    @Provide
    Arbitrary<Double> thresholds() {
        return Arbitraries.oneOf(
                Arbitraries.of(0.1, 0.2, 0.3, 0.5, 0.7, 0.9, 1.0, 1.0 / 3, Double.MIN_VALUE, Math.nextDown(1.0)),
                Arbitraries.integers().between(1, 1000).map(permille -> permille / 1000.0),
                Arbitraries.doubles().between(0.0, 1.0).ofScale(9).filter(t -> t > 0));
    }

    @Property(tries = 2000)
    void theFewestFailuresTripAndOneLessDoesNot(
            @ForAll("thresholds") double threshold, @ForAll @LongRange(min = 1, max = 2_000_000) long calls) {
        RateThresholds rule = new RateThresholds(threshold, 1.0, 1);
        long f = rule.fewestFailuresTripping(calls);
        assertTrue(f >= 1 && f <= calls, "between 1 and the calls: " + f);
        assertTrue(rule.trips(calls, f, 0), f + " of " + calls + " reach " + threshold);
        assertFalse(rule.trips(calls, f - 1, 0), (f - 1) + " of " + calls + " stay below " + threshold);
    }

    @Property(tries = 2000)
    void theFewestSlowCallsTripAndOneLessDoesNot(
            @ForAll("thresholds") double threshold, @ForAll @LongRange(min = 1, max = 2_000_000) long calls) {
        RateThresholds rule = new RateThresholds(1.0, threshold, 1);
        long s = rule.fewestSlowCallsTripping(calls);
        assertTrue(s >= 1 && s <= calls, "between 1 and the calls: " + s);
        assertTrue(rule.trips(calls, 0, s));
        assertFalse(rule.trips(calls, 0, s - 1));
    }

    @Example
    void workedValues() {
        RateThresholds rule = new RateThresholds(0.3, 0.5, 1);
        assertEquals(3, rule.fewestFailuresTripping(10), "3 of 10 reach 0.3, though 0.3 * 10 rounds above 3");
        assertEquals(5, rule.fewestSlowCallsTripping(10));
        assertEquals(1, rule.fewestFailuresTripping(1));
        assertEquals(34, new RateThresholds(1.0 / 3, 1.0, 1).fewestFailuresTripping(100));
        assertEquals(100, new RateThresholds(1.0, 1.0, 1).fewestSlowCallsTripping(100));
    }

    @Example
    void noCallsIsRefusedByName() {
        RateThresholds rule = new RateThresholds(0.5, 0.5, 1);
        assertEquals(
                "calls must be >= 1, was 0",
                assertThrows(IllegalArgumentException.class, () -> rule.fewestFailuresTripping(0))
                        .getMessage());
        assertThrows(IllegalArgumentException.class, () -> rule.fewestSlowCallsTripping(-5));
    }
}
