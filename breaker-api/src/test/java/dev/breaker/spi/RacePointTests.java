package dev.breaker.spi;

import static dev.breaker.spi.CombiningWindowTests.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breaker.CircuitBreaker;
import dev.breaker.Ticker;
import dev.breaker.internal.race.Races;
import dev.breaker.testsupport.HeldOnce;
import dev.breaker.testsupport.Waits;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Interleavings of {@link CombiningWindow} that need a thread held between two of its own steps,
 * where no caller's or plugin's code runs: held at a {@link Races race point}, every run meets
 * the interleaving that a race test meets only now and then.
 */
@Tag("race-points") // run in their own execution, the only one with -Ddev.breaker.races=true
class RacePointTests {

    private static HeldOnce hold(int point, Thread target) {
        return HeldOnce.atPoint(Races::handle, point, target);
    }

    private final ExecutorService maker = CombiningWindowTests.onStripe("maker", i -> true);
    private final int stripe = get(maker.submit(CombiningWindow::index));
    private final ExecutorService appender = CombiningWindowTests.onStripe("appender", i -> i == stripe);
    private final ExecutorService holder = CombiningWindowTests.onStripe("holder", i -> i != stripe);
    private final ExecutorService third = CombiningWindowTests.onStripe("third", i -> i != stripe);

    @AfterEach
    void stop() {
        Races.handle(null);
        maker.shutdownNow();
        appender.shutdownNow();
        holder.shutdownNow();
        third.shutdownNow();
    }

    /**
     * The fault a review found in {@link Stripe}: thread M installs a new stripe and is held
     * before it tells the holder; A, of the same stripe index, appends a success to that stripe
     * through the open gate; the holder's next batch must know the stripe, or A's next outcome, a
     * failure, finds the stripe closed, takes the lock and is applied before A's success.
     */
    @Test
    void anAppendToAStripeNobodyHasListedYetIsDrainedInItsWritersOrder() {
        CombiningWindowTests.Pausing w = new CombiningWindowTests.Pausing(1_000);
        // buffering, with the holder's stripe made already: its next batch makes none, so it
        // refreshes its list of stripes only when told the stripes changed
        CombiningWindowTests.collide(w, holder, third);
        CountDownLatch leave = new CountDownLatch(1);
        Future<Boolean> held = w.holdTheLock(holder, leave);
        HeldOnce installing = hold(Races.STRIPE_INSTALLED, HeldOnce.threadOf(maker));
        Future<Boolean> made = maker.submit(() -> w.record(false, false)); // the lock busy: makes the stripe
        installing.reachedBy(made);
        assertFalse(get(appender.submit(() -> w.record(false, false))), "buffered, through the open gate");
        leave.countDown();
        assertFalse(get(held));
        assertFalse(get(appender.submit(() -> w.record(true, false))));
        installing.letGo();
        assertFalse(get(made));
        w.counts(); // drains what waits
        assertEquals(
                List.of("S", "S", "S", "S", "F", "S"),
                w.log,
                "two successes of the collision, the holder's, then the appender's success before its failure, then"
                        + " the maker's");
    }

    /**
     * A trip that a drain found with nobody to tell is told by the next offer, once: here two
     * offers read the flag, and the first is held before it acts on it while the second takes it.
     * The first must neither tell the trip again nor skip its own outcome.
     */
    @Test
    void aTripToTellIsToldOnceWhenAnotherOfferTakesItBetweenTheReadAndTheClear() {
        CombiningWindowTests.Pausing w = new CombiningWindowTests.Pausing(1);
        w.ratePercent = 25; // one failure in four calls trips; in five or more it does not
        CombiningWindowTests.collide(w, holder, appender);
        CountDownLatch leave = new CountDownLatch(1);
        Future<Boolean> held = w.holdTheLock(holder, leave);
        assertFalse(get(appender.submit(() -> w.record(true, false))), "urgent: for the holder to decide");
        leave.countDown();
        assertFalse(get(held));
        assertEquals(List.of("S", "S", "S", "F"), w.log, "the holder applied it: a trip with nobody to tell");

        HeldOnce reading = hold(Races.FLAGS_READ, HeldOnce.threadOf(maker));
        Future<Boolean> first = maker.submit(() -> w.record(false, false));
        reading.reachedBy(first);
        assertTrue(get(appender.submit(() -> w.record(false, false))), "the second offer tells the trip");
        reading.letGo();
        assertFalse(get(first), "the first does not tell it again");
        w.counts();
        assertEquals(List.of("S", "S", "S", "F", "S", "S"), w.log, "and neither success was skipped");
    }

    /** The maker's failure, offered through {@link #aFailureHeldAfterReadingTheUrgentBit}. */
    private Future<Boolean> failure;

    /**
     * Has the maker offer a failure that reads the urgent bit (an urgent success of the appender
     * waits while the holder holds the lock) and is held right after; the holder then leaves,
     * draining the urgent success, so the bit the maker read is stale when it is let go.
     */
    private HeldOnce aFailureHeldAfterReadingTheUrgentBit(CombiningWindowTests.Pausing w) {
        CombiningWindowTests.collide(w, holder, third);
        CountDownLatch leave = new CountDownLatch(1);
        Future<Boolean> held = w.holdTheLock(holder, leave);
        // not the gate's stamp: the lock path, busy, so buffered as urgent, and the urgent bit is up
        assertFalse(get(appender.submit(() -> w.offerAt(0, 1))));
        HeldOnce reading = hold(Races.FLAGS_READ, HeldOnce.threadOf(maker));
        failure = maker.submit(() -> w.record(true, false));
        reading.reachedBy(failure);
        leave.countDown();
        assertFalse(get(held));
        assertEquals(List.of("S", "S", "S", "S"), w.log, "the holder drained the urgent success as it left");
        return reading;
    }

    /**
     * An offer that read the urgent bit and finds the lock free takes it: it drains what waits
     * and decides its own outcome before it returns. Here M reads the bit (an urgent success of
     * A waits) and is held; the holder leaves, draining A's success; M, let go, takes the free
     * lock and applies its failure itself, though its budget would have let it wait in a buffer.
     */
    @Test
    void anOfferThatReadTheUrgentBitAndFindsTheLockFreeTakesItAndDecides() {
        CombiningWindowTests.Pausing w = new CombiningWindowTests.Pausing(1_000);
        HeldOnce reading = aFailureHeldAfterReadingTheUrgentBit(w);
        reading.letGo();
        assertFalse(get(failure));
        assertEquals(List.of("S", "S", "S", "S", "F"), w.log, "applied before the offer returned, not buffered");
        assertEquals("maker", w.appliers.get(w.appliers.size() - 1), "by its own thread, which took the lock");
        assertEquals(5, get(third.submit(w::counts)).calls(), "and the lock was let go");
    }

    /**
     * The same offer finding a reader of the counts in the lock waits for the reader's short hold
     * rather than buffer (a metrics gauge must not delay a decision), then decides its outcome and
     * tells the trip it found.
     */
    @Test
    void anOfferThatReadTheUrgentBitAndFindsAReaderInTheLockWaitsForItAndDecides() throws Exception {
        CombiningWindowTests.Pausing w = new CombiningWindowTests.Pausing(1); // the first failure trips
        HeldOnce reading = aFailureHeldAfterReadingTheUrgentBit(w);
        CountDownLatch readerLeaves = new CountDownLatch(1);
        Future<WindowCounts> read = w.holdTheReadLock(third, readerLeaves);
        reading.letGo();
        Thread.sleep(50);
        assertFalse(failure.isDone(), "it waits for the reader rather than buffer");
        readerLeaves.countDown();
        assertEquals(4, get(read).calls());
        assertTrue(get(failure), "decided, and its trip told, before the offer returned");
        assertEquals(List.of("S", "S", "S", "S", "F"), w.log);
        assertEquals("maker", w.appliers.get(w.appliers.size() - 1));
    }

    /**
     * A thread buffers a failure as urgent while the lock is busy and is held before it looks at
     * the lock again; the holder leaves, drains the failure and finds the trip with nobody to
     * tell. The thread, let go, finds the lock free, takes it, and tells the trip itself.
     */
    @Test
    void anUrgentOutcomeWhoseTripTheLeavingHolderFoundIsToldByItsOwnOffer() {
        CombiningWindowTests.Pausing w = new CombiningWindowTests.Pausing(1); // the first failure trips
        CombiningWindowTests.collide(w, holder, appender); // the appender's stripe, open to failures
        CountDownLatch leave = new CountDownLatch(1);
        Future<Boolean> held = w.holdTheLock(holder, leave);
        HeldOnce marked = hold(Races.URGENT_MARKED, HeldOnce.threadOf(appender));
        Future<Boolean> failure = appender.submit(() -> w.offerAt(CombiningWindow.FAILED, 1)); // not the gate's stamp
        marked.reachedBy(failure);
        leave.countDown();
        assertFalse(get(held), "the holder's own success tripped nothing");
        assertEquals(List.of("S", "S", "S", "F"), w.log, "it drained the failure as it left: a trip to tell");
        marked.letGo();
        assertTrue(get(failure), "told by the offer whose outcome tripped");
    }

    /**
     * A holder sets a stripe's budget from the margin after its batch; an appender spends the old
     * budget between the holder's read of the stripe and its write. The holder must read again,
     * or the stripe keeps more budget than the new margin leaves, and a bad outcome that trips
     * waits in the buffer instead of being decided.
     */
    @Test
    void aBudgetSpentWhileTheHolderSetsItIsSetAgainFromWhatIsPending() {
        CombiningWindowTests.Pausing w = new CombiningWindowTests.Pausing(5); // a margin of 4 bad outcomes
        ExecutorService sharing = CombiningWindowTests.onStripe("holder-sharing", i -> i == stripe);
        try {
            CombiningWindowTests.collide(w, sharing, appender); // one stripe: its budget is the whole margin, 4
            HeldOnce setting = hold(Races.BUDGET_READ, HeldOnce.threadOf(sharing));
            Future<Boolean> held = sharing.submit(() -> w.offerAt(CombiningWindow.FAILED, CombiningWindowTests.HOLD));
            setting.reachedBy(held); // its failure applied: a margin of 3, the budget read at 4
            assertFalse(get(appender.submit(() -> w.record(true, false))), "buffered: the old budget lets it");
            setting.letGo();
            assertFalse(get(held));
            assertFalse(get(appender.submit(() -> w.record(true, false))), "buffered: the budget, read again, was 2");
            assertFalse(get(appender.submit(() -> w.record(true, false))), "buffered: the last of it");
            assertTrue(
                    get(appender.submit(() -> w.record(true, false))),
                    "no budget left: decided at once, with the three before it, and the fifth failure trips");
            assertEquals(List.of("S", "S", "F", "F", "F", "F", "F"), w.log);
        } finally {
            sharing.shutdownNow();
        }
    }

    /**
     * A holder that declares the window healthy closes each stripe to bad outcomes; an appender's
     * success changes the stripe between the holder's read and its compare-and-set. The holder
     * must try again, or the stripe stays open while the window is healthy: the appender's next
     * failure waits in it, and its success after that is skipped as a healthy window's no-op,
     * ahead of the failure, and lost.
     */
    @Test
    void aStripeThatAnAppendChangesWhileTheHolderClosesItIsClosedAllTheSame() {
        CombiningWindowTests.Pausing w = new CombiningWindowTests.Pausing(1_000);
        w.size = 3;
        w.healthyWhenFull = true; // three successes and no failure: a plain success changes nothing
        ExecutorService sharing = CombiningWindowTests.onStripe("holder-sharing", i -> i == stripe);
        try {
            CombiningWindowTests.collide(w, sharing, appender); // two successes, one stripe, buffering
            HeldOnce closing = hold(Races.CLOSE_READ, HeldOnce.threadOf(sharing));
            Future<Boolean> held = sharing.submit(() -> w.offerAt(0, CombiningWindowTests.HOLD));
            closing.reachedBy(held); // its success filled the window: healthy, closing the stripe
            assertFalse(get(appender.submit(() -> w.record(false, false))), "a success: buffered");
            closing.letGo();
            assertFalse(get(held));
            assertFalse(get(appender.submit(() -> w.record(true, false))));
            assertFalse(get(appender.submit(() -> w.record(false, false))));
            w.counts();
            assertEquals(
                    List.of("S", "S", "S", "S", "F", "S"),
                    w.log,
                    "every outcome of the appender's applied, in its order");
        } finally {
            sharing.shutdownNow();
        }
    }

    /**
     * A recorder waits for a reader of the counts to let the lock go; another writer takes it
     * first. The recorder must not apply its outcome beside that writer: it buffers it for the
     * writer, who applies it before it leaves.
     */
    @Test
    void aRecorderWaitingForAReaderThatAWriterOvertakesLeavesItsOutcomeToTheWriter() {
        CombiningWindowTests.Pausing w = new CombiningWindowTests.Pausing(1_000);
        CountDownLatch leaveRead = new CountDownLatch(1);
        Future<WindowCounts> reading = w.holdTheReadLock(third, leaveRead);
        HeldOnce waiting = hold(Races.READER_AWAITED, HeldOnce.threadOf(maker));
        Future<Boolean> recorder = maker.submit(() -> w.record(false, false));
        waiting.reachedBy(recorder); // it found the reader's hold and waits
        leaveRead.countDown();
        assertEquals(0, get(reading).calls());
        CountDownLatch leave = new CountDownLatch(1);
        Future<Boolean> held = w.holdTheLock(holder, leave); // the writer that overtakes it
        waiting.letGo();
        assertFalse(get(recorder));
        assertEquals(List.of(), w.log, "nothing applied while the writer holds the lock");
        leave.countDown();
        assertFalse(get(held));
        assertEquals(List.of("S", "S"), w.log);
        assertEquals(List.of("holder", "holder"), w.appliers, "the writer applied the recorder's success too");
    }

    /**
     * The appender read the gate open and is held; meanwhile the window's last buffering hold
     * ends buffering. What the appender then does with its outcome is returned for a check.
     */
    private Future<Boolean> anAppenderHeldWhileBufferingEnds(CombiningWindowTests.Pausing w, boolean failure)
            throws ReflectiveOperationException {
        CombiningWindowTests.collide(w, holder, appender);
        CombiningWindowTests.toTheLastBufferingHold(w);
        HeldOnce appending = hold(Races.GATE_READ, HeldOnce.threadOf(appender));
        Future<Boolean> appended = appender.submit(() -> w.record(failure, false));
        appending.reachedBy(appended);
        assertFalse( // at a stamp no gate has: it takes the lock, whatever stripe its thread has
                get(third.submit(() -> w.offerAt(0, CombiningWindowTests.HOLD))), "the hold that ends buffering");
        assertFalse(w.isBuffering());
        appending.letGo();
        return appended;
    }

    /**
     * A success appended after buffering ended, by a thread that read the gate before: its
     * appender raises the urgent bit, so that the next hold, whoever's, drains it first; holders
     * no longer drain other threads' stripes unless told.
     */
    @Test
    void aSuccessAppendedAsBufferingEndsIsDrainedByTheNextHoldWhoeverHoldsIt() throws Exception {
        CombiningWindowTests.Pausing w = new CombiningWindowTests.Pausing(1_000);
        assertFalse(get(anAppenderHeldWhileBufferingEnds(w, false)), "appended to its stripe");
        assertFalse(get(holder.submit(() -> w.record(true, false))));
        assertEquals(
                List.of("S", "S", "S", "S", "F"),
                w.log,
                "the appender's success, then the other thread's failure that came after it");
    }

    /**
     * A failure offered after buffering ended, by a thread that read the gate before: the hold
     * that ended buffering took every stripe's budget back, so the failure is decided at once,
     * as every outcome is again, not left to wait against the old margin.
     */
    @Test
    void aFailureOfferedAsBufferingEndsIsDecidedAtOnce() throws Exception {
        CombiningWindowTests.Pausing w = new CombiningWindowTests.Pausing(1_000);
        assertFalse(get(anAppenderHeldWhileBufferingEnds(w, true)));
        assertEquals(List.of("S", "S", "S", "F"), w.log, "applied before the offer returned");
    }

    /**
     * A broken factory hands one window to two breakers built at once. Breaker A found the window
     * free and is held before it takes it; breaker B's attach must wait for A's, find the window
     * taken, and be refused, so that no window ever counts for two breakers.
     */
    @Test
    void aWindowHandedToTwoBreakersBuiltAtOnceIsTakenByOneAndRefusedToTheOther() throws Exception {
        CombiningWindowTests.Pausing shared = new CombiningWindowTests.Pausing(1_000);
        WindowFactory same = new WindowFactory() {
            @Override
            public Window create(Ticker ticker) {
                return shared;
            }

            @Override
            public String describe() {
                return "the same window each time";
            }
        };
        Thread b = HeldOnce.threadOf(appender);
        HeldOnce attaching = new HeldOnce(HeldOnce.threadOf(maker), "A's attach");
        CountDownLatch bWaits = new CountDownLatch(1);
        Races.handle(p -> {
            if (p == Races.ATTACHING) {
                attaching.holdIfTarget();
            } else if (p == Races.LOCK_AWAITED && Thread.currentThread() == b) {
                bWaits.countDown();
            }
        });
        Future<CircuitBreaker> builtA =
                maker.submit(() -> CircuitBreaker.builder("a").window(same).build());
        attaching.reachedBy(builtA);
        Future<CircuitBreaker> builtB =
                appender.submit(() -> CircuitBreaker.builder("b").window(same).build());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Waits.SECONDS);
        while (!bWaits.await(10, TimeUnit.MILLISECONDS) && !builtB.isDone()) { // until B waits for the lock,
            assertTrue(
                    System.nanoTime() - deadline < 0,
                    "B neither waited for the lock nor was built"); // or (wrongly) was built without it
        }
        attaching.letGo();
        CircuitBreaker a = get(builtA);
        ExecutionException refused = assertThrows(ExecutionException.class, () -> builtB.get(20, TimeUnit.SECONDS));
        assertTrue(refused.getCause() instanceof IllegalStateException, String.valueOf(refused.getCause()));
        assertTrue(
                refused.getCause().getMessage().contains("another breaker already records into"),
                refused.getCause().getMessage());
        a.tryAcquire().onSuccess(0);
        assertEquals(List.of("S"), shared.log, "A records into the window");
        assertEquals(1, a.metrics().totalSuccesses(), "and its totals count the call once");
    }

    /**
     * An outcome beyond its stripe's budget while another recorder holds the lock waits for that
     * holder's new budgets and is buffered with them: no urgent bit, no second hold for the holder.
     */
    @Test
    void anOutcomeBeyondItsBudgetWhileARecorderHoldsTheLockIsBufferedWithTheHoldersNewBudget() throws Exception {
        CombiningWindowTests.Pausing w = new CombiningWindowTests.Pausing(4); // a margin of 3 bad outcomes
        w.stamp = 7; // outcomes at stamp 7 may be buffered: the wait reads the gate's stamp as offers do
        dev.breaker.internal.Totals totals = new dev.breaker.internal.Totals();
        dev.breaker.internal.WindowTotals.attach(w, totals);
        ExecutorService sharing = CombiningWindowTests.onStripe("holder-sharing", i -> i == stripe);
        try {
            CombiningWindowTests.collide(w, sharing, appender); // one stripe: its budget is the whole margin, 3
            for (int i = 0; i < 3; i++) {
                assertFalse(
                        get(appender.submit(() -> w.offerAt(CombiningWindow.FAILED, 7))), "buffered within the budget");
            }
            CountDownLatch leaveApply = new CountDownLatch(1);
            Future<Boolean> held = w.holdTheLock(sharing, leaveApply); // its drain applied the three failures
            HeldOnce waiting = hold(Races.HOLDER_AWAITED, HeldOnce.threadOf(appender));
            Future<Boolean> beyond = appender.submit(() -> w.offerAt(CombiningWindow.FAILED, 7));
            waiting.reachedBy(beyond); // no budget left and the lock held: it waits for the holder
            w.onApply = outcome -> w.failures = 0; // the three aged out: the holder's new margin is 3 again
            CountDownLatch leaveCheck = new CountDownLatch(1);
            w.entered = new CountDownLatch(1);
            w.pauseHealthCheck = leaveCheck;
            leaveApply.countDown();
            CombiningWindowTests.await(w.entered); // the holder set the new budgets and still holds the lock
            waiting.letGo();
            assertFalse(get(beyond), "buffered with the new budget");
            assertEquals(
                    4,
                    totals.sum(dev.breaker.internal.Totals.FAST_FAILURES),
                    "counted as it was buffered, by its thread");
            assertEquals(0, flags(w) & 4, "no urgent bit: nothing for the holder to take the lock again for");
            assertEquals(List.of("S", "S", "F", "F", "F", "S"), w.log, "not applied yet");
            leaveCheck.countDown();
            assertFalse(get(held));
            w.onApply = outcome -> {};
            assertEquals(1, w.counts().failures(), "a reader's drain applies it");
        } finally {
            sharing.shutdownNow();
        }
    }

    /** The same, but the holder leaves with no budget for the stripe: the waiting thread takes the lock and decides. */
    @Test
    void anOutcomeThatTheLeavingHolderGaveNoBudgetIsDecidedByItsOwnThread() throws Exception {
        CombiningWindowTests.Pausing w = new CombiningWindowTests.Pausing(4);
        assertTrue(aFailureBeyondABudgetTheLeavingHolderLeftAtZero(w, 0), "the fourth failure trips");
    }

    /** As above, with a rate rule that the deciding outcome does not meet: the waiting thread's own hold answers no trip. */
    @Test
    void anOutcomeThatTheLeavingHolderGaveNoBudgetAndDoesNotTripIsAnsweredSo() throws Exception {
        CombiningWindowTests.Pausing w = new CombiningWindowTests.Pausing(4);
        w.ratePercent = 50; // four failures trip only if they are half the calls
        assertFalse(
                aFailureBeyondABudgetTheLeavingHolderLeftAtZero(w, 10), "four failures of sixteen calls trip nothing");
    }

    /**
     * Three failures spend the one stripe's budget (then {@code successes} successes); a holder
     * applies them and leaves a margin of 0 while the appender's fourth failure waits for it at
     * {@code HOLDER_AWAITED}. The fourth is then decided by its own thread.
     *
     * @return what that decision answered
     */
    private boolean aFailureBeyondABudgetTheLeavingHolderLeftAtZero(CombiningWindowTests.Pausing w, int successes) {
        ExecutorService sharing = CombiningWindowTests.onStripe("holder-sharing", i -> i == stripe);
        try {
            CombiningWindowTests.collide(w, sharing, appender);
            for (int i = 0; i < 3; i++) {
                assertFalse(get(appender.submit(() -> w.record(true, false))));
            }
            for (int i = 0; i < successes; i++) {
                assertFalse(get(appender.submit(() -> w.record(false, false))));
            }
            CountDownLatch leave = new CountDownLatch(1);
            Future<Boolean> held = w.holdTheLock(sharing, leave);
            HeldOnce waiting = hold(Races.HOLDER_AWAITED, HeldOnce.threadOf(appender));
            Future<Boolean> beyond = appender.submit(() -> w.record(true, false));
            waiting.reachedBy(beyond);
            leave.countDown();
            assertFalse(get(held), "three failures: the margin is 0 now");
            waiting.letGo();
            boolean trips = get(beyond);
            assertEquals("appender", w.appliers.get(w.appliers.size() - 1), "decided by its own thread");
            return trips;
        } finally {
            sharing.shutdownNow();
        }
    }

    private static int flags(CombiningWindow w) throws ReflectiveOperationException {
        java.lang.reflect.Field f = CombiningWindowFields.class.getDeclaredField("flags");
        f.setAccessible(true);
        return f.getInt(w);
    }
}
