package dev.breaker.halfopen;

import static dev.breaker.halfopen.ManualTicker.MILLI;
import static dev.breaker.halfopen.ManualTicker.SECOND;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breaker.HalfOpenPolicies;
import dev.breaker.halfopen.internal.Exponential;
import dev.breaker.spi.HalfOpenPolicy;
import java.time.Duration;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad settings fail when the policy is built, with an IllegalArgumentException that names the
 * setting and the value (SPEC rule 12), both through the typed builder and through
 * {@code HalfOpenPolicies.named("exponential", ...)} (then prefixed with the provider).
 */
class BuilderValidationTests {

    private static final String PREFIX = "half-open policy 'exponential': ";

    static Stream<Arguments> badBuilderSettings() {
        return Stream.of(
                bad("multiplier 0.5", b -> b.multiplier(0.5), "multiplier must be >= 1 and finite, was 0.5"),
                bad("multiplier NaN", b -> b.multiplier(Double.NaN), "multiplier must be >= 1 and finite, was NaN"),
                bad(
                        "multiplier +inf",
                        b -> b.multiplier(Double.POSITIVE_INFINITY),
                        "multiplier must be >= 1 and finite, was Infinity"),
                bad("multiplier 0", b -> b.multiplier(0), "multiplier must be >= 1 and finite, was 0.0"),
                bad(
                        "max below initial",
                        b -> b.initial(Duration.ofSeconds(2)).max(Duration.ofSeconds(1)),
                        "max must be >= initial (PT2S), was PT1S"),
                bad(
                        "initial above the default max, max given below it",
                        b -> b.initial(Duration.ofMinutes(6)).max(Duration.ofMinutes(5)),
                        "max must be >= initial (PT6M), was PT5M"),
                bad(
                        "closeAfter above probes",
                        b -> b.probes(3).closeAfter(4),
                        "closeAfter must be <= probes (3), was 4"),
                bad(
                        "closeAfter above the default probes",
                        b -> b.closeAfter(2),
                        "closeAfter must be <= probes (1), was 2"),
                bad("closeAfter 0", b -> b.closeAfter(0), "closeAfter must be >= 1, was 0"),
                bad("closeAfter -1", b -> b.closeAfter(-1), "closeAfter must be >= 1, was -1"),
                bad("probes 0", b -> b.probes(0), "probes must be >= 1, was 0"),
                bad("rampFrom 0", b -> b.rampFrom(0), "rampFrom must be in (0, 1], was 0.0"),
                bad("rampFrom -0.1", b -> b.rampFrom(-0.1), "rampFrom must be in (0, 1], was -0.1"),
                bad("rampFrom 1.5", b -> b.rampFrom(1.5), "rampFrom must be in (0, 1], was 1.5"),
                bad("rampFrom NaN", b -> b.rampFrom(Double.NaN), "rampFrom must be in (0, 1], was NaN"),
                bad("jitter -0.1", b -> b.jitter(-0.1), "jitter must be in [0, 1), was -0.1"),
                bad("jitter 1", b -> b.jitter(1.0), "jitter must be in [0, 1), was 1.0"),
                bad("jitter NaN", b -> b.jitter(Double.NaN), "jitter must be in [0, 1), was NaN"),
                bad("initial -1 s", b -> b.initial(Duration.ofSeconds(-1)), "initial must be >= 0, was PT-1S"),
                bad("max -1 ns", b -> b.max(Duration.ofNanos(-1)), "max must be >= 0, was PT-0.000000001S"),
                bad("calmPeriod -1 s", b -> b.calmPeriod(Duration.ofSeconds(-1)), "calmPeriod must be >= 0, was PT-1S"),
                bad("rampUp -1 s", b -> b.rampUp(Duration.ofSeconds(-1)), "rampUp must be >= 0, was PT-1S"),
                bad(
                        "initial too long",
                        b -> b.initial(Duration.ofDays(110_000)),
                        "initial must be at most PT2562047H47M16.854775807S, was PT2640000H"));
    }

    private static Arguments bad(String name, Consumer<ExponentialPolicy.Builder> setting, String message) {
        return Arguments.of(name, setting, message);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badBuilderSettings")
    void badSettingFailsWithItsNameAndValue(String name, Consumer<ExponentialPolicy.Builder> setting, String message) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> {
            ExponentialPolicy.Builder b = ExponentialPolicy.builder();
            setting.accept(b);
            b.build();
        });
        assertEquals(message, e.getMessage());
    }

    @Test
    void nullSettingsNameTheSetting() {
        ExponentialPolicy.Builder b = ExponentialPolicy.builder();
        assertEquals(
                "initial",
                assertThrows(NullPointerException.class, () -> b.initial(null)).getMessage());
        assertEquals(
                "max",
                assertThrows(NullPointerException.class, () -> b.max(null)).getMessage());
        assertEquals(
                "calmPeriod",
                assertThrows(NullPointerException.class, () -> b.calmPeriod(null))
                        .getMessage());
        assertEquals(
                "rampUp",
                assertThrows(NullPointerException.class, () -> b.rampUp(null)).getMessage());
        assertEquals(
                "random",
                assertThrows(NullPointerException.class, () -> b.random(null)).getMessage());
        assertEquals(exponential(), b.build().toString(), "the builder is unchanged by the refusals");
    }

    /** A setter that refuses its value leaves the builder as it was; a build that fails can be fixed and built. */
    @Test
    void badSettingLeavesNothingBuiltAndNothingChanged() {
        ExponentialPolicy.Builder b = ExponentialPolicy.builder()
                .multiplier(3)
                .probes(4)
                .closeAfter(2)
                .rampFrom(0.5);
        assertThrows(IllegalArgumentException.class, () -> b.multiplier(0.5));
        assertThrows(IllegalArgumentException.class, () -> b.probes(0));
        assertThrows(IllegalArgumentException.class, () -> b.closeAfter(0));
        assertThrows(IllegalArgumentException.class, () -> b.rampFrom(0));
        assertThrows(IllegalArgumentException.class, () -> b.jitter(1));
        assertThrows(IllegalArgumentException.class, () -> b.initial(Duration.ofSeconds(-1)));
        Exponential p = (Exponential) b.build();
        assertEquals(3.0, p.multiplier());
        assertEquals(4, p.probes());
        assertEquals(2, p.closeAfter());
        assertEquals(0.5, p.rampFrom());
        assertEquals(0.0, p.jitter());
        assertEquals(10 * SECOND, p.initialNanos());

        b.probes(1); // closeAfter 2 > probes 1
        assertThrows(IllegalArgumentException.class, b::build);
        b.probes(2);
        assertEquals(2, b.build().probes(1), "fixed, it builds");
    }

    /** Without max, the cap is 5 min, or initial when that is longer. */
    @Test
    void defaultMaxIsFiveMinutesOrInitial() {
        assertEquals(300 * SECOND, ExponentialPolicy.builder().build().cooldownNanos(100));
        HalfOpenPolicy longInitial =
                ExponentialPolicy.builder().initial(Duration.ofMinutes(10)).build();
        assertEquals(600 * SECOND, longInitial.cooldownNanos(1));
        assertEquals(600 * SECOND, longInitial.cooldownNanos(5));
    }

    // ---------------------------------------------------------------- by name

    static Stream<Arguments> badNamedSettings() {
        return Stream.of(
                Arguments.of(Map.of("multiplier", "0.5"), "multiplier must be >= 1 and finite, was 0.5"),
                Arguments.of(Map.of("multiplier", "NaN"), "multiplier must be a number such as 0.5, was 'NaN'"),
                Arguments.of(
                        Map.of("multiplier", "Infinity"), "multiplier must be a number such as 0.5, was 'Infinity'"),
                Arguments.of(Map.of("multiplier", "1e400"), "multiplier must be a finite number, was '1e400'"),
                Arguments.of(Map.of("initial", "2s", "max", "1s"), "max must be >= initial (PT2S), was PT1S"),
                Arguments.of(Map.of("probes", "3", "closeAfter", "4"), "closeAfter must be <= probes (3), was 4"),
                Arguments.of(Map.of("closeAfter", "0"), "closeAfter must be >= 1, was 0"),
                Arguments.of(Map.of("probes", "0"), "probes must be >= 1, was 0"),
                Arguments.of(Map.of("probes", "two"), "probes must be an integer, was 'two'"),
                Arguments.of(Map.of("rampFrom", "0"), "rampFrom must be in (0, 1], was 0.0"),
                Arguments.of(Map.of("rampFrom", "-0.1"), "rampFrom must be in (0, 1], was -0.1"),
                Arguments.of(Map.of("rampFrom", "1.5"), "rampFrom must be in (0, 1], was 1.5"),
                Arguments.of(Map.of("jitter", "-0.1"), "jitter must be in [0, 1), was -0.1"),
                Arguments.of(Map.of("jitter", "1.0"), "jitter must be in [0, 1), was 1.0"),
                Arguments.of(Map.of("initial", "-PT1S"), "initial must not be negative, was -PT1S"),
                Arguments.of(Map.of("max", "-PT1S"), "max must not be negative, was -PT1S"),
                Arguments.of(Map.of("calmPeriod", "-PT1S"), "calmPeriod must not be negative, was -PT1S"),
                Arguments.of(Map.of("rampUp", "-PT1S"), "rampUp must not be negative, was -PT1S"),
                Arguments.of(
                        Map.of("initial", "-1s"),
                        "initial must be a duration such as PT10S, 500ms, 30s, 5m or 1h, was '-1s'"),
                Arguments.of(
                        Map.of("calmPeriod", "soon"),
                        "calmPeriod must be a duration such as PT10S, 500ms, 30s, 5m or 1h, was 'soon'"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badNamedSettings")
    void badNamedSettingFailsWithThePrefixNameAndValue(Map<String, String> settings, String message) {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> HalfOpenPolicies.named("exponential", settings));
        assertEquals(PREFIX + message, e.getMessage());
    }

    @Test
    void unknownKeyIsAnErrorListingTheValidKeys() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> HalfOpenPolicies.named("exponential", Map.of("multiplyer", "3")));
        assertEquals(
                PREFIX + "unknown setting 'multiplyer' (value '3'); known settings: [calmPeriod, closeAfter,"
                        + " initial, jitter, max, multiplier, probes, rampFrom, rampUp]",
                e.getMessage());
    }

    @Test
    void durationsAreReadInBothNotations() {
        assertEquals(
                "exponential(initial=PT0.5S, multiplier=2.0, max=PT1S, probes=1)",
                HalfOpenPolicies.named("exponential", Map.of("initial", "500ms", "max", "PT1S"))
                        .toString());
        HalfOpenPolicy p = HalfOpenPolicies.named(
                "exponential",
                Map.of("initial", "PT0.25S", "max", "2s", "calmPeriod", "1m", "rampUp", "30s", "rampFrom", "0.2"));
        assertEquals(250 * MILLI, p.cooldownNanos(1));
        assertEquals(2 * SECOND, p.cooldownNanos(5));
        assertEquals(60 * SECOND, p.calmPeriodNanos());
        assertEquals(30 * SECOND, p.rampUpNanos());
        assertEquals(0.2, p.rampShare(0));
        assertEquals(
                "exponential(initial=PT0.25S, multiplier=2.0, max=PT2S, calmPeriod=PT1M, probes=1, rampUp=PT30S,"
                        + " rampFrom=0.2)",
                p.toString());
    }

    @Test
    void defaultsByName() {
        HalfOpenPolicy p = HalfOpenPolicies.named("exponential", Map.of());
        assertEquals(exponential(), p.toString());
        Exponential e = assertInstanceOf(Exponential.class, p);
        assertEquals(10 * SECOND, e.initialNanos());
        assertEquals(2.0, e.multiplier());
        assertEquals(300 * SECOND, e.maxNanos());
        assertEquals(1, e.probes());
        assertEquals(1, e.closeAfter());
        assertEquals(0.0, e.jitter());
        assertEquals(0, e.calmNanos());
        assertEquals(0, e.rampNanos());
        assertEquals(0.1, e.rampFrom());
        assertEquals(0, p.calmPeriodNanos());
        assertEquals(0, p.rampUpNanos());
        assertEquals(p.toString(), ExponentialPolicy.builder().build().toString(), "the same as the builder's");

        HalfOpenPolicy three = HalfOpenPolicies.named("exponential", Map.of("probes", "3"));
        assertEquals("exponential(initial=PT10S, multiplier=2.0, max=PT5M, probes=3)", three.toString());
        assertEquals(3, ((Exponential) three).closeAfter(), "closeAfter defaults to probes");
        assertEquals(HalfOpenPolicy.Verdict.WAIT, three.decide(1, 2, 0));
        assertEquals(HalfOpenPolicy.Verdict.CLOSE, three.decide(1, 3, 0));

        HalfOpenPolicy ramped = HalfOpenPolicies.named("exponential", Map.of("rampUp", "10s"));
        assertTrue(ramped.toString().endsWith("rampUp=PT10S, rampFrom=0.1)"), ramped.toString());
        assertEquals(0.1, ramped.rampShare(0));
    }

    @Test
    void everySettingByName() {
        HalfOpenPolicy p = HalfOpenPolicies.named(
                "exponential",
                Map.of(
                        "initial", "1s",
                        "multiplier", "1.5",
                        "max", "1m",
                        "jitter", "0.25",
                        "calmPeriod", "5m",
                        "probes", "5",
                        "closeAfter", "4",
                        "rampUp", "30s",
                        "rampFrom", "0.2"));
        assertEquals(
                "exponential(initial=PT1S, multiplier=1.5, max=PT1M, jitter=0.25, calmPeriod=PT5M, probes=5,"
                        + " closeAfter=4, rampUp=PT30S, rampFrom=0.2)",
                p.toString());
        assertEquals(HalfOpenPolicy.Verdict.OPEN, p.decide(1, 0, 2), "more than 5 - 4 failures");
        assertEquals(HalfOpenPolicy.Verdict.WAIT, p.decide(1, 3, 1));
        assertEquals(HalfOpenPolicy.Verdict.CLOSE, p.decide(1, 4, 1));
    }

    private static String exponential() {
        return "exponential(initial=PT10S, multiplier=2.0, max=PT5M, probes=1)";
    }
}
