package dev.breaker.window.time.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breaker.spi.RateThresholds;
import dev.breaker.spi.WindowCounts;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The time window's own races and costs, made deterministic: a straggler is an outcome reported
 * with a reading from an earlier bucket ({@code recordAt}), exactly what a thread preempted
 * between reading the clock and recording produces.
 */
class BucketWindowTests {

    private final AtomicLong clock = new AtomicLong();

    private BucketWindow window(long width, int buckets, double failureRate, int minimumCalls) {
        return (BucketWindow) BucketWindow.factory(width, buckets, new RateThresholds(failureRate, 1.0, minimumCalls))
                .create(clock::get);
    }

    @Test
    void aLateSuccessCountsBeforeTheNextDecisionSoTheRateIsNeverInflated() {
        // issue 10, #2: the window went (3,1), (4,1), (5,2); a decision on (4,2) would be invented
        BucketWindow w = window(10, 2, 0.5, 4);
        assertFalse(w.recordAt(false, false, 0));
        assertFalse(w.recordAt(false, false, 1));
        assertFalse(w.recordAt(true, false, 2));
        assertEquals(new WindowCounts(3, 1, 0), w.counts());
        clock.set(12); // the next bucket
        assertFalse(w.recordAt(false, false, 3), "the straggler's bucket is still in the window: (4,1)");
        assertEquals(new WindowCounts(4, 1, 0), w.counts());
        assertFalse(w.recordAt(true, false, 12), "(5,2) is 40%: no trip");
        assertEquals(new WindowCounts(5, 2, 0), w.counts());
    }

    @Test
    void aLateFailureIsInTheVeryNextDecision() {
        // issue 10, #2: with 2 buckets the window held 6 calls at 50% (minimum 6), and no decision saw it
        BucketWindow w = window(10, 2, 0.5, 6);
        w.recordAt(false, false, 0);
        w.recordAt(false, false, 1);
        w.recordAt(true, false, 2);
        w.recordAt(false, false, 10);
        w.recordAt(true, false, 11);
        assertTrue(w.recordAt(true, false, 5), "the late failure makes (6,3): the decision sees it at once");
    }

    @Test
    void anOutcomeWhoseBucketHasLeftIsDroppedAndDecidesOnWhatRemains() {
        BucketWindow w = window(10, 2, 0.5, 2);
        w.recordAt(false, false, 25);
        w.recordAt(false, false, 26);
        assertFalse(w.recordAt(true, false, 3), "epoch 0 left the window at epoch 2");
        assertEquals(new WindowCounts(2, 0, 0), w.counts());
    }

    @Test
    void aWindowOfTenMicrosecondsInTenThousandBucketsTripsAndRotatesInConstantTimePerOutcome() {
        // issue 8, #14: 1 ns buckets, one outcome per nanosecond
        BucketWindow w = window(1, 10_000, 0.5, 100);
        int records = 0;
        boolean tripped = false;
        for (long t = 0; t < 200_000 && !tripped; t++) {
            clock.set(t);
            tripped = w.record(true, false);
            records++;
        }
        assertTrue(tripped, "it trips");
        assertEquals(100, records, "at the 100th failure, as the rule says");
        for (long t = 200_000; t < 400_000; t++) {
            clock.set(t);
            w.record(false, false);
        }
        assertTrue(w.rotationSteps <= 2L * (records + 200_000), "rotation did " + w.rotationSteps + " steps");
    }

    @Test
    void sparseTrafficInAWideWindowCostsConstantTimePerOutcomeToo() {
        BucketWindow w = window(1_000, 10_000, 0.5, 100);
        long t = 0;
        for (int i = 0; i < 20_000; i++) {
            t += 4_999_000; // just under half the window between outcomes: each lands in a new bucket
            clock.set(t);
            w.record(i % 3 == 0, false);
        }
        assertTrue(w.rotationSteps <= 2L * 20_000, "rotation did " + w.rotationSteps + " steps for 20,000 outcomes");
        assertEquals(
                3, w.counts().calls(), "the last three are within the last 10,000 buckets (epochs E, E-4999, E-9998)");
    }

    @Test
    void stragglersIntoEmptyOlderBucketsKeepTheQueueInOrder() {
        BucketWindow w = window(10, 5, 1.0, 1_000);
        w.recordAt(false, false, 40); // epoch 4
        w.recordAt(true, false, 15); // epoch 1, behind epoch 4 in the queue
        w.recordAt(false, true, 25); // epoch 2
        assertEquals(new WindowCounts(3, 1, 1), w.counts());
        clock.set(55); // epoch 5: epochs 0 and below have left, 1..5 remain
        assertEquals(new WindowCounts(3, 1, 1), w.counts());
        clock.set(65); // epoch 6: epoch 1 leaves
        assertEquals(new WindowCounts(2, 0, 1), w.counts());
        clock.set(75); // epoch 7: epoch 2 leaves
        assertEquals(new WindowCounts(1, 0, 0), w.counts());
        clock.set(95); // epoch 9: epoch 4 leaves
        assertEquals(WindowCounts.empty(), w.counts());
    }

    private static final long MS = 1_000_000L;

    @Test
    void anIdleLongerThanAnyStampRangeLosesNothingAndRevivesNothing() {
        // 1 ms buckets, 10,000 of them: 2^27 buckets is 37 hours, 2^28 75 hours; epochs are kept whole
        BucketWindow w = window(MS, 10_000, 0.5, 2);
        assertFalse(w.recordAt(false, false, 0));
        long later = ((1L << 27) + 5) * MS;
        clock.set(later);
        assertFalse(w.recordAt(true, false, later), "(1,1): below the minimum");
        assertTrue(w.recordAt(true, false, later + 1), "(2,2): the second failure after the idle trips");

        BucketWindow v = window(MS, 10_000, 0.5, 2);
        clock.set(0);
        assertFalse(v.recordAt(true, false, 0));
        long much = (1L << 28) * MS;
        clock.set(much);
        assertFalse(v.recordAt(false, false, much), "the old failure left the window long ago: (1,0)");
        assertEquals(new WindowCounts(1, 0, 0), v.counts());
    }

    @Test
    void aTickerThatJumpsBeyondAnyRealUptimeStillRotates() {
        // 1 ns buckets and a jump of 2^62 ns: the epoch stops at 2^60 - 1, and the window still empties
        BucketWindow w = window(1, 4, 0.5, 2);
        assertFalse(w.recordAt(true, false, 0));
        long jump = 1L << 62;
        clock.set(jump);
        assertFalse(w.recordAt(false, false, jump), "the failure left with the jump");
        assertEquals(new WindowCounts(1, 0, 0), w.counts());
        assertTrue(w.recordAt(true, false, jump + 5), "(2,1) is 50%: the window keeps deciding at the last epoch");
    }

    @Test
    void aReadingExactlyAtABucketsEndBelongsToTheNextBucket() {
        BucketWindow w = window(10, 2, 0.5, 1_000);
        w.recordAt(true, false, 0); // epoch 0
        w.recordAt(false, false, 9); // still epoch 0: its last nanosecond
        w.recordAt(false, true, 10); // epoch 1, read exactly where epoch 0 ends
        assertEquals(new WindowCounts(3, 1, 1), w.counts());
        w.recordAt(false, false, 20); // epoch 2: epoch 0 leaves, epoch 1 stays
        assertEquals(new WindowCounts(2, 0, 1), w.counts());
        clock.set(29);
        assertEquals(new WindowCounts(2, 0, 1), w.counts(), "29 is still epoch 2");
        clock.set(30);
        assertEquals(new WindowCounts(1, 0, 0), w.counts(), "at 30 epoch 1 leaves, with nothing recorded");
    }

    @Test
    void aReadingFarBeyondTheLatestEpochOfVeryWideBucketsFindsItsOwnEpoch() {
        // buckets of 2^61 ns: the latest epoch starts at 2^61, and a reading at 3 * 2^61 + 1 is two
        // epochs later; their sum does not fit in a long, which must not make it look like the latest
        long width = 1L << 61;
        BucketWindow w = window(width, 2, 0.5, 2);
        assertFalse(w.recordAt(true, false, width), "(1,1): below the minimum");
        assertFalse(w.recordAt(false, false, 3 * width + 1), "epoch 3: the failure of epoch 1 has left, (1,0)");
        clock.set(3 * width + 2);
        assertEquals(new WindowCounts(1, 0, 0), w.counts());
    }

    @Test
    void rotationStepsCountEverySlotLeftAndEveryStragglerMovedBack() {
        // the O(1) tests above are only as good as this counter: it must count what it says
        BucketWindow w = window(10, 5, 1.0, 1_000);
        w.recordAt(false, false, 40); // epoch 4: nothing to move
        assertEquals(0, w.rotationSteps);
        w.recordAt(false, false, 15); // epoch 1 goes behind epoch 4: one step
        assertEquals(1, w.rotationSteps);
        w.recordAt(false, false, 25); // epoch 2 goes behind epoch 4, not behind epoch 1: one step
        assertEquals(2, w.rotationSteps);
        w.recordAt(false, false, 45); // epoch 4 again: its slot is taken already
        assertEquals(2, w.rotationSteps);
        clock.set(100); // epoch 10: epochs 1, 2 and 4 leave
        assertEquals(WindowCounts.empty(), w.counts());
        assertEquals(5, w.rotationSteps);
    }

    /**
     * A bucket's counters are ints until one would pass 2^31 - 1, then longs: a bucket of an hour
     * or a day may hold more, and a counter that wrapped would corrupt the window's calls when
     * its bucket left, or read as an empty slot. (The window is brought near the limit by
     * reflection: recording two billion outcomes takes a minute.)
     */
    @Test
    void aBucketThatPassesAnIntsCountMovesToLongsAndLeavesExactly() throws ReflectiveOperationException {
        long hour = 3_600_000_000_000L;
        BucketWindow w = window(hour, 2, 0.5, 1);
        java.lang.reflect.Field ints = BucketWindow.class.getDeclaredField("slotCounts");
        java.lang.reflect.Field longs = BucketWindow.class.getDeclaredField("wideCounts");
        java.lang.reflect.Field calls = BucketWindow.class.getDeclaredField("calls");
        ints.setAccessible(true);
        longs.setAccessible(true);
        calls.setAccessible(true);
        assertFalse(w.recordAt(false, false, 0)); // epoch 0, slot 0
        assertTrue(ints.get(w) != null && longs.get(w) == null, "ints at first");
        int[] counts = (int[]) ints.get(w);
        long near = Integer.MAX_VALUE - 2L;
        counts[0] += (int) (near - 1); // the bucket of epoch 0 holds 2^31 - 3 successes
        calls.setLong(w, near);
        for (int i = 0; i < 5; i++) {
            assertFalse(w.recordAt(false, false, 1), "successes past an int's count");
        }
        assertFalse(w.recordAt(true, false, 2)); // a failure, under the lock: what was counted is added
        assertTrue(ints.get(w) == null && longs.get(w) != null, "longs once a counter passed 2^31 - 1");
        assertEquals(new WindowCounts(near + 6, 1, 0), w.counts());
        assertFalse(w.recordAt(true, false, hour), "epoch 1: 2 failures of " + (near + 7));
        clock.set(2 * hour); // epoch 2: epoch 0 leaves with everything but the failure of epoch 1
        assertEquals(new WindowCounts(1, 1, 0), w.counts());
        assertTrue(w.recordAt(true, false, 2 * hour), "(2, 2): the rate the window really holds");
    }
}
