package dev.breaker.halfopen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breaker.CircuitBreaker;
import dev.breaker.HalfOpenPolicies;
import dev.breaker.Permit;
import dev.breaker.State;
import dev.breaker.Windows;
import dev.breaker.spi.HalfOpenPolicy;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A hostile review of the exponential policy (SPEC rules 14 to 16): its arithmetic at absurd
 * settings, its jitter against any random source, its provider's parsing and messages, and the
 * worked example through a breaker. A test marked {@code @Disabled("defect: ...")} fails on the
 * code it was written against; the others are attacks the code withstood.
 */
class ExponentialAttackTests {

    private static final long SECOND = 1_000_000_000L;

    // ================================================================ defects

    /**
     * Exponential.baseCooldownNanos promises "min(initial * multiplier^(k-1), max), exact in whole
     * nanoseconds while below the cap". With a decimal multiplier the double product lands just
     * under the whole number and is truncated: 1 s x 1.2^3 is 1.728 s, the policy answers
     * 1.727999999 s; 100 ns x 1.15 is 115 ns, the policy answers 114. One nanosecond short of
     * rule 14's formula (rounding to the nearest nanosecond would be exact for these).
     */
    @ParameterizedTest(name = "{0} ns x {1}^({2}-1) = {3} ns")
    @CsvSource({
        "1000000000, 1.2, 4, 1728000000",
        "1000000000, 1.15, 3, 1322500000",
        "1000000000, 1.7, 3, 2890000000",
        "100, 1.15, 2, 115",
    })
    void cooldownsBelowTheCapAreExactInWholeNanoseconds(long initial, double multiplier, int k, long expected) {
        HalfOpenPolicy p = ExponentialPolicy.builder()
                .initial(Duration.ofNanos(initial))
                .multiplier(multiplier)
                .max(Duration.ofDays(1))
                .build();
        assertEquals(expected, p.cooldownNanos(k));
    }

    /**
     * README: "values are written as people write them (0.5 or 50%, ...)", and Settings reads
     * "rates ... numbers or percentages". The count and time windows read their rates so; the
     * exponential provider reads rampFrom (a share in (0, 1]) and jitter (a fraction) as plain
     * numbers only, so "rampFrom: 10%" in a config file is refused.
     */
    @Test
    void sharesWrittenAsPercentagesAreRead() {
        HalfOpenPolicy byPercent =
                HalfOpenPolicies.named("exponential", Map.of("rampUp", "30s", "rampFrom", "10%", "jitter", "20%"));
        HalfOpenPolicy byNumber =
                HalfOpenPolicies.named("exponential", Map.of("rampUp", "30s", "rampFrom", "0.1", "jitter", "0.2"));
        assertEquals(byNumber.toString(), byPercent.toString());
    }

    // ================================================================ attacks the code withstood

    /** The SPEC's exponential worked example, exactly, through a breaker whose policy was built by name, across the ticker's wrap. */
    @Test
    void theWorkedExampleHoldsByNameAcrossTheWrap() {
        AtomicLong now = new AtomicLong();
        long start = Long.MAX_VALUE - 2 * SECOND;
        CircuitBreaker b = CircuitBreaker.builder("worked")
                .window(Windows.consecutiveFailures(1))
                .halfOpen(HalfOpenPolicies.named(
                        "exponential", Map.of("initial", "1s", "multiplier", "2", "max", "4s", "probes", "1")))
                .ticker(() -> start + now.get())
                .build();
        now.set(0);
        b.tryAcquire().onFailure(0, new IllegalStateException("down")); // OPEN until 1 s
        long[][] rounds = {{SECOND, 3 * SECOND}, {3 * SECOND, 7 * SECOND}, {7 * SECOND, 11 * SECOND}};
        for (long[] round : rounds) {
            now.set(round[0] - 1);
            assertFalse(b.tryAcquire().granted(), "rejected just before " + round[0]);
            now.set(round[0]);
            Permit probe = b.tryAcquire();
            assertTrue(probe.isProbe(), "probe at " + round[0]);
            probe.onFailure(0, new IllegalStateException("down")); // OPEN until round[1]
        }
        now.set(11 * SECOND - 1);
        assertFalse(b.tryAcquire().granted());
        now.set(11 * SECOND);
        b.tryAcquire().onSuccess(0);
        assertEquals(State.CLOSED, b.state());
        now.set(12 * SECOND);
        b.tryAcquire().onFailure(0, new IllegalStateException("down")); // the count started over
        now.set(13 * SECOND - 1);
        assertFalse(b.tryAcquire().granted());
        now.set(13 * SECOND);
        assertTrue(b.tryAcquire().isProbe(), "OPEN until 13 s");
    }

    /**
     * Rule 14's jitter range, [w * (1 - j), w], for extreme waits and jitters and any random
     * source: values in [0, 1) are used, anything else (NaN, 1, negatives, infinities) counts as
     * 0 and leaves w.
     */
    @Test
    void jitterStaysInItsRangeForAnyRandomSource() {
        long[] waits = {1, 3, SECOND, Long.MAX_VALUE};
        double[] jitters = {Double.MIN_VALUE, 0.5, Math.nextDown(1.0)};
        double[] good = {0, Double.MIN_VALUE, 0.5, Math.nextDown(1.0)};
        double[] bad = {Double.NaN, 1.0, -0.5, -Double.MIN_VALUE, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY};
        for (long w : waits) {
            for (double j : jitters) {
                BigDecimal low = new BigDecimal(w)
                        .multiply(BigDecimal.ONE.subtract(new BigDecimal(j)))
                        .setScale(0, RoundingMode.CEILING);
                for (double r : good) {
                    long c = jittered(w, j, r).cooldownNanos(1);
                    String at = "w=" + w + " j=" + j + " r=" + r + ": " + c;
                    assertTrue(c <= w && new BigDecimal(c).compareTo(low) >= 0, at);
                }
                for (double r : bad) {
                    assertEquals(w, jittered(w, j, r).cooldownNanos(1), "w=" + w + " j=" + j + " r=" + r);
                }
            }
        }
        assertEquals(0, jittered(0, 0.9, 0.5).cooldownNanos(1), "no wait, no jitter");
    }

    private static HalfOpenPolicy jittered(long w, double jitter, double r) {
        return ExponentialPolicy.builder()
                .initial(Duration.ofNanos(w))
                .max(Duration.ofNanos(w))
                .jitter(jitter)
                .random(() -> r)
                .build();
    }

    /** Absurd settings give sane answers: no overflow, no NaN leaking out, shares in (0, 1]. */
    @Test
    void absurdSettingsGiveSaneAnswers() {
        HalfOpenPolicy huge = ExponentialPolicy.builder()
                .initial(Duration.ofNanos(1))
                .multiplier(1e308)
                .max(Duration.ofNanos(Long.MAX_VALUE))
                .probes(Integer.MAX_VALUE)
                .closeAfter(1)
                .rampUp(Duration.ofNanos(Long.MAX_VALUE))
                .rampFrom(1e-300)
                .build();
        assertEquals(1, huge.cooldownNanos(1));
        assertEquals(Long.MAX_VALUE, huge.cooldownNanos(2));
        assertEquals(Long.MAX_VALUE, huge.cooldownNanos(Integer.MAX_VALUE));
        assertEquals(HalfOpenPolicy.Verdict.CLOSE, huge.decide(1, 1, 0));
        assertEquals(HalfOpenPolicy.Verdict.WAIT, huge.decide(1, 0, Integer.MAX_VALUE - 1));
        assertEquals(HalfOpenPolicy.Verdict.OPEN, huge.decide(1, 0, Integer.MAX_VALUE));
        for (long e : new long[] {0, 1, SECOND, Long.MAX_VALUE / 2, Long.MAX_VALUE - 1}) {
            double share = huge.rampShare(e);
            assertTrue(share > 0 && share <= 1, "share at " + e + ": " + share);
        }
        HalfOpenPolicy zero = ExponentialPolicy.builder()
                .initial(Duration.ZERO)
                .multiplier(1e308) // 0 x infinity is NaN in the double arithmetic
                .max(Duration.ofDays(1))
                .jitter(0.5)
                .build();
        for (int k : new int[] {1, 2, 3, 100, Integer.MAX_VALUE}) {
            assertEquals(0, zero.cooldownNanos(k), "k=" + k);
        }
    }

    /** A round of Integer.MAX_VALUE probes closing on the first success, through a breaker. */
    @Test
    void aRoundOfIntegerMaxValueProbesClosesOnTheFirstSuccess() {
        AtomicLong now = new AtomicLong();
        CircuitBreaker b = CircuitBreaker.builder("many")
                .window(Windows.consecutiveFailures(1))
                .halfOpen(ExponentialPolicy.builder()
                        .initial(Duration.ofNanos(10))
                        .probes(Integer.MAX_VALUE)
                        .closeAfter(1)
                        .build())
                .ticker(now::get)
                .build();
        b.tryAcquire().onFailure(0, new IllegalStateException("down"));
        now.set(10);
        List<Permit> probes = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            Permit p = b.tryAcquire();
            assertTrue(p.isProbe());
            probes.add(p);
        }
        for (int i = 0; i < 9_999; i++) {
            probes.get(i).onFailure(0, new IllegalStateException("still down"));
        }
        assertEquals(State.HALF_OPEN, b.state(), "one success is still possible");
        probes.get(9_999).onSuccess(0);
        assertEquals(State.CLOSED, b.state());
    }

    /**
     * Rule 12 through the provider: every bad value is an IllegalArgumentException that names the
     * policy, the key and the value; an unknown key lists every known one.
     */
    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '"',
            value = {
                "initial|-PT1S|initial must not be negative, was -PT1S",
                "initial|-1s|initial must be a duration such as PT10S, 500ms, 30s, 5m or 1h, was '-1s'",
                "initial|soon|initial must be a duration such as PT10S, 500ms, 30s, 5m or 1h, was 'soon'",
                "multiplier|0.5|multiplier must be >= 1 and finite, was 0.5",
                "multiplier|NaN|multiplier must be a number such as 0.5, was 'NaN'",
                "multiplier|1e309|multiplier must be a finite number, was '1e309'",
                "max|1s|max must be >= initial (PT10S), was PT1S",
                "jitter|1|jitter must be in [0, 1), was 1.0",
                "jitter|-0.1|jitter must be in [0, 1), was -0.1",
                "calmPeriod|-PT1S|calmPeriod must not be negative, was -PT1S",
                "probes|0|probes must be >= 1, was 0",
                "probes|2147483648|probes must be an integer from -2147483648 to 2147483647, was '2147483648'",
                "closeAfter|0|closeAfter must be >= 1, was 0",
                "closeAfter|2|closeAfter must be <= probes (1), was 2",
                "rampUp|300000d|rampUp must be at most PT2562047H47M16.854775807S",
                "rampFrom|0|rampFrom must be in (0, 1], was 0.0",
                "rampFrom|1.5|rampFrom must be in (0, 1], was 1.5",
            })
    void everyBadValueIsNamedWithItsKey(String key, String value, String message) {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> HalfOpenPolicies.named("exponential", Map.of(key, value)));
        assertTrue(e.getMessage().startsWith("half-open policy 'exponential': " + message), e.getMessage());
    }

    @Test
    void anUnknownKeyListsTheKnownOnes() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> HalfOpenPolicies.named("exponential", Map.of("cooldown", "10s")));
        assertEquals(
                "half-open policy 'exponential': unknown setting 'cooldown' (value '10s'); known settings: [calmPeriod,"
                        + " closeAfter, initial, jitter, max, multiplier, probes, rampFrom, rampUp]",
                e.getMessage());
    }
}
