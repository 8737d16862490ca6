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
        /** The stamp of the state, as a time window's epoch. */
        long current;
        /** What leaves the state when it moves to a later stamp (as a time window's old buckets do), once. */
        long leaveCalls;

        long leaveFailures;
        /** The lag granted after a collision ({@link CombiningWindow#contendedLagLocked}); none by default. */
        int lag;

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
            if (stamp > current) { // a later stamp: what it counted goes to the old one, then some calls leave
                calls += takeCountedSuccessesMovedTo(stamp) - leaveCalls;
                failures -= leaveFailures;
                leaveCalls = 0;
                leaveFailures = 0;
                current = stamp;
            } else {
                calls += takeCountedSuccesses();
            }
            calls++;
            failures += outcome & FAILED;
            return trips();
        }

        @Override
        protected long stampLocked() {
            return current;
        }

        @Override
        protected int contendedLagLocked() {
            return lag;
        }

        boolean offerAt(int outcome, long stamp) {
            return offer(outcome, stamp);
        }

        @Override
        protected int safeBadOutcomesLocked() {
            calls += takeCountedSuccesses();
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
            return holdTheLock(on, leave, outcome, 0);
        }

        /** The same at a stamp. */
        Future<Boolean> holdTheLock(
                java.util.concurrent.ExecutorService on, CountDownLatch leave, int outcome, long stamp) {
            entered = new CountDownLatch(1);
            pauseApply = leave;
            Future<Boolean> f = on.submit(() -> offer(outcome, stamp));
            await(entered);
            return f;
        }
    }

    private final CombiningWindowTests.Threads t = new CombiningWindowTests.Threads();

    /** One of the window's flag bits, by name. */
    static int flag(String name) {
        try {
            java.lang.reflect.Field f = CombiningWindow.class.getDeclaredField(name);
            f.setAccessible(true);
            return f.getInt(null);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    @AfterEach
    void stop() {
        t.stop();
    }

    /** Contended once, then (12, 4): 33%, healthy, a margin of 0. */
    private Rate atTheMargin() {
        return atTheMargin(0);
    }

    private Rate atTheMargin(int lag) {
        Rate w = new Rate();
        w.lag = lag;
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
        assertEquals(
                flag("HEALTHY"),
                w.flags & (flag("HEALTHY") | flag("URGENT")),
                "nothing pending over the margin: healthy, so plain successes are counted, and nothing urgent");
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

    /**
     * A failure buffered within its stripe's budget at one stamp, while the holder moves the
     * state to the next, where calls left and the margin is smaller: the holder publishes the new
     * stamp only after taking the flag down, so its thread's next success (of the new stamp) is
     * not counted ahead of it (found by a second review).
     */
    @Test
    void aFailureBufferedBeforeAMoveToASmallerMarginIsAppliedBeforeItsThreadsNextSuccess() {
        Rate w = atTheMargin();
        for (int i = 0; i < 12; i++) {
            w.record(false, false);
        }
        assertEquals(new WindowCounts(24, 4, 0), w.counts(), "16.7%: a margin of 4, 2 for each of the 2 stripes");
        // the holder drains, then applies its success of stamp 1, where 12 calls leave: (13, 4),
        // 30.8%, a margin of 0. Before it publishes, this thread fails at stamp 0, within the old budget
        w.leaveCalls = 12;
        CountDownLatch release = new CountDownLatch(1);
        Future<Boolean> moving = w.holdTheLock(t.holder, release, 0, 1);
        assertFalse(w.offerAt(CombiningWindow.FAILED, 0), "within the budget of stamp 0: buffered");
        assertEquals(0, w.flags & flag("URGENT"), "in its stripe, within the budget the holder gave it: not urgent");
        release.countDown();
        assertFalse(get(moving), "(13, 4) at stamp 1: no trip");
        // in this thread's order its failure comes first: (14, 5), 35.7%, a trip; its success of
        // stamp 1 counted and applied first would make (14, 4) then (15, 5), 33.3%, and no trip
        assertTrue(w.offerAt(0, 1), "the trip the failure made is reported by this thread's next offer");
        assertEquals(new WindowCounts(15, 5, 0), w.counts());
    }

    /**
     * Successes counted at one stamp are in the state before it moves to the next
     * ({@link CombiningWindow#takeCountedSuccessesMovedTo}): the decision at the outcome that moves
     * it counts them.
     */
    @Test
    void successesCountedAtAStampAreInTheStateWhenItMovesOn() {
        Rate w = atTheMargin();
        for (int i = 0; i < 5; i++) {
            assertFalse(w.record(false, false), "counted: healthy, at the published stamp");
        }
        // (17, 4), then a failure of stamp 1: (18, 5), 27.8%. Without the five counted at stamp
        // 0 it would be (13, 5), 38.5%: a trip on counts the window never held
        assertFalse(w.offerAt(CombiningWindow.FAILED, 1));
        assertEquals(new WindowCounts(18, 5, 0), w.counts());
    }

    /**
     * A lag granted after a collision raises each stripe's share above its part of the margin,
     * but the budgets of all the stripes together still fit in the margin: the first stripe takes
     * its share, the next what is left.
     */
    @Test
    void aLagGrantRaisesAShareButTheBudgetsTogetherStayWithinTheMargin() throws Exception {
        Rate w = atTheMargin(3); // (12, 4): a margin of 0, no budget anywhere
        // the holder takes the lock with a success of the next stamp (neither counted nor
        // buffered); meanwhile this thread's successes are counted and its failure, beyond its
        // budget of 0, finds the holder there: a collision, so the holder's batches grant the lag
        CountDownLatch release = new CountDownLatch(1);
        Future<Boolean> held = w.holdTheLock(t.holder, release, 0, 1);
        for (int i = 0; i < 8; i++) {
            assertFalse(w.record(false, false));
        }
        assertFalse(w.record(true, false));
        release.countDown();
        assertFalse(get(held));
        WindowCounts c = w.counts();
        assertEquals(new WindowCounts(22, 5, 0), c, "22.7%: a margin of 2, a share of 1 for each of the 2 stripes");
        java.lang.reflect.Field knownField = CombiningWindow.class.getDeclaredField("known");
        knownField.setAccessible(true);
        Stripe[] known = (Stripe[]) knownField.get(w);
        assertEquals(2, known.length);
        int total = 0;
        int most = 0;
        for (Stripe st : known) {
            total += st.committed();
            most = Math.max(most, st.committed());
        }
        assertEquals(2, most, "the lag of 3 raised the first stripe's share of 1, to what the margin leaves");
        assertEquals(2, total, "the budgets together within the margin of 2: the next stripe got nothing");
    }

    /**
     * A window whose margin is negative (it trips) while it buffers has no budget for anyone and
     * nothing over it: a hold is one hold, not a loop of urgent drains until buffering ends (the
     * third review found one in the first version of the check above).
     */
    @Test
    void aTrippingWindowThatBuffersHoldsOncePerOffer() {
        Rate w = atTheMargin();
        assertTrue(w.record(true, false), "(13, 5): 38.5%, a trip");
        assertTrue(w.isBuffering(), "one hold, not 4,096 quiet ones");
        assertTrue(w.record(false, false), "(14, 5): 35.7%, still");
        assertTrue(w.isBuffering());
    }

    /**
     * A stripe's budget is its share less what is pending, and never more than leaves the given
     * total pending and allowed: the holder of a window whose stripes stay open caps each so that
     * all of them together stay within the margin (a fourth review found budgets that, with
     * outcomes pending beyond the share elsewhere, added up to more).
     */
    @Test
    void aStripesBudgetIsItsShareLessItsPendingAndWithinTheTotalItIsGiven() {
        Rate w = new Rate();
        Stripe s = new Stripe(false);
        s.list();
        s.open();
        assertEquals(5, s.budget(5));
        for (int i = 0; i < 3; i++) {
            assertEquals(Stripe.TAKEN, s.offer(w, 4 | CombiningWindow.FAILED, true, false));
        }
        assertEquals(5, s.committed(), "3 pending, 2 left");
        assertEquals(5, s.budget(10, 5), "3 pending: 2 more at most, not 7");
        assertEquals(3, s.budget(10, 0), "nothing more, and the pending stay");
        assertEquals(3, s.budget(2), "a share below what is pending: no budget");
        assertEquals(3, s.budget(-1, 100));
        assertEquals(3, s.committed());
    }
}
