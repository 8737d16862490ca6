package dev.breaker.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Interleavings of {@link CombiningWindow} forced one step at a time, with a window that trips at
 * N failures in all and can pause its lock holder: a subclass that throws while a stripe drains,
 * an outcome appended while the hold that ends buffering runs, and a reader of the counts holding
 * the lock when a lone recorder's deciding outcome comes.
 */
class CombiningWindowTests {

    /** Trips at {@code tripAt} failures in all; pauses or throws on request. */
    static final class Pausing extends CombiningWindow {
        final int tripAt;
        int calls;
        int failures;
        volatile CountDownLatch pauseApply;
        volatile CountDownLatch entered;
        volatile boolean throwOnSlow;
        volatile Runnable underTheReadLock = () -> {};

        Pausing(int tripAt) {
            this.tripAt = tripAt;
        }

        @Override
        protected boolean applyLocked(int outcome, long stamp) {
            CountDownLatch p = pauseApply;
            if (p != null) {
                pauseApply = null;
                entered.countDown();
                await(p);
            }
            if (throwOnSlow && (outcome & SLOW) != 0) {
                throw new IllegalStateException("a subclass bug");
            }
            calls++;
            failures += outcome & FAILED;
            return failures >= tripAt;
        }

        @Override
        protected int safeBadOutcomesLocked() {
            return tripAt - 1 - failures;
        }

        @Override
        protected WindowCounts countsLocked() {
            return new WindowCounts(calls, failures, 0);
        }

        @Override
        public boolean record(boolean failure, boolean slow) {
            return offer((failure ? FAILED : 0) | (slow ? SLOW : 0), 0);
        }

        @Override
        public WindowCounts counts() {
            return drainedCounts(underTheReadLock);
        }

        /** A thread that records a success and stays inside applyLocked, holding the lock, until {@code leave}. */
        Thread holdTheLock(CountDownLatch leave) {
            entered = new CountDownLatch(1);
            pauseApply = leave;
            Thread t = new Thread(() -> record(false, false), "holder");
            t.setDaemon(true);
            t.start();
            await(entered);
            return t;
        }
    }

    private final ExecutorService other = otherStripe();
    private final ExecutorService reader = Executors.newSingleThreadExecutor(daemon("reader"));

    @AfterEach
    void stop() {
        other.shutdownNow();
        reader.shutdownNow();
    }

    static void await(CountDownLatch l) {
        try {
            if (!l.await(20, TimeUnit.SECONDS)) {
                throw new IllegalStateException("waited 20 s");
            }
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }

    /** A single thread whose stripe is not this thread's. */
    private static ExecutorService otherStripe() {
        int mine = CombiningWindow.index();
        for (int i = 0; i < 100; i++) {
            ExecutorService ex = Executors.newSingleThreadExecutor(daemon("other"));
            try {
                if (ex.submit(CombiningWindow::index).get() != mine) {
                    return ex;
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            ex.shutdown();
        }
        throw new AssertionError("no thread with another stripe in 100");
    }

    /** Puts the window in the buffering mode, the other thread's stripe open: one collision, as under load. */
    private void collide(Pausing w) throws Exception {
        CountDownLatch leave = new CountDownLatch(1);
        Thread holder = w.holdTheLock(leave);
        assertFalse(other.submit(() -> w.record(false, false)).get()); // lock busy: buffered, urgent
        leave.countDown();
        holder.join(10_000);
        assertTrue(w.isBuffering());
    }

    @Test
    void aSubclassThatThrowsWhileAStripeDrainsDoesNotWedgeTheNextHolder() throws Exception {
        Pausing w = new Pausing(1_000);
        collide(w);
        assertFalse(other.submit(() -> w.record(false, true)).get()); // within the share: buffered
        w.throwOnSlow = true;
        assertThrows(IllegalStateException.class, w::counts, "the subclass's bug surfaces");
        w.throwOnSlow = false;
        Future<WindowCounts> next = reader.submit(w::counts);
        WindowCounts c = next.get(10, TimeUnit.SECONDS); // it used to spin on the zeroed slot forever
        assertEquals(2, c.calls(), "the two successes; the outcome that threw is consumed, not replayed");
        assertTrue(w.record(true, false) == false, "and the window goes on recording");
    }

    @Test
    void anOutcomeAppendedDuringTheHoldThatEndsBufferingIsNotStranded() throws Exception {
        Pausing w = new Pausing(10);
        collide(w);
        Field quiet = CombiningWindow.class.getDeclaredField("quietHolds");
        quiet.setAccessible(true);
        while (quiet.getInt(w) < 4095) {
            w.counts(); // holds that find nothing of another thread's
        }
        w.underTheReadLock = () -> {
            try { // the other thread's failure, offered while the last buffering hold runs: the gate still allows it
                assertFalse(other.submit(() -> w.record(true, false)).get());
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        };
        w.counts();
        w.underTheReadLock = () -> {};
        assertFalse(w.isBuffering(), "the 4096th quiet hold ends buffering");
        int trippedAt = -1;
        for (int i = 0; i < 9 + 1_000; i++) { // this thread alone: 9 failures, then successes
            if (w.record(i < 9, false) && trippedAt < 0) {
                trippedAt = i;
            }
        }
        assertEquals(8, trippedAt, "the other thread's failure and 9 of ours: the trip at our 9th");
        assertEquals(10, w.counts().failures());
    }

    @Test
    void aReaderHoldingTheLockDoesNotDelayALoneRecordersTrip() throws Exception {
        Pausing w = new Pausing(3);
        collide(w); // an earlier collision: the recorder's stripe is open, the window buffering
        assertFalse(other.submit(() -> w.record(true, false)).get());
        assertFalse(other.submit(() -> w.record(true, false)).get());
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch leave = new CountDownLatch(1);
        w.underTheReadLock = () -> {
            inside.countDown();
            await(leave);
        };
        Future<WindowCounts> reading = reader.submit(w::counts);
        await(inside);
        Future<Boolean> third = other.submit(() -> w.record(true, false)); // the deciding outcome
        Thread.sleep(50); // it finds the reader's hold
        leave.countDown();
        assertTrue(third.get(10, TimeUnit.SECONDS), "the third failure is answered as the deciding outcome");
        reading.get(10, TimeUnit.SECONDS);
    }
}
