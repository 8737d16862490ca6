package dev.breaker.spi;

import static dev.breaker.spi.CombiningWindow.BUFFER;
import static dev.breaker.spi.CombiningWindow.FAILED;
import static dev.breaker.spi.CombiningWindow.MAX_STAMP;
import static dev.breaker.spi.CombiningWindow.SLOW;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breaker.testsupport.Waits;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Interleavings of {@link CombiningWindow} forced one step at a time, with a window that trips at
 * N failures in all and can pause its lock holder: a subclass that throws while a stripe drains,
 * an outcome appended while the hold that ends buffering runs, a reader of the counts holding the
 * lock when a lone recorder's deciding outcome comes, budgets of bad outcomes per stripe, urgent
 * outcomes and trips found by a drain with nobody to tell, and the healthy mode.
 *
 * <p>Every helper thread but the test's own runs on one stripe (the "other" one), so the number
 * of stripes, and with it each stripe's share of the margin, is known; the test's thread has a
 * stripe only where a test makes it.
 */
class CombiningWindowTests {

    /** The stamp the lock holder's outcome is offered with: no gate has it, so it takes the lock. */
    static final long HOLD = 1_000_003;

    /**
     * Trips at {@code tripAt} failures in all (and, if {@code ratePercent} is set, only while
     * failures are at least that share of the calls); pauses or throws on request; logs every
     * outcome applied, in order, with its stamp and the thread that applied it.
     */
    static final class Pausing extends CombiningWindow {
        final int tripAt;
        int calls;
        int failures;
        /** Calls saturate here: a window this full of plain successes is not changed by one more. */
        int size = Integer.MAX_VALUE;
        /** Whether {@link #plainSuccessNeedsNoLock} says so for a full window without failures. */
        boolean healthyWhenFull;

        int ratePercent;
        volatile long stamp;
        final List<String> log = Collections.synchronizedList(new ArrayList<>());
        final List<Long> stamps = Collections.synchronizedList(new ArrayList<>());
        final List<String> appliers = Collections.synchronizedList(new ArrayList<>());
        volatile CountDownLatch pauseApply;
        volatile CountDownLatch pauseHealthCheck;
        volatile CountDownLatch entered;
        volatile boolean throwOnSlow;
        volatile Runnable underTheReadLock = () -> {};
        /** Runs under the lock at every outcome applied, before it is (and before a throw on a slow call). */
        volatile IntConsumer onApply = outcome -> {};
        /** Runs under the lock at every {@link #plainSuccessNeedsNoLock}, that is, in each batch's publication. */
        volatile Runnable onHealthCheck = () -> {};
        /** What {@link #contendedLagLocked} answers: 0, every outcome decided at the margin, unless a test says. */
        volatile int lag;

        /** The runs of successes applied at once, in a window made with runs: their lengths, in order. */
        final List<Integer> runs = Collections.synchronizedList(new ArrayList<>());

        Pausing(int tripAt) {
            this(tripAt, false);
        }

        /** A window whose buffered successes are taken as runs ({@code successRuns}), if {@code runs}. */
        Pausing(int tripAt, boolean runs) {
            super(runs);
            this.tripAt = tripAt;
        }

        @Override
        protected boolean applySuccessesLocked(int count) {
            this.runs.add(count);
            return super.applySuccessesLocked(count); // one at a time: each is logged as applied
        }

        @Override
        protected boolean applyLocked(int outcome, long stamp) {
            CountDownLatch p = pauseApply;
            if (p != null) {
                pauseApply = null;
                entered.countDown();
                await(p);
            }
            onApply.accept(outcome);
            if (throwOnSlow && (outcome & SLOW) != 0) {
                throw new IllegalStateException("a subclass bug");
            }
            log.add(((outcome & FAILED) != 0 ? "F" : "")
                    + ((outcome & SLOW) != 0 ? "W" : "")
                    + (outcome == 0 ? "S" : ""));
            stamps.add(stamp);
            appliers.add(Thread.currentThread().getName());
            calls = Math.min(size, calls + 1);
            failures += outcome & FAILED;
            return failures >= tripAt && failures * 100L >= (long) calls * ratePercent;
        }

        @Override
        protected int safeBadOutcomesLocked() {
            return tripAt - 1 - failures;
        }

        @Override
        protected long stampLocked() {
            return stamp;
        }

        @Override
        protected int contendedLagLocked() {
            return lag;
        }

        @Override
        protected boolean plainSuccessNeedsNoLock() {
            CountDownLatch p = pauseHealthCheck;
            if (p != null) {
                pauseHealthCheck = null;
                entered.countDown();
                await(p);
            }
            onHealthCheck.run();
            return healthyWhenFull && calls == size && failures == 0;
        }

        @Override
        protected WindowCounts countsLocked() {
            return new WindowCounts(calls, failures, 0);
        }

        boolean offerAt(int outcome, long at) {
            return offer(outcome, at);
        }

        @Override
        public WindowCounts counts() {
            return drainedCounts(underTheReadLock);
        }

        /**
         * Has {@code on} record a success (at {@link #HOLD}, so it takes the lock) that stays
         * inside applyLocked, holding the lock, until {@code leave}.
         */
        Future<Boolean> holdTheLock(ExecutorService on, CountDownLatch leave) {
            return holdTheLock(on, leave, 0);
        }

        /** Has {@code on} read the counts and stay inside its hold of the lock, as a reader, until {@code leave}. */
        Future<WindowCounts> holdTheReadLock(ExecutorService on, CountDownLatch leave) {
            CountDownLatch inside = new CountDownLatch(1);
            underTheReadLock = () -> {
                inside.countDown();
                await(leave);
            };
            Future<WindowCounts> f = on.submit(this::counts);
            await(inside);
            return f;
        }

        /** {@link #holdTheLock(ExecutorService, CountDownLatch)} with another outcome. */
        Future<Boolean> holdTheLock(ExecutorService on, CountDownLatch leave, int outcome) {
            entered = new CountDownLatch(1);
            pauseApply = leave;
            Future<Boolean> f = on.submit(() -> offer(outcome, HOLD));
            await(entered);
            return f;
        }
    }

    /**
     * The helper threads of a test: "other" on a stripe that is not the test thread's ("mine"),
     * "holder" and "reader" on other's ("theirs"). Made for each test, stopped after it.
     */
    static final class Threads {
        final int mine = CombiningWindow.index();
        final ExecutorService other = onStripe("other", i -> i != mine);
        final int theirs = get(other.submit(CombiningWindow::index));
        final ExecutorService holder = onStripe("holder", i -> i == theirs);
        final ExecutorService reader = onStripe("reader", i -> i == theirs);

        void stop() {
            other.shutdownNow();
            holder.shutdownNow();
            reader.shutdownNow();
        }
    }

    private final Threads threads = new Threads();
    private final int mine = threads.mine;
    private final int theirs = threads.theirs;
    private final ExecutorService other = threads.other;
    private final ExecutorService holder = threads.holder;
    private final ExecutorService reader = threads.reader;

    @AfterEach
    void stop() {
        threads.stop();
    }

    /** Reads the counts until the next hold is the last one of the buffering mode (4,095 quiet holds). */
    static void toTheLastBufferingHold(Pausing w) throws ReflectiveOperationException {
        Field quiet = CombiningWindow.class.getDeclaredField("quietHolds");
        quiet.setAccessible(true);
        while (quiet.getInt(w) < 4095) {
            w.counts(); // holds that find nothing of another thread's
        }
    }

    static void await(CountDownLatch l) {
        Waits.await(l);
    }

    static <T> T get(Future<T> f) {
        return Waits.get(f);
    }

    static java.util.concurrent.ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }

    /** A single thread whose stripe index passes {@code stripe}. */
    static ExecutorService onStripe(String name, IntPredicate stripe) {
        for (int i = 0; i < 200; i++) {
            ExecutorService ex = Executors.newSingleThreadExecutor(daemon(name));
            if (stripe.test(get(ex.submit(CombiningWindow::index)))) {
                return ex;
            }
            ex.shutdown();
        }
        throw new AssertionError("no thread for " + name + " in 200");
    }

    /** Puts the window in the buffering mode, the other thread's stripe open: one collision, as under load. */
    private void collide(Pausing w) {
        collide(w, holder, other);
    }

    /** {@code other} records a success while {@code holder} holds the lock: buffering starts. */
    static void collide(Pausing w, ExecutorService holder, ExecutorService other) {
        CountDownLatch leave = new CountDownLatch(1);
        Future<Boolean> held = w.holdTheLock(holder, leave);
        assertFalse(get(other.submit(() -> w.record(false, false)))); // lock busy: buffered, urgent
        leave.countDown();
        assertFalse(get(held));
        assertTrue(w.isBuffering());
    }

    private boolean fromTheOtherThread(Pausing w, boolean failure) {
        return get(other.submit(() -> w.record(failure, false)));
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
        toTheLastBufferingHold(w);
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
        assertTrue(w.everContended(), "but the window remembers that threads collided on it");
        int trippedAt = -1;
        for (int i = 0; i < 9 + 1_000; i++) { // this thread alone: 9 failures, then successes
            if (w.record(i < 9, false) && trippedAt < 0) {
                trippedAt = i;
            }
        }
        assertEquals(8, trippedAt, "the other thread's failure and 9 of ours: the trip at our 9th");
        assertEquals(10, w.counts().failures());
    }

    /**
     * A thread that waits long enough for the lock parks in the end; one that came interrupted
     * parks too (its interrupt cleared for the park) and leaves with its interrupt, and one that
     * did not come interrupted leaves without one.
     */
    @Test
    void aLongWaitKeepsTheWaitersInterruptAndAddsNone() throws Exception {
        Pausing w = new Pausing(100);
        CountDownLatch leave = new CountDownLatch(1);
        Future<Boolean> held = w.holdTheLock(holder, leave);
        Future<Boolean> interrupted = reader.submit(() -> {
            Thread.currentThread().interrupt();
            w.counts();
            return Thread.interrupted();
        });
        Future<Boolean> calm = other.submit(() -> {
            w.counts();
            return Thread.interrupted();
        });
        Thread.sleep(100); // long enough for both to reach the parks; the outcome is the same at any moment
        leave.countDown();
        assertFalse(get(held));
        assertTrue(get(interrupted), "the interrupt it came with");
        assertFalse(get(calm), "no interrupt of its own");
    }

    @Test
    void aReaderHoldingTheLockDoesNotDelayALoneRecordersTrip() throws Exception {
        Pausing w = new Pausing(3);
        collide(w); // an earlier collision: the recorder's stripe is open, the window buffering
        assertFalse(other.submit(() -> w.record(true, false)).get());
        assertFalse(other.submit(() -> w.record(true, false)).get());
        CountDownLatch leave = new CountDownLatch(1);
        Future<WindowCounts> reading = w.holdTheReadLock(reader, leave);
        Future<Boolean> third = other.submit(() -> w.record(true, false)); // the deciding outcome
        Thread.sleep(50); // it finds the reader's hold
        leave.countDown();
        assertTrue(third.get(10, TimeUnit.SECONDS), "the third failure is answered as the deciding outcome");
        reading.get(10, TimeUnit.SECONDS);
        assertEquals(
                "other",
                w.appliers.get(w.appliers.size() - 1),
                "the recorder waited for the reader's hold and applied its failure itself, not buffered it");
    }

    @Test
    void aLoneRecorderNeverBuffersAndTripsAtTheDecidingOutcome() {
        Pausing w = new Pausing(3);
        assertFalse(w.record(true, false));
        assertFalse(w.record(false, false));
        assertFalse(w.record(true, false));
        assertTrue(w.record(true, false), "the third failure");
        assertFalse(w.isBuffering(), "one thread at a time never collides");
        assertFalse(w.everContended());
        assertEquals(List.of("F", "S", "F", "F"), w.log, "each applied at once, in order");
    }

    @Test
    void stampsReachTheSubclassWholeWhetherAppliedAtOnceOrFromABuffer() throws Exception {
        Pausing w = new Pausing(1_000);
        assertFalse(w.offerAt(FAILED, MAX_STAMP));
        assertEquals(List.of(MAX_STAMP), w.stamps, "the largest stamp, through the lock");
        long now = MAX_STAMP - 5; // low 32 bits not 0: the gate must carry them
        w.stamp = now;
        collide(w);
        w.log.clear();
        w.stamps.clear();
        assertFalse(get(other.submit(() -> w.offerAt(0, now))));
        assertFalse(get(other.submit(() -> w.offerAt(FAILED | SLOW, now))));
        assertEquals(List.of(), w.log, "outcomes of the gate's stamp wait in the other thread's stripe");
        assertFalse(get(other.submit(() -> w.offerAt(0, now + 1))), "another stamp takes the lock");
        assertEquals(List.of("S", "FW", "S"), w.log, "the buffered ones first, in order");
        assertEquals(List.of(now, now, now + 1), w.stamps);
        toTheLastBufferingHold(w);
        w.counts();
        assertFalse(w.isBuffering(), "the 4096th quiet hold ends buffering");
        assertFalse(w.offerAt(0, now + 1)); // the urgent bit that ending raised is taken by this offer
        w.log.clear();
        w.stamps.clear();
        assertFalse(w.offerAt(FAILED | SLOW, MAX_STAMP)); // a lone offer, in a window that once buffered
        assertEquals(List.of("FW"), w.log, "the outcome whole");
        assertEquals(List.of(MAX_STAMP), w.stamps, "the stamp whole");
    }

    @Test
    void successesWaitInABufferEvenWhenNoBadOutcomeMayAndTheHolderAppliesThemFirst() throws Exception {
        Pausing w = new Pausing(1); // a single failure trips: no bad outcome may wait
        collide(w);
        assertFalse(fromTheOtherThread(w, false));
        assertFalse(fromTheOtherThread(w, false));
        assertEquals(2, w.log.size(), "the other thread's two successes wait in its stripe");
        assertTrue(w.record(true, false), "this thread's failure is decided at once");
        assertEquals(List.of("S", "S", "S", "S", "F"), w.log, "after every stripe's pending outcomes");
    }

    @Test
    void eachStripeMayBufferItsShareOfTheMarginAndTheNextBadOutcomeIsDecidedAtOnce() throws Exception {
        Pausing w = new Pausing(9); // 8 failures may wait, in all
        collide(w);
        w.counts(); // this thread holds the lock while buffering: its stripe is made
        get(reader.submit(w::counts)); // and the next hold opens it: two stripes, 4 each
        for (int i = 0; i < 4; i++) {
            assertFalse(w.record(true, false));
            assertFalse(fromTheOtherThread(w, true));
        }
        assertEquals(2, w.log.size(), "eight failures wait, four in each stripe");
        assertTrue(fromTheOtherThread(w, true), "the other thread's fifth is beyond its budget: decided, and trips");
        assertEquals(9, Collections.frequency(w.log, "F"));
    }

    @Test
    void aBudgetSetWhileBadOutcomesArePendingCountsThemAndADrainGivesNothingBack() throws Exception {
        Pausing w = new Pausing(10); // 9 failures may wait; one stripe, the other thread's
        collide(w);
        for (int i = 0; i < 5; i++) {
            assertFalse(fromTheOtherThread(w, true));
        }
        assertEquals(2, w.log.size(), "five failures wait");
        w.underTheReadLock = () -> {
            // after the reader's drain: two more failures come, and the drained ones age out
            assertFalse(fromTheOtherThread(w, true));
            assertFalse(fromTheOtherThread(w, true));
            w.failures = 0;
        };
        assertEquals(0, get(reader.submit(w::counts)).failures());
        w.underTheReadLock = () -> {};
        for (int i = 0; i < 7; i++) { // a margin of 9 again, less the two pending
            assertFalse(fromTheOtherThread(w, true));
        }
        assertEquals(7, w.log.size(), "nine failures wait");
        assertTrue(fromTheOtherThread(w, true), "the next is decided at once on the nine and itself: ten");
    }

    @Test
    void aFullBufferMakesItsWriterTakeTheLock() throws Exception {
        Pausing w = new Pausing(1_000);
        collide(w);
        for (int i = 0; i < BUFFER; i++) {
            assertFalse(fromTheOtherThread(w, false));
        }
        assertEquals(2, w.log.size(), "a buffer's worth waits");
        assertFalse(fromTheOtherThread(w, false));
        assertEquals(2 + BUFFER + 1, w.log.size(), "one more: the buffer is full, its writer applies them all");
        assertEquals(2 + BUFFER + 1, get(reader.submit(w::counts)).calls(), "none lost");
    }

    @Test
    void aWriterWhoseBufferIsFullWaitsForTheHolder() throws Exception {
        Pausing w = new Pausing(1_000);
        collide(w);
        for (int i = 0; i < BUFFER; i++) {
            assertFalse(fromTheOtherThread(w, false));
        }
        CountDownLatch leave = new CountDownLatch(1);
        Future<Boolean> held = w.holdTheLock(holder, leave);
        Future<Boolean> waiting = other.submit(() -> w.record(false, false));
        assertThrows(TimeoutException.class, () -> waiting.get(100, TimeUnit.MILLISECONDS), "it waits");
        leave.countDown();
        assertFalse(held.get(10, TimeUnit.SECONDS));
        assertFalse(waiting.get(10, TimeUnit.SECONDS));
        assertEquals(2 + 1 + BUFFER + 1, w.log.size());
        assertEquals(
                HOLD,
                w.stamps.get(2 + BUFFER),
                "the holder applied the buffer's worth, then its own; the writer applied its own after the holder left");
    }

    @Test
    void aReaderOfTheCountsWaitsForTheHolder() throws Exception {
        Pausing w = new Pausing(1_000);
        CountDownLatch leave = new CountDownLatch(1);
        Future<Boolean> held = w.holdTheLock(holder, leave);
        Future<WindowCounts> reading = reader.submit(w::counts);
        assertThrows(TimeoutException.class, () -> reading.get(100, TimeUnit.MILLISECONDS), "it waits");
        leave.countDown();
        assertFalse(held.get(10, TimeUnit.SECONDS));
        assertEquals(1, reading.get(10, TimeUnit.SECONDS).calls(), "and sees the holder's outcome");
    }

    @Test
    void aTripThatTheHoldersLastDrainFindsIsReportedByTheNextOffer() throws Exception {
        Pausing w = new Pausing(1);
        w.ratePercent = 25; // one failure in four calls trips; a success after it heals
        collide(w);
        CountDownLatch leave = new CountDownLatch(1);
        Future<Boolean> held = w.holdTheLock(holder, leave);
        assertFalse(
                other.submit(() -> w.record(true, false)).get(10, TimeUnit.SECONDS),
                "no budget and the lock busy: buffered as urgent, for the holder to decide");
        leave.countDown();
        assertFalse(held.get(10, TimeUnit.SECONDS), "the holder's own success tripped nothing");
        assertEquals(List.of("S", "S", "S", "F"), w.log, "the holder applied the urgent failure before it left");
        assertTrue(w.record(false, false), "the trip it found, with nobody to tell, is reported by the next offer");
        assertFalse(w.record(false, false), "once");
    }

    @Test
    void afterASubclassThrowsInTheHoldersLastDrainTheNextHoldDecidesWhatWasBehind() throws Exception {
        Pausing w = new Pausing(1);
        w.ratePercent = 25;
        collide(w);
        CountDownLatch leave = new CountDownLatch(1);
        Future<Boolean> held = w.holdTheLock(holder, leave);
        assertFalse(other.submit(() -> w.record(false, true)).get(10, TimeUnit.SECONDS)); // urgent
        assertFalse(other.submit(() -> w.record(true, false)).get(10, TimeUnit.SECONDS)); // urgent, behind it
        w.throwOnSlow = true;
        leave.countDown();
        ExecutionException e = assertThrows(ExecutionException.class, () -> held.get(10, TimeUnit.SECONDS));
        assertInstanceOf(IllegalStateException.class, e.getCause(), "the subclass's bug reaches the holder");
        w.throwOnSlow = false;
        assertEquals(List.of("S", "S", "S"), w.log, "the failure behind the slow call waits");
        WindowCounts c = reader.submit(w::counts).get(10, TimeUnit.SECONDS); // the lock was given back
        assertEquals(4, c.calls());
        assertEquals(1, c.failures());
        assertTrue(w.record(false, false), "the trip the reader's drain found is reported by the next offer");
        assertFalse(w.record(false, false), "once");
    }

    @Test
    void aHealthyWindowSkipsPlainSuccessesAndDecidesTheNextFailure() {
        Pausing w = new Pausing(2);
        w.size = 3;
        w.healthyWhenFull = true;
        for (int i = 0; i < 5; i++) {
            assertFalse(w.record(false, false));
        }
        assertEquals(3, w.log.size(), "once full of successes, a plain success is not applied");
        assertFalse(w.record(true, false));
        assertEquals(List.of("S", "S", "S", "F"), w.log, "a failure is");
        assertFalse(w.record(false, false));
        assertEquals(5, w.log.size(), "and then successes are again");
        assertTrue(w.record(true, false));
    }

    @Test
    void whileHealthyNoBadOutcomeWaitsInABuffer() throws Exception {
        Pausing w = new Pausing(100);
        w.size = 2;
        w.healthyWhenFull = true;
        collide(w); // the holder's last drain fills the window with successes: healthy
        assertFalse(w.record(false, false));
        assertEquals(2, w.log.size(), "healthy: a plain success is not applied");
        assertFalse(fromTheOtherThread(w, true));
        assertEquals(List.of("S", "S", "F"), w.log, "the stripe is closed to failures: applied at once");
        assertFalse(fromTheOtherThread(w, true));
        assertEquals(3, w.log.size(), "no longer healthy: the stripe is open again, and the failure waits");
        w.underTheReadLock = () -> w.failures = 0; // the failures age out
        assertEquals(0, get(reader.submit(w::counts)).failures());
        w.underTheReadLock = () -> {};
        assertFalse(w.record(false, false));
        assertEquals(4, w.log.size(), "healthy again: the drained failure is not counted as pending");
    }

    @Test
    void aFailurePendingInAStripeKeepsTheWindowFromBeingDeclaredHealthy() throws Exception {
        Pausing w = new Pausing(100);
        w.size = 3;
        w.healthyWhenFull = true;
        collide(w);
        CountDownLatch leave = new CountDownLatch(1);
        Future<Boolean> held = w.holdTheLock(holder, leave); // its success fills the window
        assertFalse(fromTheOtherThread(w, true)); // within the budget: waits, during the hold
        leave.countDown();
        assertFalse(held.get(10, TimeUnit.SECONDS));
        assertEquals(List.of("S", "S", "S"), w.log);
        assertFalse(w.record(false, false));
        assertEquals(List.of("S", "S", "S", "F", "S"), w.log, "this success is applied, after the failure");
    }

    @Test
    void anOutcomeBufferedInAStripeMadeLateInAHoldIsAppliedBeforeTheHolderLeaves() throws Exception {
        Pausing w = new Pausing(1_000);
        CountDownLatch leave = new CountDownLatch(1);
        w.entered = new CountDownLatch(1);
        w.pauseHealthCheck = leave; // past the holder's drain and its look at the stripes
        Future<Boolean> held = holder.submit(() -> w.record(false, false));
        await(w.entered);
        assertFalse(fromTheOtherThread(w, false)); // lock busy: a new stripe, urgent
        leave.countDown();
        assertFalse(held.get(10, TimeUnit.SECONDS));
        assertEquals(2, w.log.size(), "the holder drained the new stripe before it left");
    }

    @Test
    void bufferingLastsWhileHoldsFindEntriesAndEndsAfterQuietOnes() throws Exception {
        Pausing w = new Pausing(3);
        collide(w);
        assertTrue(
                get(other.submit(() -> {
                    for (int i = 0; i < 5_000; i++) {
                        w.record(false, false); // waits in the stripe
                        w.counts(); // a hold that drains it
                    }
                    return w.isBuffering();
                })),
                "holds that drain entries keep the window buffering");
        get(reader.submit(() -> {
            for (int i = 0; i < 5_000 && w.isBuffering(); i++) {
                w.counts();
            }
        }));
        assertFalse(w.isBuffering(), "quiet holds end it");
        assertFalse(w.record(true, false)); // this thread, which never had a stripe, alone
        assertFalse(w.record(true, false));
        assertTrue(w.record(true, false), "the third failure, exactly");
    }

    /**
     * Overrides only what it must: every default of the base class in use. Applies everything, tripping when told to; healthy (a plain success is then a no-op) when
     * told so; its stamp is {@link #stamp}, or it fails.
     */
    static final class Plain extends CombiningWindow {
        int calls;
        long lastStamp = -1;
        volatile boolean trips;
        volatile boolean healthy;
        volatile long stamp;
        volatile RuntimeException stampFailure;

        @Override
        protected boolean applyLocked(int outcome, long stamp) {
            calls++;
            lastStamp = stamp;
            return trips;
        }

        @Override
        protected int safeBadOutcomesLocked() {
            return 1_000;
        }

        @Override
        protected boolean plainSuccessNeedsNoLock() {
            return healthy || super.plainSuccessNeedsNoLock(); // the base class's default unless told healthy
        }

        @Override
        protected long stampNow() {
            RuntimeException e = stampFailure;
            if (e != null) {
                throw e;
            }
            return stamp;
        }

        @Override
        protected WindowCounts countsLocked() {
            return new WindowCounts(calls, 0, 0);
        }

        @Override
        public WindowCounts counts() {
            return drainedCounts(() -> {});
        }
    }

    /**
     * An outcome that waits in a buffer is counted in the breaker's totals by its own thread at
     * once, whichever way it got there (the busy path while another thread holds the lock, the
     * budget of the buffering mode after), and not again when a holder applies it.
     */
    @Test
    void anOutcomeLeftInABufferIsCountedInTheBreakersTotalsOnceByItsOwnThread() throws Exception {
        Pausing w = new Pausing(100);
        dev.breaker.internal.Totals totals = new dev.breaker.internal.Totals();
        dev.breaker.internal.WindowTotals.attach(w, totals);
        CountDownLatch leave = new CountDownLatch(1);
        Future<Boolean> held = w.holdTheLock(holder, leave);
        assertFalse(w.record(false, false)); // the lock is busy: buffered
        assertEquals(1, totals.sum(dev.breaker.internal.Totals.FAST_SUCCESSES), "counted as it was buffered");
        leave.countDown();
        assertFalse(get(held));
        assertTrue(w.isBuffering());
        assertFalse(w.record(true, false)); // within this stripe's budget: buffered, the lock is free
        assertEquals(1, totals.sum(dev.breaker.internal.Totals.FAST_FAILURES), "counted as it was buffered");
        assertFalse(w.log.contains("F"), "not applied yet");
        w.counts();
        assertTrue(w.log.contains("F"), "applied by the reader's drain");
        assertArrayEquals(
                new long[] {2, 1, 0, 0},
                dev.breaker.internal.WindowTotals.calls(w, totals),
                "the holder's own call in the window's lanes, the buffered ones in the totals, none twice");
        toTheLastBufferingHold(w);
        w.counts(); // the hold that ends the buffering mode
        assertFalse(w.isBuffering());
        assertFalse(w.record(false, true)); // alone again, but the window buffered once: the general hold
        assertEquals(0, totals.sum(dev.breaker.internal.Totals.SLOW_SUCCESSES), "counted under the lock");
        assertArrayEquals(new long[] {2, 1, 1, 0}, dev.breaker.internal.WindowTotals.calls(w, totals));
    }

    @Test
    void byDefaultEveryPlainSuccessIsApplied() {
        Plain w = new Plain();
        for (int i = 0; i < 5; i++) {
            assertFalse(w.record(false, false));
        }
        assertEquals(5, w.counts().calls(), "a subclass that does not say a success is a no-op sees them all");
    }

    @Test
    void aRecorderThatFindsAReadersHoldWaitsForItAndDecidesItsOwnOutcome() throws Exception {
        Pausing w = new Pausing(2);
        assertFalse(w.record(true, false));
        CountDownLatch leave = new CountDownLatch(1);
        Future<WindowCounts> reading = w.holdTheReadLock(reader, leave);
        Future<Boolean> next = other.submit(() -> w.record(false, false));
        assertThrows(TimeoutException.class, () -> next.get(100, TimeUnit.MILLISECONDS), "it waits for the hold");
        leave.countDown();
        assertFalse(next.get(10, TimeUnit.SECONDS), "a success trips nothing");
        assertEquals(1, reading.get(10, TimeUnit.SECONDS).calls());
        assertFalse(w.isBuffering(), "a reader is not a recorder: no collision");
        assertEquals(List.of("F", "S"), w.log);
        assertEquals("other", w.appliers.get(1), "the recorder applied its own outcome");
    }

    @Test
    void stripesClosedBeforeOneWithAPendingFailureAreOpenedAgain() throws Exception {
        Pausing w = new Pausing(100);
        w.size = 3;
        w.healthyWhenFull = true;
        collide(w);
        w.counts(); // this thread's stripe is made
        get(reader.submit(w::counts)); // and opened: two stripes, closed in the order of their indexes
        boolean mineFirst = mine < theirs;
        CountDownLatch leave = new CountDownLatch(1);
        Future<Boolean> held = w.holdTheLock(holder, leave); // its success fills the window
        assertFalse(mineFirst ? fromTheOtherThread(w, true) : w.record(true, false)); // waits in the later stripe
        leave.countDown();
        assertFalse(held.get(10, TimeUnit.SECONDS));
        assertEquals(List.of("S", "S", "S"), w.log, "not declared healthy: a failure is pending");
        assertFalse(mineFirst ? w.record(true, false) : fromTheOtherThread(w, true));
        assertEquals(3, w.log.size(), "the earlier stripe, closed on the way, is open again: the failure waits in it");
    }

    /**
     * A healthy window (its stripes closed to bad outcomes) whose lock is held through a slow
     * call, which this window does not count: a failure of the other thread finds its stripe
     * closed and the lock busy, waits for the holder, and is decided by its own thread.
     */
    private void aFailureFindingItsStripeClosedWaitsForTheHolder(int tripAt) throws Exception {
        Pausing w = new Pausing(tripAt);
        w.size = 2;
        w.healthyWhenFull = true;
        collide(w); // healthy
        CountDownLatch leave = new CountDownLatch(1);
        Future<Boolean> held = w.holdTheLock(holder, leave, SLOW);
        Future<Boolean> failure = other.submit(() -> w.record(true, false));
        assertThrows(TimeoutException.class, () -> failure.get(100, TimeUnit.MILLISECONDS), "it waits");
        leave.countDown();
        assertFalse(held.get(10, TimeUnit.SECONDS));
        assertEquals(tripAt == 1, failure.get(10, TimeUnit.SECONDS), "decided by its own thread");
        assertEquals(List.of("S", "S", "W", "F"), w.log);
        assertEquals("other", w.appliers.get(3));
    }

    @Test
    void aFailureFindingItsStripeClosedWaitsForTheHolderAndTrips() throws Exception {
        aFailureFindingItsStripeClosedWaitsForTheHolder(1);
    }

    @Test
    void aFailureFindingItsStripeClosedWaitsForTheHolderAndDoesNotTripTooEarly() throws Exception {
        aFailureFindingItsStripeClosedWaitsForTheHolder(2);
    }

    /**
     * Nine failures of the other thread may wait in its stripe (a margin of 9, one stripe), after
     * the successes it offered earlier: a success is not a bad outcome, wherever it was buffered
     * from, so it takes nothing of the stripe's budget. The tenth failure is decided at once.
     */
    private void nineFailuresWaitAndTheTenthTrips(Pausing w) {
        int applied = w.log.size();
        for (int i = 0; i < 9; i++) {
            assertFalse(fromTheOtherThread(w, true));
        }
        assertEquals(applied, w.log.size(), "nine failures wait: the budget is the whole margin");
        assertTrue(fromTheOtherThread(w, true), "the tenth is decided at once, on the nine and itself");
    }

    @Test
    void aSuccessBufferedBecauseAnUrgentOutcomeWaitsTakesNoneOfTheBudgetOfBadOutcomes() throws Exception {
        Pausing w = new Pausing(10); // a margin of 9 bad outcomes, one stripe: the other thread's
        collide(w);
        CountDownLatch leave = new CountDownLatch(1);
        Future<Boolean> held = w.holdTheLock(holder, leave);
        // not the gate's stamp: the lock path, busy, so buffered as urgent, and the urgent bit is up
        assertFalse(get(other.submit(() -> w.offerAt(0, 1))));
        // the urgent bit is up and a recorder holds the lock: this one goes the usual way, which
        // for a stamp not the gate's is the lock path again: busy, buffered as urgent, a success
        assertFalse(get(other.submit(() -> w.offerAt(0, 1))));
        leave.countDown();
        assertFalse(held.get(10, TimeUnit.SECONDS));
        assertEquals(List.of("S", "S", "S", "S", "S"), w.log, "the holder applied both before it left");
        nineFailuresWaitAndTheTenthTrips(w);
    }

    @Test
    void aSuccessThatReportsAPendingTripWhileTheLockIsBusyTakesNoneOfTheBudgetOfBadOutcomes() throws Exception {
        Pausing w = new Pausing(10);
        w.ratePercent = 75; // the tenth failure in 13 calls trips; the success after it heals
        collide(w);
        for (int i = 0; i < 9; i++) {
            assertFalse(fromTheOtherThread(w, true)); // the whole budget: they wait
        }
        AtomicBoolean once = new AtomicBoolean();
        AtomicReference<Boolean> reported = new AtomicReference<>();
        w.onHealthCheck = () -> {
            // the holder's last drain applied the tenth failure, found the trip with nobody to
            // tell, and still holds the lock: a success of the other thread comes now
            if (w.failures == 10 && once.compareAndSet(false, true)) {
                reported.set(fromTheOtherThread(w, false));
            }
        };
        CountDownLatch leave = new CountDownLatch(1);
        Future<Boolean> held = w.holdTheLock(holder, leave); // paused while draining the nine
        assertFalse(fromTheOtherThread(w, true), "no budget left and the lock busy: buffered as urgent");
        leave.countDown();
        assertFalse(held.get(10, TimeUnit.SECONDS), "the holder's own success tripped nothing");
        w.onHealthCheck = () -> {};
        assertEquals(Boolean.TRUE, reported.get(), "the success reported the trip the holder's last drain found");
        assertEquals(10, Collections.frequency(w.log, "F"));
        assertEquals("S", w.log.get(w.log.size() - 1), "and was applied after the tenth failure");
        w.underTheReadLock = () -> { // the calls age out: a margin of 9 again
            w.failures = 0;
            w.calls = 0;
        };
        assertEquals(0, get(reader.submit(w::counts)).calls());
        w.underTheReadLock = () -> {};
        nineFailuresWaitAndTheTenthTrips(w);
    }

    @Test
    void anUrgentOutcomeLeftBehindByAHolderWhoseSubclassThrewIsDecidedByTheNextOffer() throws Exception {
        Pausing w = new Pausing(1); // no bad outcome may wait
        collide(w);
        CountDownLatch leave = new CountDownLatch(1);
        Future<Boolean> held = w.holdTheLock(holder, leave);
        assertFalse(other.submit(() -> w.record(false, true)).get(10, TimeUnit.SECONDS)); // lock busy: urgent
        AtomicBoolean once = new AtomicBoolean();
        w.onApply = outcome -> {
            // the holder's last drain has taken the urgent bit down and applies the slow call:
            // a failure of the other thread comes now, finds the lock busy and raises the bit again
            if (outcome == SLOW && once.compareAndSet(false, true)) {
                assertFalse(fromTheOtherThread(w, true));
            }
        };
        w.throwOnSlow = true;
        leave.countDown();
        ExecutionException e = assertThrows(ExecutionException.class, () -> held.get(10, TimeUnit.SECONDS));
        assertInstanceOf(IllegalStateException.class, e.getCause(), "the subclass's bug reaches the holder");
        w.throwOnSlow = false;
        w.onApply = outcome -> {};
        assertEquals(List.of("S", "S", "S"), w.log, "the failure waits, urgent, with the lock free");
        assertTrue(w.record(false, false), "the next offer, by any thread, applies it and reports the trip");
        assertEquals(List.of("S", "S", "S", "F", "S"), w.log);
    }

    @Test
    void afterTheDrainThatEndsBufferingThrowsAThreadsNextOutcomeIsAppliedAfterItsEarlierOnes() throws Exception {
        Pausing w = new Pausing(1_000);
        collide(w);
        toTheLastBufferingHold(w);
        w.underTheReadLock = () -> {
            // during the last buffering hold, after its drain: a slow call and a failure of the
            // other thread wait in its stripe, within the budget
            assertFalse(get(other.submit(() -> w.record(false, true))));
            assertFalse(fromTheOtherThread(w, true));
        };
        w.throwOnSlow = true;
        assertThrows(
                IllegalStateException.class,
                w::counts,
                "the 4096th quiet hold ends buffering; its last drain applies the slow call, and the subclass throws");
        w.throwOnSlow = false;
        w.underTheReadLock = () -> {};
        assertFalse(w.isBuffering());
        int applied = w.log.size();
        assertFalse(fromTheOtherThread(w, false));
        assertEquals(
                List.of("F", "S"),
                w.log.subList(applied, w.log.size()),
                "the other thread's failure, left behind the slow call, is applied before its success");
    }

    @Test
    void quietHoldsEndBufferingEvenWhileNoBadOutcomeMayWait() throws Exception {
        Pausing w = new Pausing(1);
        w.ratePercent = 100; // trips while every call failed
        assertTrue(w.record(true, false), "one failure: the margin is below 0, the gate lets nothing be buffered");
        collide(w);
        for (int i = 0; i < 5_000 && w.isBuffering(); i++) {
            w.counts(); // holds that find nothing of another thread's
        }
        assertFalse(w.isBuffering(), "quiet holds end the buffering mode, whatever the margin");
    }
}
