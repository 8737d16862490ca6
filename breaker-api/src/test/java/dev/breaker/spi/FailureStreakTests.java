package dev.breaker.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import org.junit.jupiter.api.Test;

/** The run of failures in a row that consecutive-failure windows share (SPEC rule 7). */
class FailureStreakTests {

    @Test
    void theRunReachesItsThresholdAtTheThresholdthFailureAndASuccessEndsIt() {
        FailureStreak s = new FailureStreak(3);
        assertEquals(3, s.threshold());
        assertFalse(s.record(true));
        assertFalse(s.record(true));
        assertTrue(s.record(true));
        assertTrue(s.record(true), "past the threshold it stays reached");
        assertEquals(4, s.length());
        assertFalse(s.record(false));
        assertEquals(0, s.length());
        assertFalse(s.record(true));
    }

    @Test
    void aRunTooLongForAnIntIsHeldAtTheThreshold() throws Exception {
        FailureStreak s = new FailureStreak(5);
        // stands for 2^31 - 1 failures in a row, which take too long to record in a test
        Field run = FailureStreak.class.getDeclaredField("run");
        run.setAccessible(true);
        run.setInt(s, Integer.MAX_VALUE);
        assertTrue(s.record(true), "one more failure still trips");
        assertEquals(5, s.length(), "the run is held at the threshold, not wrapped negative");
        assertTrue(s.record(true));
        assertEquals(6, s.length());
    }
}
