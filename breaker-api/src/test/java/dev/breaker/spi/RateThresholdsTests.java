package dev.breaker.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** SPEC rules 8 and 9 as the shared helper applies them for every rate window. */
class RateThresholdsTests {

    private static String refused(Runnable r) {
        return assertThrows(IllegalArgumentException.class, r::run).getMessage();
    }

    @Test
    void aWindowTripsExactlyWhenTheFailureRateReachesTheThreshold() {
        RateThresholds t = new RateThresholds(0.5, 1.0, 4);
        assertFalse(t.trips(4, 1, 0), "25% is below 50%");
        assertTrue(t.trips(4, 2, 0), "50% is at the threshold");
        assertTrue(t.trips(4, 3, 0));
        assertFalse(t.trips(10, 4, 0), "40% is below 50%");
        assertTrue(new RateThresholds(0.3, 1.0, 1).trips(10, 3, 0), "3 of 10 reach a threshold of 0.3");
        assertFalse(new RateThresholds(0.3, 1.0, 1).trips(10, 2, 0));
    }

    @Test
    void aWindowTripsExactlyWhenTheSlowCallRateReachesItsThreshold() {
        RateThresholds t = new RateThresholds(1.0, 0.5, 4);
        assertFalse(t.trips(4, 0, 1), "25% slow is below 50%");
        assertTrue(t.trips(4, 0, 2), "50% slow is at the threshold");
        assertFalse(t.trips(4, 1, 1), "neither rate reaches its threshold");
        assertTrue(new RateThresholds(0.5, 1.0, 1).trips(3, 0, 3), "only slow calls reach the default 100%");
        assertFalse(new RateThresholds(0.5, 1.0, 1).trips(3, 0, 2));
    }

    @Test
    void noRateTripsBeforeTheMinimumNumberOfCalls() {
        RateThresholds t = new RateThresholds(0.5, 0.5, 4);
        assertFalse(t.trips(3, 3, 0), "three failures of three, but the minimum is four calls");
        assertFalse(t.trips(3, 0, 3));
        assertTrue(t.trips(4, 4, 0), "at the minimum, the rate decides");
        assertTrue(t.trips(4, 0, 4));
    }

    @Test
    void aWindowWithNoFailureAndNoSlowCallNeverTrips() {
        RateThresholds t = new RateThresholds(Double.MIN_VALUE, Double.MIN_VALUE, 1);
        assertFalse(t.trips(1, 0, 0));
        assertFalse(t.trips(Long.MAX_VALUE, 0, 0));
        assertTrue(t.trips(1_000_000, 1, 0), "the smallest threshold trips on one failure");
    }

    @Test
    void thresholdsAreCheckedByName() {
        assertEquals("failureRateThreshold must be in (0, 1], was 0.0", refused(() -> new RateThresholds(0.0, 0.5, 1)));
        assertEquals(
                "slowCallRateThreshold must be in (0, 1], was 1.0000001",
                refused(() -> new RateThresholds(0.5, 1.0000001, 1)));
        assertEquals("minimumCalls must be >= 1, was 0", refused(() -> new RateThresholds(0.5, 0.5, 0)));
        RateThresholds extremes = new RateThresholds(Double.MIN_VALUE, 1.0, 1);
        assertEquals(Double.MIN_VALUE, extremes.failureRateThreshold());
        assertEquals(1.0, extremes.slowCallRateThreshold());
        assertEquals(1, extremes.minimumCalls());
    }

    @ParameterizedTest
    @ValueSource(doubles = {0.0, -0.0, -0.5, 1.0000001, 2.0, Double.NaN, Double.POSITIVE_INFINITY})
    void ratesOutsideZeroToOneAreRefused(double rate) {
        assertEquals("r must be in (0, 1], was " + rate, refused(() -> RateThresholds.checkRate("r", rate)));
    }

    @ParameterizedTest
    @ValueSource(doubles = {Double.MIN_VALUE, 0.3, 0.5, 1.0})
    void ratesInZeroToOneAreReturned(double rate) {
        assertEquals(rate, RateThresholds.checkRate("r", rate));
    }

    @Test
    void settingsAreReadWithTheirDefaults() {
        Set<String> keys =
                Set.of(RateThresholds.FAILURE_RATE, RateThresholds.SLOW_CALL_RATE, RateThresholds.MINIMUM_CALLS);
        assertEquals(
                new RateThresholds(0.5, 1.0, 7), RateThresholds.from(Settings.of("window 'r'", Map.of(), keys), 7));
        assertEquals(
                new RateThresholds(0.25, 0.75, 3),
                RateThresholds.from(
                        Settings.of(
                                "window 'r'",
                                Map.of(
                                        "failureRateThreshold",
                                        "25%",
                                        "slowCallRateThreshold",
                                        "0.75",
                                        "minimumCalls",
                                        "3"),
                                keys),
                        7));
        assertEquals(
                "window 'r': minimumCalls must be >= 1, was 0",
                refused(() -> RateThresholds.from(Settings.of("window 'r'", Map.of("minimumCalls", "0"), keys), 7)));
    }

    @Test
    void describesItselfWithTheSettingKeys() {
        assertEquals(
                "failureRateThreshold=0.5, slowCallRateThreshold=1.0, minimumCalls=10",
                new RateThresholds(0.5, 1.0, 10).toString());
    }
}
