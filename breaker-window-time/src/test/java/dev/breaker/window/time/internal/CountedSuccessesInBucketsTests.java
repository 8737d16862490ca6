package dev.breaker.window.time.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breaker.spi.CombiningWindow;
import dev.breaker.spi.RateThresholds;
import dev.breaker.spi.WindowCounts;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A time window that threads were seen colliding on only counts a plain success of its current
 * epoch, without its lock, while no number of successes could trip it: each such success still
 * lands in the bucket of its epoch, leaves with it, and is in every decision after it. The window
 * is marked contended by reflection (so the tests are deterministic, and on the class path, where
 * reflection reaches the API's package-private state), and each test checks that its successes
 * were indeed counted, not applied under the lock.
 */
@Tag("class-path")
class CountedSuccessesInBucketsTests {

    private final AtomicLong clock = new AtomicLong();

    /** A window of 2 buckets of 10 ns, failure threshold 50%, marked as once contended. */
    private BucketWindow contended(int minimumCalls) throws ReflectiveOperationException {
        BucketWindow w = (BucketWindow) BucketWindow.factory(10, 2, new RateThresholds(0.5, 1.0, minimumCalls))
                .create(clock::get);
        Field everBuffered = CombiningWindow.class.getDeclaredField("everBuffered");
        everBuffered.setAccessible(true);
        everBuffered.setBoolean(w, true);
        return w;
    }

    /** The successes the window counted without its lock so far (0 before it counted any). */
    private static long counted(BucketWindow w) throws ReflectiveOperationException {
        Field f = Class.forName("dev.breaker.spi.CombiningWindowFields").getDeclaredField("successes");
        f.setAccessible(true);
        Object c = f.get(w);
        if (c == null) {
            return 0;
        }
        Method sum = c.getClass().getDeclaredMethod("sum");
        sum.setAccessible(true);
        return (long) sum.invoke(c);
    }

    @Test
    void countedSuccessesAreInEveryDecisionAfterThem() throws Exception {
        BucketWindow w = contended(4);
        for (int i = 0; i < 10; i++) {
            assertFalse(w.recordAt(false, false, 1));
        }
        assertEquals(6, counted(w), "the successes after the minimum was met were only counted");
        for (int k = 1; k < 10; k++) {
            assertFalse(w.recordAt(true, false, 2), k + " failures of " + (10 + k));
        }
        assertTrue(w.recordAt(true, false, 3), "(20, 10): 50%, decided at the deciding failure");
        assertEquals(new WindowCounts(20, 10, 0), w.counts());
    }

    @Test
    void countedSuccessesLandInTheBucketOfTheirEpochAndLeaveWithIt() throws Exception {
        BucketWindow w = contended(1);
        w.recordAt(false, false, 0); // epoch 0, under the lock: the minimum is met
        w.recordAt(false, false, 0); // counted
        w.recordAt(true, false, 0); // (3, 1), under the lock: then no hold until the next epoch
        for (int i = 0; i < 9; i++) {
            w.recordAt(false, false, 1 + i);
        }
        long atEpoch0 = counted(w);
        assertEquals(10, atEpoch0, "every success of epoch 0 after the first was only counted");
        for (int i = 0; i < 3; i++) {
            w.recordAt(false, false, 12); // epoch 1: the first moves the window and the count on
        }
        assertEquals(atEpoch0 + 2, counted(w), "counted at epoch 1 too");
        clock.set(12);
        assertEquals(new WindowCounts(15, 1, 0), w.counts());
        clock.set(21); // epoch 2: epoch 0 leaves, with its 11 successes and its failure
        assertEquals(new WindowCounts(3, 0, 0), w.counts());
        clock.set(35); // epoch 3: epoch 1 leaves too
        assertEquals(new WindowCounts(0, 0, 0), w.counts());
    }

    @Test
    void aStragglerSuccessGoesToItsOwnEpochNotTheCountedOne() throws Exception {
        BucketWindow w = contended(1);
        w.recordAt(false, false, 10); // epoch 1
        w.recordAt(false, false, 10);
        assertEquals(1, counted(w), "the second success of epoch 1 was only counted");
        w.recordAt(false, false, 3); // epoch 0: a straggler, through the lock
        w.recordAt(false, false, 3);
        assertEquals(1, counted(w), "neither straggler was counted at epoch 1");
        clock.set(25); // epoch 2: epoch 0 leaves with its 2 stragglers only
        assertEquals(new WindowCounts(2, 0, 0), w.counts());
    }

    @Test
    void aSuccessThatReachesTheMinimumAtTheThresholdIsDecidedNotCounted() throws Exception {
        BucketWindow w = contended(4);
        assertFalse(w.recordAt(true, false, 0));
        assertFalse(w.recordAt(true, false, 0));
        assertFalse(w.recordAt(false, false, 0), "(3, 2): below the minimum");
        assertTrue(w.recordAt(false, false, 0), "(4, 2) is 50% at the minimum: this success trips");
        assertEquals(0, counted(w), "below the minimum no success is only counted: it may be the one that trips");
    }

    /**
     * A reader of the counts moves the window to a new epoch without an outcome of its own: the
     * successes then counted at that epoch land in a bucket nobody occupied yet, which must join
     * the queue of buckets so that it leaves with its epoch (found by mutation testing).
     */
    @Test
    void successesCountedInABucketOnlyAReaderOpenedLeaveWithIt() throws Exception {
        BucketWindow w = contended(1);
        w.recordAt(false, false, 0); // epoch 0, under the lock: the minimum is met
        clock.set(12);
        assertEquals(new WindowCounts(1, 0, 0), w.counts(), "the reader moves the window to epoch 1");
        long before = counted(w);
        for (int i = 0; i < 4; i++) {
            w.recordAt(false, false, 12);
        }
        assertEquals(before + 4, counted(w), "counted at epoch 1, whose bucket holds nothing yet");
        assertEquals(new WindowCounts(5, 0, 0), w.counts());
        clock.set(25); // epoch 2: epoch 0 leaves
        assertEquals(new WindowCounts(4, 0, 0), w.counts());
        clock.set(35); // epoch 3: epoch 1 leaves with its 4 counted successes
        assertEquals(new WindowCounts(0, 0, 0), w.counts());
    }
}
