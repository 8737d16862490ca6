package dev.breaker.window.count.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breaker.spi.RateThresholds;
import dev.breaker.spi.Window;
import dev.breaker.spi.WindowCounts;
import org.junit.jupiter.api.Test;

/** The ring as a window author reaches it: through its factory, which checks the size itself. */
class RingWindowTests {

    private static final RateThresholds HALF = new RateThresholds(0.5, 1.0, 1);

    @Test
    void theFactoryTakesExactlySizesOneToMax() {
        assertEquals(
                "size must be in [1, 1000000], was 0",
                assertThrows(IllegalArgumentException.class, () -> RingWindow.factory(0, HALF, 0))
                        .getMessage());
        assertEquals(
                "size must be in [1, 1000000], was 1000001",
                assertThrows(IllegalArgumentException.class, () -> RingWindow.factory(1_000_001, HALF, 0))
                        .getMessage());

        Window one = RingWindow.factory(1, HALF, 0).create(() -> 0);
        assertFalse(one.record(false, false));
        assertTrue(one.record(true, false), "a ring of one holds only the failure: 100%");
        assertEquals(new WindowCounts(1, 1, 0), one.counts());

        Window largest = RingWindow.factory(RingWindow.MAX_SIZE, HALF, 0).create(() -> 0);
        assertFalse(largest.record(false, false));
        assertTrue(largest.record(true, false), "1 failure of 2 is 50%");
        assertEquals(new WindowCounts(2, 1, 0), largest.counts());
        assertEquals(
                "count(size=1000000, failureRateThreshold=0.5, slowCallRateThreshold=1.0, minimumCalls=1)",
                RingWindow.factory(RingWindow.MAX_SIZE, HALF, 0).describe());
    }

    @Test
    void aFullRingWhoseSizeIsTheMinimumTripsAtTheThresholdExactly() {
        // the rule is checked on the full ring's own path: minimumCalls equal to the size is met
        Window w = RingWindow.factory(4, new RateThresholds(0.5, 0.5, 4), 0).create(() -> 0);
        for (int i = 0; i < 4; i++) {
            assertFalse(w.record(false, false));
        }
        assertFalse(w.record(true, false), "1 failure of 4");
        assertTrue(w.record(true, false), "2 failures of 4 is 50%");
        for (int i = 0; i < 4; i++) {
            w.record(false, false);
        }
        assertFalse(w.record(false, true), "1 slow call of 4");
        assertTrue(w.record(false, true), "2 slow calls of 4 is 50%");
    }

    /**
     * The lag a ring grants after recorders collide is none while a run of failures is what binds
     * (a dependency that is down trips on its streak as one thread alone would), and
     * {@value RingWindow#CONTENDED_LAG} while the rates bind. Asked as the holder asks, on one
     * thread: the margin first, then the lag.
     */
    @Test
    void noLagWhileARunOfFailuresIsAsNearItsLimitAsTheRatesAreToTheirsOrNearer() {
        RingWindow streak = (RingWindow)
                RingWindow.factory(100, new RateThresholds(0.5, 1.0, 100), 3).create(() -> 0);
        streak.record(true, false);
        assertEquals(1, streak.safeBadOutcomesLocked(), "a run of 1 of 3: one more failure is safe");
        assertEquals(0, streak.contendedLagLocked());
        streak.record(false, false); // the run ends, and a run of 3 is still nearer than 50 failures
        assertEquals(2, streak.safeBadOutcomesLocked());
        assertEquals(0, streak.contendedLagLocked());
        RingWindow tie = (RingWindow)
                RingWindow.factory(100, new RateThresholds(0.5, 1.0, 100), 50).create(() -> 0);
        tie.record(true, false);
        assertEquals(48, tie.safeBadOutcomesLocked(), "49 more failures trip the rate, and 49 the run");
        assertEquals(0, tie.contendedLagLocked(), "a tie: the run may trip first");
        RingWindow rates = (RingWindow)
                RingWindow.factory(100, new RateThresholds(0.5, 1.0, 100), 60).create(() -> 0);
        rates.record(true, false);
        assertEquals(48, rates.safeBadOutcomesLocked(), "49 more failures trip the rate, 59 the run");
        assertEquals(RingWindow.CONTENDED_LAG, rates.contendedLagLocked());
    }

    /**
     * The window keeps its bad outcomes only: plain successes, however many, are positions, not
     * entries, so the queue stays as small as the bad outcomes in the window (the memory goal of
     * issue 10 rests on it).
     */
    @Test
    void onlyBadOutcomesAreQueuedAndTheQueueStaysAsSmallAsThem() throws ReflectiveOperationException {
        Window w = RingWindow.factory(1_000, HALF, 0).create(() -> 0);
        for (int i = 0; i < 10_000; i++) {
            w.record(false, false);
        }
        assertEquals(new WindowCounts(1_000, 0, 0), w.counts());
        assertEquals(0, field(w, "queued"), "successes only: nothing queued");
        assertEquals(0, ((int[]) field(w, "bad")).length, "and no queue made");
        w.record(true, false);
        w.record(false, true);
        w.record(true, true);
        for (int i = 0; i < 500; i++) {
            w.record(false, false);
        }
        // the counts catch the queue up with successes counted without the lock
        assertEquals(new WindowCounts(1_000, 2, 2), w.counts());
        assertEquals(3, field(w, "queued"), "the three bad outcomes, none of the successes around them");
        assertEquals(8, ((int[]) field(w, "bad")).length, "the first size of the queue: it never grew for successes");
        for (int i = 0; i < 500; i++) {
            w.record(false, false);
        }
        assertEquals(new WindowCounts(1_000, 0, 0), w.counts());
        assertEquals(0, field(w, "queued"), "all three left the window");
    }

    /**
     * A queue entry keeps 30 bits of its position: a breaker that has taken a billion calls in
     * one closed era (a day at 12,000 a second) goes past them. Started just below 2^30, 2^31 and
     * 2^32 calls, the counts and decisions match the last outcomes' own, step by step.
     */
    @Test
    void positionsPastThirtyBitsStillPushOutExactlyTheOutcomesThatLeft() throws ReflectiveOperationException {
        for (long start : new long[] {(1L << 30) - 7, (1L << 31) - 7, (1L << 32) - 7}) {
            Window w =
                    RingWindow.factory(10, new RateThresholds(0.5, 0.5, 10), 0).create(() -> 0);
            set(w, "applied", start); // as if it had taken that many successes
            set(w, "latest", start);
            java.util.ArrayDeque<Integer> last = new java.util.ArrayDeque<>();
            for (int i = 0; i < 10; i++) {
                last.add(0);
            }
            for (int i = 0; i < 40; i++) {
                int outcome = i % 7 == 0 ? 1 : i % 5 == 0 ? 2 : i % 9 == 0 ? 3 : 0;
                boolean trips = w.record((outcome & 1) != 0, (outcome & 2) != 0);
                last.add(outcome);
                last.removeFirst();
                long failures = last.stream().filter(o -> (o & 1) != 0).count();
                long slow = last.stream().filter(o -> (o & 2) != 0).count();
                String at = "start " + start + ", outcome " + i;
                assertEquals(failures >= 5 || slow >= 5, trips, at);
                assertEquals(new WindowCounts(10, failures, slow), w.counts(), at);
            }
        }
    }

    private static void set(Window w, String name, long value) throws ReflectiveOperationException {
        java.lang.reflect.Field f = RingWindow.class.getDeclaredField(name);
        f.setAccessible(true);
        f.setLong(w, value);
    }

    private static Object field(Window w, String name) throws ReflectiveOperationException {
        java.lang.reflect.Field f = RingWindow.class.getDeclaredField(name);
        f.setAccessible(true);
        return f.get(w);
    }
}
