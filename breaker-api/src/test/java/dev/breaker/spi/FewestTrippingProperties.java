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

/**
 * {@link RateThresholds#fewestFailuresTripping} and {@link RateThresholds#fewestSlowCallsTripping}
 * against the rule itself: the answer trips, one less does not, whatever the rounding of the
 * threshold times the calls.
 */
class FewestTrippingProperties {

    /** A threshold and a number of calls. */
    record Case(double threshold, long calls) {}

    /**
     * Mostly thresholds that are fractions ({@code k / n}, or the double just above one) with calls a
     * multiple of {@code n}: there the product rounds either side of the answer (9/11 x 77 is
     * 63.00000000000001, the answer 63; just above 1/3, x 3 is 1.0, the answer 2). Then decimals
     * written as percentages, then any threshold and any number of calls.
     */
    @Provide
    Arbitrary<Case> cases() {
        Arbitrary<Case> exact = Arbitraries.integers()
                .between(1, 1000)
                .flatMap(n -> Arbitraries.integers()
                        .between(1, n)
                        .flatMap(k -> Arbitraries.longs()
                                .between(1, 2_000)
                                .flatMap(m -> Arbitraries.of(
                                        new Case((double) k / n, (long) n * m),
                                        new Case(Math.min(1.0, Math.nextUp((double) k / n)), (long) n * m)))));
        Arbitrary<Case> decimal = Arbitraries.integers()
                .between(1, 100)
                .flatMap(
                        percent -> Arbitraries.longs().between(1, 20_000).map(m -> new Case(percent / 100.0, 100 * m)));
        Arbitrary<Case> any = Arbitraries.doubles()
                .between(0.0, 1.0)
                .ofScale(9)
                .filter(t -> t > 0)
                .flatMap(t -> Arbitraries.longs().between(1, 2_000_000).map(c -> new Case(t, c)));
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(4, exact), net.jqwik.api.Tuple.of(4, decimal), net.jqwik.api.Tuple.of(2, any));
    }

    @Property(tries = 1000)
    void theFewestFailuresTripAndOneLessDoesNot(@ForAll("cases") Case c) {
        RateThresholds rule = new RateThresholds(c.threshold(), 1.0, 1);
        long f = rule.fewestFailuresTripping(c.calls());
        assertTrue(f >= 1 && f <= c.calls(), "between 1 and the calls: " + f);
        assertTrue(rule.trips(c.calls(), f, 0), f + " of " + c.calls() + " reach " + c.threshold());
        assertFalse(rule.trips(c.calls(), f - 1, 0), (f - 1) + " of " + c.calls() + " stay below " + c.threshold());
    }

    @Property(tries = 1000)
    void theFewestSlowCallsTripAndOneLessDoesNot(@ForAll("cases") Case c) {
        RateThresholds rule = new RateThresholds(1.0, c.threshold(), 1);
        long s = rule.fewestSlowCallsTripping(c.calls());
        assertTrue(s >= 1 && s <= c.calls(), "between 1 and the calls: " + s);
        assertTrue(rule.trips(c.calls(), 0, s));
        assertFalse(rule.trips(c.calls(), 0, s - 1));
    }

    @Example
    void workedValues() {
        RateThresholds rule = new RateThresholds(0.3, 0.5, 1);
        assertEquals(3, rule.fewestFailuresTripping(10), "3 of 10 reach 0.3, though 0.3 * 10 rounds above 3");
        assertEquals(5, rule.fewestSlowCallsTripping(10));
        assertEquals(1, rule.fewestFailuresTripping(1));
        assertEquals(34, new RateThresholds(1.0 / 3, 1.0, 1).fewestFailuresTripping(100));
        assertEquals(100, new RateThresholds(1.0, 1.0, 1).fewestSlowCallsTripping(100));
        assertEquals(63, new RateThresholds(9.0 / 11, 1.0, 1).fewestFailuresTripping(77), "the product overshoots");
        assertEquals(2, new RateThresholds(Math.nextUp(1.0 / 3), 1.0, 1).fewestFailuresTripping(3), "it falls short");
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
