package dev.breaker.spi;

import static dev.breaker.spi.CombiningWindowTests.collide;
import static dev.breaker.spi.CombiningWindowTests.get;
import static dev.breaker.spi.CombiningWindowTests.onStripe;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breaker.spi.CombiningWindowTests.Pausing;
import java.util.Collections;
import java.util.concurrent.ExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The lag a {@link CombiningWindow} grants while other threads record
 * ({@link CombiningWindow#contendedLagLocked()}): only after a recorder's drain found another
 * stripe's outcomes, never after a reader's or the holder's own, and a thread that goes on alone
 * is exact again from its own next hold. Each test's window trips at N failures in all; the
 * helper threads share one stripe ("theirs"), the test's thread has another.
 */
class ContendedLagTests {

    private final int mine = CombiningWindow.index();
    private final ExecutorService other = onStripe("other", i -> i != mine);
    private final int theirs = get(other.submit(CombiningWindow::index));
    private final ExecutorService holder = onStripe("holder", i -> i == theirs);

    @AfterEach
    void stop() {
        other.shutdownNow();
        holder.shutdownNow();
    }

    private boolean fromTheOtherThread(Pausing w, boolean failure) {
        return get(other.submit(() -> w.record(failure, false)));
    }

    private static int failures(Pausing w) {
        return Collections.frequency(w.log, "F");
    }

    /** Buffering on, one success of the other thread pending, then this thread's failure drains it. */
    private void thisThreadDrainsTheOtherThreadsSuccess(Pausing w) {
        collide(w, holder, other);
        assertFalse(fromTheOtherThread(w, false)); // buffered in their stripe
        assertFalse(w.record(true, false)); // no stripe of its own yet: takes the lock, drains theirs
        assertEquals(1, failures(w));
    }

    @Test
    void aDrainThatFoundAnotherThreadsOutcomesLetsEachStripeBufferTheLagBeyondItsShare() {
        Pausing w = new Pausing(4); // a margin of 3 less the failures: 2 after this thread's, 1 a stripe
        w.lag = 5;
        thisThreadDrainsTheOtherThreadsSuccess(w);
        int applied = w.log.size();
        for (int i = 0; i < 5; i++) {
            assertFalse(fromTheOtherThread(w, true), "within the lag: buffered, decided later");
        }
        assertEquals(applied, w.log.size(), "five failures wait, beyond the share of one");
        assertTrue(fromTheOtherThread(w, true), "the sixth takes the lock: the drain finds the trip");
        assertEquals(7, failures(w));
    }

    @Test
    void withoutALagTheSameStripeTakesOnlyItsShare() {
        Pausing w = new Pausing(4);
        thisThreadDrainsTheOtherThreadsSuccess(w);
        int applied = w.log.size();
        assertFalse(fromTheOtherThread(w, true));
        assertEquals(applied, w.log.size(), "the share of one waits");
        assertFalse(fromTheOtherThread(w, true), "the second is decided at once: three failures, no trip");
        assertEquals(3, failures(w));
        assertTrue(fromTheOtherThread(w, true), "the fourth failure trips where it lands");
    }

    @Test
    void aDrainThatFoundOnlyTheHoldersOwnStripeGrantsNoLag() {
        Pausing w = new Pausing(4);
        w.lag = 5;
        collide(w, holder, other); // the holder's drain found only its own stripe, which the other thread shares
        for (int i = 0; i < 3; i++) {
            assertFalse(fromTheOtherThread(w, true));
        }
        assertEquals(0, failures(w), "the margin of 3 waits, one stripe");
        assertTrue(fromTheOtherThread(w, true), "the fourth is decided at once, exactly where it trips");
        assertEquals(4, failures(w));
    }

    @Test
    void aReadersDrainGrantsNoLag() {
        Pausing w = new Pausing(4);
        w.lag = 5;
        collide(w, holder, other);
        assertFalse(fromTheOtherThread(w, false));
        w.counts(); // this thread reads: its drain finds the other stripe's success, and grants nothing
        assertFalse(fromTheOtherThread(w, true), "the share: 3 over two stripes, 1 each");
        assertEquals(0, failures(w));
        assertFalse(fromTheOtherThread(w, true), "decided at once");
        assertEquals(2, failures(w));
    }

    @Test
    void aThreadThatGoesOnAloneIsExactAgainFromItsOwnNextHold() {
        Pausing w = new Pausing(10);
        w.lag = 5;
        thisThreadDrainsTheOtherThreadsSuccess(w); // grants: 8 left, 4 a stripe, 5 with the lag
        for (int i = 0; i < 5; i++) {
            assertFalse(w.record(true, false), "the lag its stripe was granted");
        }
        assertEquals(1, failures(w), "the five wait");
        assertFalse(w.record(true, false), "beyond it: its own hold, which finds only its own stripe");
        assertEquals(7, failures(w));
        assertFalse(w.record(true, false), "the share again: 2 left over two stripes, 1 each");
        assertEquals(7, failures(w));
        assertFalse(w.record(true, false), "decided at once: nine");
        assertEquals(9, failures(w));
        assertTrue(w.record(true, false), "the tenth trips where it lands: exact again");
        assertEquals(10, failures(w));
    }
}
