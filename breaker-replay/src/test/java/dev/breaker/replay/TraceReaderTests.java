package dev.breaker.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.StringReader;
import org.junit.jupiter.api.Test;

/** What a trace may look like: fractions, spaces, blank lines, CRLF, a byte order mark, equal times. */
class TraceReaderTests {

    static TraceReader reader(String csv) throws Exception {
        return new TraceReader(new BufferedReader(new StringReader(csv)), "t.csv");
    }

    @Test
    void readsRowsAsWritten() throws Exception {
        TraceReader r = reader("\uFEFFtime_ms , outcome , duration_ms\r\n9.999, success ,0.5\r\n\r\n9.999,ignored,12\n"
                + "1700000000000.000001,failure,1000\n");
        assertTrue(r.hasDuration());
        assertTrue(r.next());
        assertEquals(9_999_000, r.timeNanos());
        assertEquals(TraceOutcome.SUCCESS, r.outcome());
        assertEquals(500_000, r.durationNanos());
        assertTrue(r.next());
        assertEquals(9_999_000, r.timeNanos(), "equal times are in order");
        assertEquals(TraceOutcome.IGNORED, r.outcome());
        assertTrue(r.next());
        assertEquals(1_700_000_000_000_000_001L, r.timeNanos());
        assertEquals(TraceOutcome.FAILURE, r.outcome());
        assertFalse(r.next());
        assertEquals(3, r.rows());
    }

    @Test
    void withoutDurationsEveryCallTakesNoTime() throws Exception {
        TraceReader r = reader("time_ms,outcome\n3,success\n");
        assertFalse(r.hasDuration());
        assertTrue(r.next());
        assertEquals(0, r.durationNanos());
    }

    @Test
    void millisecondsParseAndPrintExactly() {
        assertEquals(0, Millis.parse("0"));
        assertEquals(10_000_000, Millis.parse("10"));
        assertEquals(100_000, Millis.parse("0.1"));
        assertEquals(-1, Millis.parse(".5"));
        assertEquals(-1, Millis.parse("5."));
        assertEquals(-1, Millis.parse(""));
        assertEquals(-1, Millis.parse("+5"));
        assertEquals(-1, Millis.parse("99999999999999"), "beyond a long of nanoseconds");
        assertEquals(9_223_372_036_853L * 1_000_000 + 999_999, Millis.parse("9223372036853.999999"));
        assertEquals("9.999", Millis.format(9_999_000));
        assertEquals("10", Millis.format(10_000_000));
        assertEquals("0.000001", Millis.format(1));
        assertEquals("-1.5", Millis.format(-1_500_000));
    }
}
