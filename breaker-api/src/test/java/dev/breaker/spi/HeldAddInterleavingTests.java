package dev.breaker.spi;

import static dev.breaker.spi.CombiningWindowTests.get;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breaker.internal.Totals;
import dev.breaker.internal.WindowTotals;
import dev.breaker.testsupport.HeldOnce;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Interleavings of {@link CombiningWindow} forced at the one step of its busy path and of its
 * lane hand-over that runs code outside the class: an add to the breaker's {@link Totals}. A
 * subclass of the totals holds a chosen thread inside that add, after it added, while the test
 * moves the other threads on. Three interleavings no caller's or plugin's code could reach:
 * <ul>
 * <li>a writer that found the lock busy buffers its outcome, and the holder leaves before the
 * writer raises the urgent bit: the writer then takes the lock and decides its outcome itself;
 * <li>a breaker retires the window while its holder hands a full lane over;
 * <li>a breaker reads its totals while the holder hands a full lane over.
 * </ul>
 */
class HeldAddInterleavingTests {

    /** Totals that hold one chosen thread inside its next add, once it has added. */
    static final class HoldingTotals extends Totals {
        private volatile HeldOnce held;

        /** The next add {@code thread} makes stays inside until {@link #letGo()}. */
        void holdNextAddOf(Thread thread) {
            held = new HeldOnce(thread, "an add to the totals");
        }

        /** Waits until the thread is held; fails at once should {@code work} end without an add. */
        void heldBy(Future<?> work) {
            held.reachedBy(work);
        }

        void letGo() {
            held.letGo();
        }

        @Override
        public void add(int slot, long n) {
            super.add(slot, n);
            HeldOnce h = held;
            if (h != null) {
                h.holdIfTarget();
            }
        }
    }

    private final ExecutorService holder = Executors.newSingleThreadExecutor(CombiningWindowTests.daemon("holder"));
    private final ExecutorService other = Executors.newSingleThreadExecutor(CombiningWindowTests.daemon("other"));
    private final ExecutorService reader = Executors.newSingleThreadExecutor(CombiningWindowTests.daemon("reader"));

    @AfterEach
    void stop() {
        holder.shutdownNow();
        other.shutdownNow();
        reader.shutdownNow();
    }

    /**
     * The writer's failure is buffered as urgent behind a paused holder (no budget left for it);
     * the holder leaves before the urgent bit is up, so nobody drains it for the writer: the
     * writer takes the lock, decides its own failure, answers whether it tripped, publishes the
     * window's new margin and lets the lock go.
     *
     * @param ratePercent the failure rate that trips, at one failure at least: the writer's failure
     *     is one in four calls
     */
    private boolean aBufferedWriterWhoseHolderLeftDecidesItself(int ratePercent) {
        CombiningWindowTests.Pausing w = new CombiningWindowTests.Pausing(1);
        w.ratePercent = ratePercent;
        HoldingTotals totals = new HoldingTotals();
        WindowTotals.attach(w, totals);
        CombiningWindowTests.collide(w, holder, other);

        CountDownLatch leave = new CountDownLatch(1);
        Future<Boolean> held = w.holdTheLock(holder, leave);
        totals.holdNextAddOf(HeldOnce.threadOf(other));
        Future<Boolean> writer = other.submit(() -> w.record(true, false));
        totals.heldBy(writer); // buffered as urgent and counted; the urgent bit not raised yet
        leave.countDown();
        assertFalse(get(held), "the holder's success trips nothing");
        assertEquals(List.of("S", "S", "S"), w.log, "the holder left without the failure: nothing told it");
        totals.letGo();
        boolean trips = get(writer);
        assertEquals(List.of("S", "S", "S", "F"), w.log, "the writer took the lock and applied its failure");
        assertEquals("other", w.appliers.get(3));
        get(other.submit(() -> w.record(false, false)));
        assertEquals(
                List.of("S", "S", "S", "F", "S"),
                w.log,
                "no margin is left, and the writer published that: the next success is applied at once, not buffered");
        Future<WindowCounts> read = reader.submit(w::counts);
        assertEquals(5, assertDoesNotHang(read).calls(), "and the writer let the lock go");
        assertArrayEquals(new long[] {4, 1, 0, 0}, WindowTotals.calls(w, totals), "each call counted once");
        return trips;
    }

    private static WindowCounts assertDoesNotHang(Future<WindowCounts> read) {
        try {
            return read.get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError("a reader of the counts never got the lock", e);
        }
    }

    @Test
    void aBufferedWriterWhoseHolderLeftDecidesItsOwnTrip() {
        assertTrue(aBufferedWriterWhoseHolderLeftDecidesItself(25));
    }

    @Test
    void aBufferedWriterWhoseHolderLeftAnswersNoTripWhenItsOutcomeTripsNothing() {
        assertFalse(aBufferedWriterWhoseHolderLeftDecidesItself(50));
    }

    /** The holder's 2^15th plain success fills its lane: it is held inside the hand-over's add. */
    private static HoldingTotals aHolderHandingAFullLaneOver(
            CombiningWindowTests.Plain w, ExecutorService holder, Future<?>[] handing) {
        HoldingTotals totals = new HoldingTotals();
        WindowTotals.attach(w, totals);
        get(holder.submit(() -> {
            for (int i = 1; i < 32_768; i++) {
                w.record(false, false);
            }
        }));
        totals.holdNextAddOf(HeldOnce.threadOf(holder));
        handing[0] = holder.submit(() -> w.record(false, false));
        totals.heldBy(handing[0]); // added to the totals, the lane not cleared yet
        return totals;
    }

    @Test
    void aRetireWaitsForAHolderHandingALaneOverAndMovesNothingTwice() throws Exception {
        CombiningWindowTests.Plain w = new CombiningWindowTests.Plain();
        Future<?>[] handing = new Future<?>[1];
        HoldingTotals totals = aHolderHandingAFullLaneOver(w, holder, handing);
        waitsForTheHandOver("the retire", reader.submit(() -> WindowTotals.retire(w, totals)), totals, handing[0]);
        assertEquals(32_768, totals.sum(Totals.FAST_SUCCESSES), "the full lane moved once");
        assertArrayEquals(new long[] {32_768, 0, 0, 0}, WindowTotals.calls(w, totals));
    }

    @Test
    void aReadOfTheTotalsWaitsForAHolderHandingALaneOverAndCountsItOnce() throws Exception {
        CombiningWindowTests.Plain w = new CombiningWindowTests.Plain();
        Future<?>[] handing = new Future<?>[1];
        HoldingTotals totals = aHolderHandingAFullLaneOver(w, holder, handing);
        long[] read =
                waitsForTheHandOver("the read", reader.submit(() -> WindowTotals.calls(w, totals)), totals, handing[0]);
        assertArrayEquals(new long[] {32_768, 0, 0, 0}, read, "the full lane once");
    }

    /** {@code work} waits while the holder hands its lane over; let go, both end: its answer. */
    private static <T> T waitsForTheHandOver(String what, Future<T> work, HoldingTotals totals, Future<?> handing)
            throws Exception {
        assertThrows(
                TimeoutException.class,
                () -> work.get(200, TimeUnit.MILLISECONDS),
                what + " waits for the holder's hand-over");
        totals.letGo();
        get(handing);
        return work.get(10, TimeUnit.SECONDS);
    }
}
