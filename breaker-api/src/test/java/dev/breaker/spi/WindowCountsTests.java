package dev.breaker.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The counts a window reports for metrics, and the rates read from them. */
class WindowCountsTests {

    @Test
    void ratesAreShareOfTheCallsAndZeroForAnEmptyWindow() {
        WindowCounts c = new WindowCounts(8, 2, 6);
        assertEquals(0.25, c.failureRate());
        assertEquals(0.75, c.slowCallRate());
        assertEquals(0.0, WindowCounts.empty().failureRate());
        assertEquals(0.0, WindowCounts.empty().slowCallRate());
        assertEquals(1.0, new WindowCounts(3, 3, 3).slowCallRate());
    }
}
