package dev.breaker.window.count.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.breaker.spi.RateThresholds;
import dev.breaker.spi.Window;
import dev.breaker.spi.WindowCounts;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * The ring against the naive definition, over sizes, thresholds, minimums and runs: every trip
 * answer and the counts after every outcome. Long runs of plain successes between bad outcomes
 * are the point: once the window has its minimum of calls, those successes are only counted
 * (no lock, no write to the queue), and the queue must still push out exactly the bad outcomes
 * that a ring of slots would have overwritten.
 */
class RingWindowOracleProperties {

    record Outcome(boolean failure, boolean slow) {}

    private static final double[] RATES = {0.1, 0.25, 0.5, 0.6, 1.0};

    @Property(tries = 300)
    void everyAnswerAndEveryCountIsTheNaiveOnes(
            @ForAll @IntRange(min = 1, max = 12) int size,
            @ForAll @IntRange(min = 0, max = 4) int failureRate,
            @ForAll @IntRange(min = 0, max = 4) int slowRate,
            @ForAll @IntRange(min = 1, max = 15) int minimumCalls,
            @ForAll @IntRange(min = 0, max = 4) int streak,
            @ForAll("histories") List<Outcome> history,
            @ForAll boolean readEveryStep) {
        RateThresholds thresholds = new RateThresholds(RATES[failureRate], RATES[slowRate], minimumCalls);
        Window w = RingWindow.factory(size, thresholds, streak).create(() -> 0);
        List<Outcome> seen = new ArrayList<>();
        for (Outcome o : history) {
            seen.add(o);
            boolean trips = w.record(o.failure(), o.slow());
            WindowCounts expected = last(seen, size);
            assertEquals(tripsOf(expected, thresholds, run(seen), streak), trips, "answer after " + seen);
            if (readEveryStep) { // a read moves the window on too; without it, one outcome may push out many
                assertEquals(expected, w.counts(), "counts after " + seen.size());
            }
        }
        assertEquals(last(seen, size), w.counts(), "counts at the end");
    }

    /**
     * A run of plain successes applied at once (as a holder applies what a stripe took in a row)
     * answers whether the condition held after any of them, and leaves the counts the run's last
     * one leaves: most runs cross no boundary, so the cases that matter are the minimum of calls
     * and the full window reached inside a run.
     */
    @Property(tries = 300)
    void aRunOfSuccessesAppliedAtOnceAnswersAsTheyWouldOneByOne(
            @ForAll @IntRange(min = 1, max = 12) int size,
            @ForAll @IntRange(min = 0, max = 4) int failureRate,
            @ForAll @IntRange(min = 0, max = 4) int slowRate,
            @ForAll @IntRange(min = 1, max = 15) int minimumCalls,
            @ForAll @IntRange(min = 0, max = 4) int streak,
            @ForAll("histories") List<Outcome> history) {
        RateThresholds thresholds = new RateThresholds(RATES[failureRate], RATES[slowRate], minimumCalls);
        RingWindow w = (RingWindow) RingWindow.factory(size, thresholds, streak).create(() -> 0);
        List<Outcome> seen = new ArrayList<>();
        int run = 0;
        boolean anyInRun = false;
        for (Outcome o : history) {
            if (!o.failure() && !o.slow()) {
                seen.add(o);
                run++;
                anyInRun |= tripsOf(last(seen, size), thresholds, run(seen), streak);
                continue;
            }
            if (run > 0) {
                assertEquals(anyInRun, w.applySuccessesLocked(run), "a run of " + run + " ending at " + seen.size());
                assertEquals(last(seen, size), w.counts(), "counts after the run ending at " + seen.size());
                run = 0;
                anyInRun = false;
            }
            seen.add(o);
            assertEquals(tripsOf(last(seen, size), thresholds, run(seen), streak), w.record(o.failure(), o.slow()));
        }
        if (run > 0) {
            assertEquals(anyInRun, w.applySuccessesLocked(run), "the last run, of " + run);
        }
        assertEquals(last(seen, size), w.counts(), "counts at the end");
    }

    @net.jqwik.api.Example
    void aRunThatReachesTheMinimumOfCallsTripsThereThoughItsEndDoesNot() {
        // 5 failures, then 7 successes: at 10 calls 50% fail (trips), at 12 calls 42% (does not)
        RingWindow w = (RingWindow)
                RingWindow.factory(100, new RateThresholds(0.5, 1.0, 10), 0).create(() -> 0);
        for (int i = 0; i < 5; i++) {
            assertEquals(false, w.record(true, false));
        }
        assertEquals(true, w.applySuccessesLocked(7), "the run passed the 10th call, where the condition held");
        assertEquals(new WindowCounts(12, 5, 0), w.counts());
        assertEquals(false, w.applySuccessesLocked(1), "at 13 calls it holds no more");
    }

    @net.jqwik.api.Example
    void aRunStartsAfterTheSuccessesCountedWithoutTheLock() {
        RingWindow w = (RingWindow)
                RingWindow.factory(10, new RateThresholds(0.5, 1.0, 1), 0).create(() -> 0);
        for (int i = 0; i < 10; i++) {
            w.record(false, false); // once the minimum is in, only counted
        }
        w.record(true, false); // position 11
        w.applySuccessesLocked(9); // 12 to 20: the failure is the oldest
        assertEquals(new WindowCounts(10, 1, 0), w.counts());
        w.applySuccessesLocked(1); // 21 pushes it out
        assertEquals(new WindowCounts(10, 0, 0), w.counts());
    }

    @net.jqwik.api.Example
    void oneBadOutcomeAfterCountedSuccessesPushesOutEveryBadOutcomeThatLeft() {
        Window w = RingWindow.factory(10, new RateThresholds(0.6, 0.6, 1), 0).create(() -> 0);
        w.record(true, false); // positions 1 to 4: 50% failed, 50% slow, below both thresholds
        w.record(false, true);
        w.record(true, false);
        w.record(false, true);
        for (int i = 0; i < 8; i++) { // positions 5 to 12, only counted
            assertEquals(false, w.record(false, false));
        }
        assertEquals(false, w.record(true, false), "position 13: the window is 4 to 13");
        assertEquals(new WindowCounts(10, 1, 1), w.counts(), "1, 2 and 3 left at once; 4 (slow) and 13 (failed) stay");
    }

    @Property(tries = 100)
    void aMillionSuccessesPushOutEverythingAndPositionsStayExact(
            @ForAll @IntRange(min = 1, max = 50) int size, @ForAll("histories") List<Outcome> before) {
        Window w = RingWindow.factory(size, new RateThresholds(1.0, 1.0, 1), 0).create(() -> 0);
        for (Outcome o : before) {
            w.record(o.failure(), o.slow());
        }
        for (int i = 0; i < 1_000_000; i++) {
            w.record(false, false);
        }
        assertEquals(new WindowCounts(size, 0, 0), w.counts());
        w.record(true, true);
        assertEquals(new WindowCounts(size, 1, 1), w.counts(), "the bad outcome after them is the only one left");
    }

    private static WindowCounts last(List<Outcome> seen, int size) {
        List<Outcome> l = seen.subList(Math.max(0, seen.size() - size), seen.size());
        return new WindowCounts(
                l.size(),
                l.stream().filter(Outcome::failure).count(),
                l.stream().filter(Outcome::slow).count());
    }

    private static int run(List<Outcome> seen) {
        int run = 0;
        for (int i = seen.size() - 1; i >= 0 && seen.get(i).failure(); i--) {
            run++;
        }
        return run;
    }

    private static boolean tripsOf(WindowCounts c, RateThresholds t, int run, int streak) {
        return t.trips(c.calls(), c.failures(), c.slowCalls()) || (streak > 0 && run >= streak);
    }

    @Provide
    Arbitrary<List<Outcome>> histories() {
        Arbitrary<Outcome> bad =
                Arbitraries.of(new Outcome(true, false), new Outcome(false, true), new Outcome(true, true));
        Arbitrary<List<Outcome>> successes = Arbitraries.integers()
                .between(0, 30)
                .map(n -> java.util.Collections.nCopies(n, new Outcome(false, false)));
        Arbitrary<List<Outcome>> block = net.jqwik.api.Combinators.combine(successes, bad)
                .as((s, b) -> {
                    List<Outcome> l = new ArrayList<>(s);
                    l.add(b);
                    return l;
                });
        return block.list().ofMaxSize(12).map(blocks -> {
            List<Outcome> all = new ArrayList<>();
            blocks.forEach(all::addAll);
            return all;
        });
    }
}
