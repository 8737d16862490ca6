package dev.breaker.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a window author gets without writing it: a timed record that ignores the time. */
class WindowTests {

    /** Trips on every slow call; remembers what it was told. */
    static final class TripsOnSlow implements Window {
        final List<String> recorded = new ArrayList<>();

        @Override
        public boolean record(boolean failure, boolean slow) {
            recorded.add(failure + "/" + slow);
            return slow;
        }

        @Override
        public WindowCounts counts() {
            return WindowCounts.empty();
        }
    }

    @Test
    void recordAtRecordsTheOutcomeAndAnswersAsRecordDoes() {
        TripsOnSlow w = new TripsOnSlow();
        assertTrue(w.recordAt(false, true, 123));
        assertFalse(w.recordAt(true, false, 456));
        assertEquals(List.of("false/true", "true/false"), w.recorded);
    }
}
