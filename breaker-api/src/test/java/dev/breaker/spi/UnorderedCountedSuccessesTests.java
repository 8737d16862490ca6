package dev.breaker.spi;

import static dev.breaker.spi.CombiningWindow.SLOW;
import static dev.breaker.spi.CombiningWindowTests.await;
import static dev.breaker.spi.CombiningWindowTests.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A window whose stripes stay open while its plain successes are only counted (as a time
 * window's do, {@link CombiningWindow#successesKeepOrder} false): a bad outcome appended beyond
 * its budget, while another recorder holds the lock, must be applied before any later success of
 * its own thread, or those successes dilute the trip it makes away.
 */
class UnorderedCountedSuccessesTests {

    /**
     * Calls and failures at one stamp; trips at a failure rate of at least 35% with at least 10
     * calls; counts its plain successes once contended, while it holds its minimum and no trip.
     */
    static final class Rate extends CombiningWindow {
        long calls;
        long failures;
        volatile CountDownLatch pauseApply;
        volatile CountDownLatch entered;
        /** When set, the next failure applied waits for it (once), after counting down {@link #failureEntered}. */
        volatile CountDownLatch pauseFailure;

        volatile CountDownLatch failureEntered;

        private boolean trips() {
            return calls >= 10 && failures * 100 >= calls * 35;
        }

        @Override
        protected boolean applyLocked(int outcome, long stamp) {
            CountDownLatch p = pauseApply;
            if (p != null) {
                pauseApply = null;
                entered.countDown();
                await(p);
            }
            CountDownLatch pf = pauseFailure;
            if (pf != null && (outcome & FAILED) != 0) {
                pauseFailure = null;
                failureEntered.countDown();
                await(pf);
            }
            calls += takeCountedSuccesses() + 1;
            failures += outcome & FAILED;
            return trips();
        }

        @Override
        protected int safeBadOutcomesLocked() {
            long c = Math.max(10, calls);
            long fewest = (c * 35 + 99) / 100;
            return (int) Math.max(-1, fewest - 1 - failures);
        }

        @Override
        protected boolean plainSuccessNeedsNoLock() {
            return everContended() && calls >= 10 && !trips();
        }

        @Override
        protected boolean successesKeepOrder() {
            return false;
        }

        @Override
        protected WindowCounts countsLocked() {
            calls += takeCountedSuccesses();
            return new WindowCounts(calls, failures, 0);
        }

        @Override
        public WindowCounts counts() {
            return drainedCounts(() -> {});
        }

        /** Has the holder thread offer {@code outcome} and stay inside its hold until {@code leave}. */
        Future<Boolean> holdTheLock(java.util.concurrent.ExecutorService on, CountDownLatch leave, int outcome) {
            entered = new CountDownLatch(1);
            pauseApply = leave;
            Future<Boolean> f = on.submit(() -> offer(outcome, 0));
            await(entered);
            return f;
        }
    }

    private final CombiningWindowTests.Threads t = new CombiningWindowTests.Threads();

    @AfterEach
    void stop() {
        t.stop();
    }

    /** Contended once, then (12, 4): 33%, healthy, a margin of 0. */
    private Rate atTheMargin() {
        Rate w = new Rate();
        CountDownLatch leave = new CountDownLatch(1);
        Future<Boolean> held = w.holdTheLock(t.holder, leave, 0);
        assertFalse(get(t.other.submit(() -> w.record(false, false))), "the other thread finds the holder in the lock");
        leave.countDown();
        assertFalse(get(held));
        assertTrue(w.isBuffering());
        for (int i = 0; i < 6; i++) {
            w.record(false, false);
        }
        for (int i = 0; i < 4; i++) {
            assertFalse(w.record(true, false));
        }
        assertEquals(new WindowCounts(12, 4, 0), w.counts());
        return w;
    }

    @Test
    void aFailureBeyondItsBudgetIsAppliedBeforeItsThreadsLaterSuccesses() {
        Rate w = atTheMargin();
        // the holder holds the lock with a slow call (a call, no failure) while this thread fails
        // beyond its budget (the urgent path), then succeeds four times
        CountDownLatch release = new CountDownLatch(1);
        Future<Boolean> slow = w.holdTheLock(t.holder, release, SLOW);
        assertFalse(w.record(true, false), "beyond the budget while another holds the lock: waits, urgent");
        for (int i = 0; i < 4; i++) {
            assertFalse(w.record(false, false));
        }
        release.countDown();
        get(slow);
        // in this thread's order the failure makes (14, 5), 35.7%: a trip; its four successes
        // applied first would make (18, 5), 27.8%, and no decision would ever see it
        assertTrue(w.record(false, false), "the trip the failure made is reported by the next offer");
        assertEquals(new WindowCounts(19, 5, 0), w.counts());
    }

    @Test
    void theHolderDoesNotCountSuccessesAgainWhileSuchAFailureWaits() {
        Rate w = atTheMargin();
        CountDownLatch release = new CountDownLatch(1);
        Future<Boolean> slow = w.holdTheLock(t.holder, release, SLOW);
        assertFalse(w.record(true, false), "beyond the budget while another holds the lock: waits, urgent");
        // the holder applies its slow call and publishes (the window is healthy at (13, 4)), then
        // drains the failure: this thread succeeds four times while that drain is under way
        CountDownLatch draining = new CountDownLatch(1);
        w.failureEntered = new CountDownLatch(1);
        w.pauseFailure = draining;
        release.countDown();
        await(w.failureEntered);
        for (int i = 0; i < 4; i++) {
            assertFalse(w.record(false, false));
        }
        draining.countDown();
        get(slow);
        assertTrue(w.record(false, false), "(14, 5) before the successes: the trip is reported");
        assertEquals(new WindowCounts(19, 5, 0), w.counts());
    }
}
