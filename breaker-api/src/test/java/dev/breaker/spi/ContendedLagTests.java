package dev.breaker.spi;

import static dev.breaker.spi.CombiningWindowTests.collide;
import static dev.breaker.spi.CombiningWindowTests.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breaker.spi.CombiningWindowTests.Pausing;
import java.util.Collections;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The lag a {@link CombiningWindow} grants after recorders collide
 * ({@link CombiningWindow#contendedLagLocked()}): once per collision (a recorder that found another
 * holding the lock), never for threads that only take turns or for a recorder beside a reader of
 * the counts, and a thread that goes on alone is exact again once the grant's batches are spent. Each test's
 * window trips at N failures in all; the helper threads share one stripe ("theirs"), the test's
 * thread has another.
 */
class ContendedLagTests {

    private final CombiningWindowTests.Threads t = new CombiningWindowTests.Threads();

    @AfterEach
    void stop() {
        t.stop();
    }

    private boolean fromTheOtherThread(Pausing w, boolean failure) {
        return get(t.other.submit(() -> w.record(failure, false)));
    }

    /**
     * A collision grants the lag to {@link CombiningWindow#LAG_BATCHES} batches;
     * {@link CombiningWindowTests#collide}'s drain was the first. This thread reads the counts
     * until they are spent, then once more, a batch with no collision behind it: its stripe is
     * made (the first read), and the budgets are the exact shares again.
     */
    private static void spendTheGrant(Pausing w) {
        for (int i = 0; i < CombiningWindow.LAG_BATCHES; i++) {
            w.counts();
        }
    }

    private static int failures(Pausing w) {
        return Collections.frequency(w.log, "F");
    }

    @Test
    void aCollisionLetsTheStripesBufferTheLagBeyondTheirShare() {
        Pausing w = new Pausing(4); // a margin of 3, one stripe
        w.lag = 5;
        collide(w, t.holder, t.other); // the other thread found the holder in the lock: the holder's publish grants 5
        for (int i = 0; i < 5; i++) {
            assertFalse(fromTheOtherThread(w, true), "within the lag: buffered, decided later");
        }
        assertEquals(0, failures(w), "five failures wait, beyond the margin of 3");
        assertTrue(fromTheOtherThread(w, true), "the sixth takes the lock: the drain finds the trip");
        assertEquals(6, failures(w));
        assertTrue(fromTheOtherThread(w, true), "a negative margin takes no lag: decided at once");
        assertEquals(7, failures(w));
    }

    @Test
    void theBatchThatEndsBufferingDropsAnyGrantLeft() throws Exception {
        Pausing w = new Pausing(4);
        w.lag = 5;
        collide(w, t.holder, t.other);
        CombiningWindowTests.toTheLastBufferingHold(w);
        java.lang.reflect.Field collided = CombiningWindowFields.class.getDeclaredField("collided");
        java.lang.reflect.Field batches = CombiningWindow.class.getDeclaredField("lagBatches");
        collided.setAccessible(true);
        batches.setAccessible(true);
        collided.setBoolean(w, true); // a collision noted in the last quiet hold, too late to matter
        batches.setInt(w, 3);
        w.counts(); // the last quiet hold: buffering ends
        assertFalse(w.isBuffering());
        assertFalse(collided.getBoolean(w), "one thread at a time again: nothing left to grant");
        assertEquals(0, batches.getInt(w));
    }

    @Test
    void withoutALagACollisionChangesNoBudget() {
        Pausing w = new Pausing(4);
        collide(w, t.holder, t.other);
        for (int i = 0; i < 3; i++) {
            assertFalse(fromTheOtherThread(w, true));
        }
        assertEquals(0, failures(w), "the margin of 3 waits");
        assertTrue(fromTheOtherThread(w, true), "the fourth is decided at once, where it trips");
        assertEquals(4, failures(w));
    }

    @Test
    void threadsThatTakeTurnsAreDecidedAtTheMarginThoughTheirOutcomesWaitInEachOthersStripes() {
        Pausing w = new Pausing(4);
        w.lag = 5;
        collide(w, t.holder, t.other);
        spendTheGrant(w); // this thread's stripe is made, and the margin of 3 is shared by two stripes: 1 each
        assertFalse(fromTheOtherThread(w, true), "their share");
        assertFalse(w.record(true, false), "this thread's share");
        assertFalse(fromTheOtherThread(w, true), "beyond: a hold that drains this thread's stripe too");
        assertEquals(3, failures(w));
        assertTrue(w.record(true, false), "no lag for turns: the fourth failure trips where it lands");
        assertEquals(4, failures(w));
    }

    @Test
    void aRecorderThatWaitsForAReadersHoldHasNotCollided() throws Exception {
        Pausing w = new Pausing(4);
        w.lag = 5;
        collide(w, t.holder, t.other);
        spendTheGrant(w); // shares of 1 from now on
        Thread otherThread = get(t.other.submit(Thread::currentThread));
        CountDownLatch leave = new CountDownLatch(1);
        Future<WindowCounts> read = w.holdTheReadLock(t.reader, leave);
        assertFalse(fromTheOtherThread(w, true), "their share: buffered");
        Future<Boolean> beyond = t.other.submit(() -> w.record(true, false)); // beyond it: waits for the reader
        long deadline = System.nanoTime() + 10_000_000_000L;
        // read once per look: a timed park that ends and begins again would show RUNNABLE to a second read
        Thread.State state = otherThread.getState();
        while (state != Thread.State.TIMED_WAITING && System.nanoTime() < deadline) {
            Thread.onSpinWait(); // until it parks, waiting for the reader's hold to end
            state = otherThread.getState();
        }
        assertEquals(Thread.State.TIMED_WAITING, state, "waits for the reader");
        leave.countDown();
        get(read);
        assertFalse(get(beyond));
        assertEquals(2, failures(w));
        assertFalse(w.record(true, false), "a margin of 1 left over two stripes: no share, decided at once");
        assertEquals(3, failures(w));
        assertTrue(fromTheOtherThread(w, true), "no lag was granted: the fourth trips where it lands");
    }

    /** A hold of the other thread's: a success at a stamp no gate has takes the lock. */
    private void holdFromTheOtherThread(Pausing w) {
        assertFalse(get(t.other.submit(() -> w.offerAt(0, CombiningWindowTests.HOLD))));
    }

    @Test
    void aThreadThatGoesOnAloneIsExactAgainOnceTheCollisionsBatchesAreSpent() {
        Pausing w = new Pausing(4); // a margin of 3, one stripe
        w.lag = 5;
        collide(w, t.holder, t.other); // the first batch of the grant
        for (int i = 1; i < CombiningWindow.LAG_BATCHES; i++) {
            holdFromTheOtherThread(w); // alone: its holds spend the rest, each granting 5 again
        }
        holdFromTheOtherThread(w); // no collision since: the exact share of 3
        for (int i = 0; i < 3; i++) {
            assertFalse(fromTheOtherThread(w, true));
        }
        assertEquals(0, failures(w), "the margin of 3 waits, not the lag of 5");
        assertTrue(fromTheOtherThread(w, true), "the fourth is decided at once, where it trips: exact again");
        assertEquals(4, failures(w));
    }

    @Test
    void untilThenItsHoldsStillGrantTheLag() {
        Pausing w = new Pausing(4);
        w.lag = 5;
        collide(w, t.holder, t.other);
        for (int i = 2; i < CombiningWindow.LAG_BATCHES; i++) {
            holdFromTheOtherThread(w);
        }
        holdFromTheOtherThread(w); // the last batch of the grant
        for (int i = 0; i < 5; i++) {
            assertFalse(fromTheOtherThread(w, true));
        }
        assertEquals(0, failures(w), "the lag of 5 waits");
        assertTrue(fromTheOtherThread(w, true), "decided late: the sixth");
        assertEquals(6, failures(w));
    }
}
