package dev.breaker.spi;

import static dev.breaker.spi.CombiningWindow.BUFFER;
import static dev.breaker.spi.CombiningWindow.FAILED;
import static dev.breaker.spi.CombiningWindow.RUN_BUFFER;
import static dev.breaker.spi.CombiningWindowTests.collide;
import static dev.breaker.spi.CombiningWindowTests.get;
import static dev.breaker.spi.CombiningWindowTests.onStripe;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breaker.spi.CombiningWindowTests.Pausing;
import java.util.List;
import java.util.concurrent.ExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A window made with {@code successRuns} (a count window's case): a buffered plain success is
 * only counted in its stripe, a bad outcome's entry keeps the count before it, and the holder
 * applies each run of successes at once. The thread's order must survive that, runs must fill the
 * buffer as entries do (the lag bound), and no outcome may be lost or applied twice.
 */
class SuccessRunsTests {

    private final int mine = CombiningWindow.index();
    private final ExecutorService other = onStripe("other", i -> i != mine);
    private final int theirs = get(other.submit(CombiningWindow::index));
    private final ExecutorService holder = onStripe("holder", i -> i == theirs);

    @AfterEach
    void stop() {
        other.shutdownNow();
        holder.shutdownNow();
    }

    private boolean fromTheOtherThread(Pausing w, boolean failure) {
        return get(other.submit(() -> w.record(failure, false)));
    }

    @Test
    void aSuccessBufferedWhileTheLockIsBusyIsARunOfOne() {
        Pausing w = new Pausing(100, true);
        collide(w, holder, other);
        assertEquals(List.of("S", "S"), w.log, "the holder's own, then the other thread's, drained before it left");
        assertEquals(List.of(1), w.runs, "the buffered success was applied as a run, not as an entry");
    }

    @Test
    void aThreadsOutcomesKeepTheirOrderAndEachRunOfSuccessesIsAppliedAtOnce() {
        Pausing w = new Pausing(100, true);
        collide(w, holder, other);
        String sequence = "SSFSSSFFS";
        for (char c : sequence.toCharArray()) {
            assertFalse(fromTheOtherThread(w, c == 'F'));
        }
        assertEquals(2, w.log.size(), "all of it waits: successes need no budget, failures are within theirs");
        assertEquals(new WindowCounts(2 + sequence.length(), 3, 0), w.counts(), "a reader drains it all");
        assertEquals(sequence, String.join("", w.log.subList(2, w.log.size())), "in the thread's order");
        assertEquals(List.of(1, 2, 3, 1), w.runs, "runs of 2, 3 and 1 between the failures, after the collision's");
    }

    @Test
    void theEntryKeepsItsRunNotItsStampWhichIsZeroInRuns() {
        Pausing w = new Pausing(100, true);
        w.stamp = 7; // the gate lets outcomes at 7 be buffered; a window with runs must not use other stamps
        collide(w, holder, other);
        get(other.submit(() -> w.offerAt(0, 7)));
        get(other.submit(() -> w.offerAt(FAILED, 7)));
        get(other.submit(() -> w.offerAt(0, 7)));
        w.counts();
        assertEquals(List.of("S", "S", "S", "F", "S"), w.log);
        assertEquals(List.of(1, 1, 1), w.runs, "the stamp's bits did not add to the run before the failure");
        assertEquals(0L, w.stamps.get(3), "the failure reaches the subclass at stamp 0");
    }

    @Test
    void aStripeTakesItsRunBufferOfSuccessesThenItsWriterTakesTheLock() {
        Pausing w = new Pausing(1_000, true);
        collide(w, holder, other);
        for (int i = 0; i < RUN_BUFFER; i++) {
            assertFalse(fromTheOtherThread(w, false));
        }
        assertEquals(2, w.log.size(), "a run buffer's worth of successes waits");
        assertFalse(fromTheOtherThread(w, false));
        assertEquals(2 + RUN_BUFFER + 1, w.log.size(), "one more: the stripe is full, its writer applies them all");
        assertEquals(List.of(1, RUN_BUFFER), w.runs, "as one run");
        assertEquals(2 + RUN_BUFFER + 1, w.counts().calls(), "none lost, none twice");
    }

    @Test
    void entriesAndSuccessesFillTheStripeEachAtItsOwnSize() {
        Pausing w = new Pausing(1_000, true);
        collide(w, holder, other);
        for (int i = 0; i < BUFFER; i++) {
            assertFalse(fromTheOtherThread(w, true));
            assertFalse(fromTheOtherThread(w, false));
        }
        assertEquals(2, w.log.size(), "a buffer's worth of failures waits, and as many successes");
        assertFalse(fromTheOtherThread(w, false));
        assertEquals(2, w.log.size(), "successes still have room");
        assertFalse(fromTheOtherThread(w, true));
        assertEquals(2 + 2 * BUFFER + 2, w.log.size(), "a failure more finds the entries full: all of it is applied");
        assertEquals(new WindowCounts(2 + 2 * BUFFER + 2, BUFFER + 1, 0), w.counts());
    }

    @Test
    void aMarginFarBeyondTheBufferLetsItFillWithBadOutcomesAndKeepsTheStripeOpen() {
        for (boolean runs : new boolean[] {true, false}) {
            Pausing w = new Pausing(Integer.MAX_VALUE, runs); // a margin larger than any budget the stripe keeps
            collide(w, holder, other);
            for (int i = 0; i < BUFFER; i++) {
                assertFalse(fromTheOtherThread(w, true));
            }
            assertEquals(2, w.log.size(), "a buffer's worth of failures waits, runs=" + runs);
            assertFalse(fromTheOtherThread(w, true));
            assertEquals(new WindowCounts(2 + BUFFER + 1, BUFFER + 1, 0), w.counts(), "runs=" + runs);
        }
    }

    @Test
    void aConditionThatHoldsAfterARunIsFoundByTheDrainThatAppliesIt() throws ReflectiveOperationException {
        Pausing w = new Pausing(1, true); // trips once a failure is in: a margin of 0, so successes still wait
        collide(w, holder, other);
        assertFalse(fromTheOtherThread(w, false));
        assertEquals(2, w.log.size(), "the success waits as a run");
        w.failures = 1; // the condition now holds after any outcome applied
        w.counts(); // the reader's drain applies the run, with nobody to tell
        java.lang.reflect.Field flags = CombiningWindowFields.class.getDeclaredField("flags");
        flags.setAccessible(true);
        assertEquals(2, flags.getInt(w) & 2, "the pending-trip bit: the run's trip is reported by the next offer");
        assertTrue(w.record(false, false));
    }

    /** A window that answers every run and every entry as told, to see what a drain reports. */
    static final class Told extends CombiningWindow {
        boolean runTrips;
        boolean entryTrips;
        /** The next run applied throws, once. */
        boolean runThrows;

        final List<String> applied = new java.util.ArrayList<>();

        Told() {
            super(true);
        }

        @Override
        protected boolean applySuccessesLocked(int count) {
            if (runThrows) {
                runThrows = false;
                throw new IllegalStateException("a subclass bug");
            }
            applied.add("S" + count);
            return runTrips;
        }

        @Override
        protected boolean applyLocked(int outcome, long stamp) {
            applied.add(outcome == 0 ? "S" : "F");
            return entryTrips;
        }

        @Override
        protected int safeBadOutcomesLocked() {
            return 100;
        }

        @Override
        protected WindowCounts countsLocked() {
            return new WindowCounts(0, 0, 0);
        }

        @Override
        public WindowCounts counts() {
            return countsLocked();
        }
    }

    /** A stripe of runs, listed, open and with a budget, as a holder leaves it. */
    private static Stripe openStripe() {
        Stripe s = new Stripe(true);
        s.list();
        s.open();
        s.budget(10);
        return s;
    }

    /** An entry as an offer makes it: the present bit (4), the outcome, stamp 0. */
    private static final long FAILURE = 4 | FAILED;

    @Test
    void aDrainReportsATripFoundByARunOrByAnEntryAndNothingWhenEmpty() {
        Told w = new Told();
        Stripe s = openStripe();
        assertFalse(s.drain(w), "nothing pending: no trip");
        assertEquals(List.of(), w.applied);
        for (boolean runTrips : new boolean[] {true, false}) {
            w.runTrips = runTrips;
            w.entryTrips = !runTrips;
            assertEquals(Stripe.TAKEN, s.offer(w, 4, false, false));
            assertEquals(Stripe.TAKEN, s.offer(w, FAILURE, true, false));
            assertTrue(s.drain(w), (runTrips ? "the run's" : "the entry's") + " trip is reported");
        }
        w.runTrips = false;
        w.entryTrips = false;
        assertEquals(Stripe.TAKEN, s.offer(w, FAILURE, true, false));
        assertEquals(Stripe.TAKEN, s.offer(w, 4, false, false));
        assertFalse(s.drain(w), "neither trips");
        assertEquals(
                List.of("S1", "F", "S1", "F", "F", "S1"),
                w.applied,
                "no empty run before an entry that follows an entry");
    }

    @Test
    void whatAStripeDrainedCountsItsSuccessesAndItsEntries() {
        Told w = new Told();
        Stripe s = openStripe();
        int before = s.drainedSoFar();
        for (int i = 0; i < 5; i++) {
            s.offer(w, 4, false, false);
        }
        s.offer(w, FAILURE, true, false);
        s.drain(w);
        assertEquals(6, (s.drainedSoFar() - before) & 0xFFFF, "five successes and an entry");
    }

    /** The successes' count keeps 16 bits: past 65,535 it wraps without adding to the budget beside it. */
    @Test
    void successesPastSixteenBitsLeaveTheBudgetAsItWas() {
        Told w = new Told();
        Stripe s = new Stripe(true);
        s.list();
        s.open();
        s.budget(3);
        for (int i = 1; i <= 70_000; i++) {
            assertEquals(Stripe.TAKEN, s.offer(w, 4, false, false));
            if (i % 200 == 0) {
                s.drain(w);
            }
        }
        s.drain(w);
        for (int i = 0; i < 3; i++) {
            assertEquals(Stripe.TAKEN, s.offer(w, FAILURE, true, false), "within the budget of 3");
        }
        assertEquals(Stripe.FULL, s.offer(w, FAILURE, true, false), "the budget is spent, as it was set");
        s.drain(w);
        assertEquals(
                70_000,
                w.applied.stream()
                        .filter(a -> a.startsWith("S"))
                        .mapToInt(a -> Integer.parseInt(a.substring(1)))
                        .sum());
    }

    /** A run whose applying throws is consumed; the bad outcome after it is not lost, and the next drain applies it. */
    @Test
    void aRunThatThrowsLeavesTheEntryAfterItForTheNextDrain() {
        Told w = new Told();
        Stripe s = openStripe();
        s.offer(w, 4, false, false);
        s.offer(w, FAILURE, true, false);
        s.offer(w, 4, false, false);
        w.runThrows = true;
        org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class, () -> s.drain(w));
        assertFalse(s.drain(w));
        assertEquals(List.of("F", "S1"), w.applied, "the failure and the run after it; the thrown run is gone");
        assertFalse(s.drain(w), "nothing left, nothing twice");
        assertEquals(List.of("F", "S1"), w.applied);
    }
}
