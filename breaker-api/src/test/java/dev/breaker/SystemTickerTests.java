package dev.breaker;

import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The default time source is the JVM's monotonic clock. */
class SystemTickerTests {

    @Test
    void theSystemTickerReadsSystemNanoTime() {
        assertSame(Ticker.system(), Ticker.system(), "one shared ticker");
        long before = System.nanoTime();
        long read = Ticker.system().read();
        long after = System.nanoTime();
        // compared by difference, as the breaker compares readings: nanoTime may wrap
        assertTrue(before - read <= 0 && read - after <= 0, before + " <= " + read + " <= " + after);
    }
}
