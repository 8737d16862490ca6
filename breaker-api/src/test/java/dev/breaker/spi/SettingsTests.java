package dev.breaker.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Issue 8, points 15 and 16: values a person would write are read; the rest is refused by name. */
class SettingsTests {

    private static Settings of(String key, String value) {
        return Settings.of("window 'w'", Map.of(key, value), Set.of(key));
    }

    private static String refused(Runnable read) {
        return assertThrows(IllegalArgumentException.class, read::run).getMessage();
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {"100|100", " 7 |7", "+5|5", "-3|-3", "0|0"})
    void integersAsWritten(String text, int expected) {
        assertEquals(expected, of("size", text).intValue("size", 1, Integer.MIN_VALUE));
    }

    @ParameterizedTest
    @ValueSource(strings = {"1.0", "1e3", "0x10", "١٢", "１２", "12a", "", " ", "--1", "1_000"})
    void otherIntegersAreRefusedByName(String text) {
        assertEquals(
                "window 'w': size must be an integer, was '" + text + "'",
                refused(() -> of("size", text).intValue("size", 1, 0)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"2147483648", "-99999999999"})
    void integersOutOfRangeSaySo(String text) {
        assertEquals(
                "window 'w': size must be an integer from -2147483648 to 2147483647, was '" + text + "'",
                refused(() -> of("size", text).intValue("size", 1, Integer.MIN_VALUE)));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "0.5|0.5",
                ".5|0.5",
                "5e-1|0.5",
                "50%|0.5",
                "50 %|0.5",
                "12.5%|0.125",
                "1.1%|0.011",
                "7.2%|0.072",
                "0.9%|0.009",
                "14.3%|0.143",
                "99.9%|0.999",
                "1|1.0",
                "100%|1.0",
                " 0.25 |0.25"
            })
    void ratesAsNumbersOrPercentages(String text, double expected) {
        assertEquals(expected, of("failureRateThreshold", text).rate("failureRateThreshold", 0.5));
    }

    /** A percentage whose exponent is out of a decimal's range is still refused by name, as any 0 is. */
    @ParameterizedTest
    @ValueSource(strings = {"1e-2147483647%", "1e-2147483648%"})
    void aPercentageTooSmallForADecimalIsRefusedByName(String text) {
        assertEquals(
                "window 'w': failureRateThreshold must be in (0, 1], was " + text,
                assertThrows(
                                IllegalArgumentException.class,
                                () -> of("failureRateThreshold", text).rate("failureRateThreshold", 0.5))
                        .getMessage());
        assertEquals(0.0, of("jitter", text).share("jitter", 0.5));
    }

    @ParameterizedTest
    @ValueSource(strings = {"0.5f", "0.5d", "0.5F", "0x1p-1", "NaN", "Infinity", "٠٫٥", "half", "%", "0.5%%"})
    void otherNumbersAreRefusedByName(String text) {
        assertEquals(
                "window 'w': failureRateThreshold must be a number such as 0.5, was '" + text + "'",
                refused(() -> of("failureRateThreshold", text).rate("failureRateThreshold", 0.5)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "1.5", "150%", "-0.1", "0%"})
    void ratesOutsideTheRangeAreRefusedByName(String text) {
        assertEquals(
                "window 'w': failureRateThreshold must be in (0, 1], was " + text,
                refused(() -> of("failureRateThreshold", text).rate("failureRateThreshold", 0.5)));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "PT10S|PT10S",
                "pt10s|PT10S",
                "500ms|PT0.5S",
                "30s|PT30S",
                "5m|PT5M",
                "1h|PT1H",
                "2d|PT48H",
                "100us|PT0.0001S",
                "10ns|PT0.00000001S",
                " 30 s |PT30S",
                "P1D|PT24H"
            })
    void durationsAsIsoOrNumberAndUnit(String text, String expected) {
        assertEquals(Duration.parse(expected), of("length", text).duration("length", Duration.ZERO));
    }

    @ParameterizedTest
    @ValueSource(strings = {"10", "ten seconds", "10 sec", "１０s", "PT１０S", "10S", "1.5s", "s", "PT"})
    void otherDurationsAreRefusedByName(String text) {
        assertEquals(
                "window 'w': length must be a duration such as PT10S, 500ms, 30s, 5m or 1h, was '" + text + "'",
                refused(() -> of("length", text).duration("length", Duration.ZERO)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"PT8760000H", "106752d", "9223372036854775807s"})
    void durationsLongerThanALongOfNanosAreRefusedLikeEverywhereElse(String text) {
        String message = refused(() -> of("length", text).duration("length", Duration.ZERO));
        assertEquals(
                true,
                message.startsWith("window 'w': length must be at most PT2562047H47M16.854775807S "
                        + "(Long.MAX_VALUE nanoseconds, about 292 years), was "),
                message);
    }

    @ParameterizedTest
    @ValueSource(strings = {"-PT1S", "PT-1S"})
    void negativeDurationsAreRefusedByName(String text) {
        assertEquals(
                "window 'w': length must not be negative, was " + text,
                refused(() -> of("length", text).duration("length", Duration.ZERO)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"5\u0000", "PT10S\n", "\r0.5"})
    void controlCharactersAreRefusedNotTrimmed(String text) {
        String message = refused(() -> of("x", text).intValue("x", 1, 0));
        assertEquals(true, message.startsWith("window 'w': x must not contain control characters"), message);
    }

    @org.junit.jupiter.api.Test
    void anOverlongDurationIsQuotedAsWritten() {
        assertEquals(
                "window 'w': length must be at most PT2562047H47M16.854775807S (Long.MAX_VALUE nanoseconds, "
                        + "about 292 years), was 106752d",
                refused(() -> of("length", "106752d").duration("length", Duration.ZERO)));
    }

    @org.junit.jupiter.api.Test
    void absentKeysAreNotThereAndReadAsTheirFallbacks() {
        Settings s = Settings.of("window 'w'", Map.of("size", "3"), Set.of("size", "factor", "length", "rate"));
        assertEquals(true, s.has("size"));
        assertEquals(false, s.has("factor"));
        assertEquals(2.5, s.doubleValue("factor", 2.5));
        assertEquals(Duration.ofSeconds(7), s.duration("length", Duration.ofSeconds(7)));
        assertEquals(0.25, s.rate("rate", 0.25));
        assertEquals(0.0, s.share("rate", 0.0));
        assertEquals(9, s.intValue("absent", 9, 1));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {"20%|0.2", "0.2|0.2", "0|0.0", "0%|0.0", "150%|1.5", "-5%|-0.05"})
    void sharesAsNumbersOrPercentagesWithoutARange(String text, double expected) {
        assertEquals(expected, of("jitter", text).share("jitter", 0.5), 1e-15);
    }

    @ParameterizedTest
    @ValueSource(strings = {"half", "%", "0.2%%", "NaN"})
    void otherSharesAreRefusedByName(String text) {
        assertEquals(
                "window 'w': jitter must be a number such as 0.5, was '" + text + "'",
                refused(() -> of("jitter", text).share("jitter", 0.5)));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {"0.5|0.5", "-2|-2.0", " 1e3 |1000.0", ".25|0.25", "7|7.0"})
    void numbersAsWritten(String text, double expected) {
        assertEquals(expected, of("factor", text).doubleValue("factor", 99.0));
    }

    @ParameterizedTest
    @ValueSource(strings = {"PT2562047H47M16.854775807S", "9223372036854775807ns"})
    void theLongestDurationIsAccepted(String text) {
        assertEquals(Duration.ofNanos(Long.MAX_VALUE), of("length", text).duration("length", Duration.ZERO));
    }

    @org.junit.jupiter.api.Test
    void aBuilderRunThroughTheSettingsReturnsItsResultAndItsErrorsNameTheOwnerOnce() {
        Settings s = of("size", "0");
        assertEquals("built", s.build(() -> "built"));
        assertEquals(
                "window 'w': size must be >= 1, was 0",
                refused(() -> s.build(() -> {
                    throw new IllegalArgumentException("size must be >= 1, was 0");
                })),
                "a typed builder's message gets the owner");
        IllegalArgumentException own = s.fail("size must be >= 1, was 0");
        org.junit.jupiter.api.Assertions.assertSame(
                own,
                assertThrows(
                        IllegalArgumentException.class,
                        () -> s.build(() -> {
                            throw own;
                        })),
                "a message that already names the owner is passed on as it is");
        assertEquals("window 'w': size must be >= 1, was 0", own.getMessage());
    }
}
