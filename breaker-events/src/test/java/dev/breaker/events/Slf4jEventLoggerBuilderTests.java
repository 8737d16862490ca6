package dev.breaker.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** Bad settings fail at once, naming the setting and the value, and leave the builder as it was. */
class Slf4jEventLoggerBuilderTests {

    private static String refused(Class<? extends Throwable> type, Executable setting) {
        return assertThrows(type, setting).getMessage();
    }

    @Test
    void theIntervalMustBePositive() {
        Slf4jEventLogger.Builder b = Slf4jEventLogger.builder();
        assertEquals(
                "rejectionSummaryInterval must be positive, was PT0S",
                refused(IllegalArgumentException.class, () -> b.rejectionSummaryInterval(Duration.ZERO)));
        assertEquals(
                "rejectionSummaryInterval must be positive, was PT-0.001S",
                refused(IllegalArgumentException.class, () -> b.rejectionSummaryInterval(Duration.ofMillis(-1))));
        assertEquals(
                "rejectionSummaryInterval",
                refused(NullPointerException.class, () -> b.rejectionSummaryInterval(null)));
    }

    @Test
    void theIntervalIsAtMostADay() {
        Slf4jEventLogger.Builder b = Slf4jEventLogger.builder();
        assertEquals(
                "rejectionSummaryInterval must be at most PT24H, was PT24H0.000000001S",
                refused(
                        IllegalArgumentException.class,
                        () -> b.rejectionSummaryInterval(Duration.ofDays(1).plusNanos(1))));
        assertEquals(
                "Slf4jEventLogger[logger=dev.breaker.events, rejectionSummaryInterval=PT24H]",
                b.rejectionSummaryInterval(Duration.ofDays(1)).build().toString());
        assertEquals(
                "Slf4jEventLogger[logger=dev.breaker.events, rejectionSummaryInterval=PT0.000000001S]",
                b.rejectionSummaryInterval(Duration.ofNanos(1)).build().toString());
    }

    @Test
    void aRefusedValueLeavesTheBuilderAsItWas() {
        Slf4jEventLogger.Builder b = Slf4jEventLogger.builder().rejectionSummaryInterval(Duration.ofSeconds(30));
        assertThrows(IllegalArgumentException.class, () -> b.rejectionSummaryInterval(Duration.ofSeconds(-30)));
        assertThrows(IllegalArgumentException.class, () -> b.loggerName(" "));
        assertEquals(
                "Slf4jEventLogger[logger=dev.breaker.events, rejectionSummaryInterval=PT30S]",
                b.build().toString());
    }

    @Test
    void theLoggerNameMustNotBeBlank() {
        Slf4jEventLogger.Builder b = Slf4jEventLogger.builder();
        assertEquals(
                "loggerName must not be blank, was ' \t'",
                refused(IllegalArgumentException.class, () -> b.loggerName(" \t")));
        assertEquals("loggerName", refused(NullPointerException.class, () -> b.loggerName(null)));
    }

    @Test
    void nullLoggerAndTickerAreRefusedByName() {
        Slf4jEventLogger.Builder b = Slf4jEventLogger.builder();
        assertEquals("logger", refused(NullPointerException.class, () -> b.logger(null)));
        assertEquals("ticker", refused(NullPointerException.class, () -> b.ticker(null)));
    }

    @Test
    void theLastOfLoggerAndLoggerNameWins() {
        CapturedLog captured = new CapturedLog();
        assertEquals(
                "Slf4jEventLogger[logger=captured, rejectionSummaryInterval=PT10S]",
                Slf4jEventLogger.builder()
                        .loggerName("first")
                        .logger(captured)
                        .build()
                        .toString());
        assertEquals(
                "Slf4jEventLogger[logger=second, rejectionSummaryInterval=PT10S]",
                Slf4jEventLogger.builder()
                        .logger(captured)
                        .loggerName("second")
                        .build()
                        .toString());
    }
}
