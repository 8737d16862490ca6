package dev.breaker.window.count.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breaker.spi.RateThresholds;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * The ring's margin ({@code safeBadOutcomesLocked}): how many bad outcomes other threads may leave
 * in their buffers without a trip being missed. Under contention the window buffers that many
 * without deciding, so a margin one too large is a late trip.
 *
 * <p>Safety is checked on the real ring, not on a copy of the formula: after any history, the
 * worst continuation with {@code margin} bad outcomes must not trip at any step. For a ring the
 * worst case at each step is reached by a block of plain successes followed by the bad outcomes
 * (each failed and slow, so it raises both counts and the run): a success placed later would only
 * dilute the counts, and one placed earlier evicts the same slots a bad outcome would. So every
 * block length from 0 to twice the size is tried.
 *
 * <p>The margin may be smaller than the truth (less buffering, never a wrong decision), but in
 * the steady state of a healthy breaker, a full ring of plain successes, it is exact: the window
 * buffers as much as safety allows where throughput matters most.
 */
class RingWindowMarginProperties {

    record Outcome(boolean failure, boolean slow) {}

    private static final double[] RATES = {0.1, 0.2, 0.25, 0.3, 0.5, 0.6, 0.75, 0.9, 1.0};

    private static RingWindow ring(int size, int failureRate, int slowRate, int minimumCalls, int streak) {
        RateThresholds thresholds =
                new RateThresholds(RATES[failureRate], RATES[slowRate], Math.min(minimumCalls, size));
        return (RingWindow) RingWindow.factory(size, thresholds, streak).create(() -> 0);
    }

    private static RingWindow replay(
            List<Outcome> history, int size, int failureRate, int slowRate, int minimumCalls, int streak) {
        RingWindow w = ring(size, failureRate, slowRate, minimumCalls, streak);
        for (Outcome o : history) {
            w.record(o.failure(), o.slow());
        }
        return w;
    }

    @Property(tries = 400)
    void theMarginIsNeverTooLarge(
            @ForAll @IntRange(min = 1, max = 8) int size,
            @ForAll @IntRange(min = 0, max = 8) int failureRate,
            @ForAll @IntRange(min = 0, max = 8) int slowRate,
            @ForAll @IntRange(min = 1, max = 8) int minimumCalls,
            @ForAll @IntRange(min = 0, max = 4) int streak,
            @ForAll("histories") List<Outcome> history,
            @ForAll boolean askedBefore) {
        RingWindow w = replay(history, size, failureRate, slowRate, minimumCalls, streak);
        if (askedBefore && !history.isEmpty()) {
            // the margin is also asked after earlier batches: whatever it remembers from then must
            // still be safe now
            RingWindow earlier =
                    replay(history.subList(0, history.size() / 2), size, failureRate, slowRate, minimumCalls, streak);
            earlier.safeBadOutcomesLocked();
            for (Outcome o : history.subList(history.size() / 2, history.size())) {
                earlier.record(o.failure(), o.slow());
            }
            w = earlier;
        }
        int margin = w.safeBadOutcomesLocked();
        if (margin < 0) {
            return; // nothing may wait: every outcome is decided at once
        }
        for (int successes = 0; successes <= 2 * size; successes++) {
            RingWindow v = replay(history, size, failureRate, slowRate, minimumCalls, streak);
            for (int i = 0; i < successes; i++) {
                assertFalse(v.record(false, false), "a success tripped within the margin " + margin);
            }
            for (int i = 0; i < margin; i++) {
                assertFalse(
                        v.record(true, true),
                        "bad outcome " + (i + 1) + " of a margin of " + margin + " after " + successes
                                + " successes tripped");
            }
        }
    }

    @Property(tries = 300)
    void aFullRingOfPlainSuccessesHasAnExactMargin(
            @ForAll @IntRange(min = 1, max = 12) int size,
            @ForAll @IntRange(min = 0, max = 8) int failureRate,
            @ForAll @IntRange(min = 0, max = 8) int slowRate,
            @ForAll @IntRange(min = 1, max = 12) int minimumCalls,
            @ForAll @IntRange(min = 0, max = 6) int streak,
            @ForAll("histories") List<Outcome> history) {
        RingWindow w = replay(history, size, failureRate, slowRate, minimumCalls, streak);
        for (int i = 0; i < size; i++) {
            w.record(false, false); // whatever came before, the ring now holds plain successes only
        }
        int margin = w.safeBadOutcomesLocked();
        assertTrue(margin >= 0, "a ring of plain successes can take a bad outcome, margin " + margin);
        for (int i = 0; i < margin; i++) {
            assertFalse(w.record(true, true), "bad outcome " + (i + 1) + " of a margin of " + margin + " tripped");
        }
        assertTrue(w.record(true, true), "one bad outcome beyond the margin of " + margin + " trips");
    }

    /**
     * A full window counts the bad outcomes that will leave it: with no run rule and the walk not
     * cut short, one bad outcome beyond the margin, all coming first, trips. So the margin is no
     * smaller than the failures already in the window require, and neither is the buffering.
     */
    @Property(tries = 400)
    void aFullWindowsMarginCountsTheBadOutcomesThatWillLeaveAndIsExact(
            @ForAll @IntRange(min = 1, max = 12) int size,
            @ForAll @IntRange(min = 0, max = 8) int failureRate,
            @ForAll @IntRange(min = 0, max = 8) int slowRate,
            @ForAll @IntRange(min = 1, max = 12) int minimumCalls,
            @ForAll("histories") List<Outcome> history) {
        List<Outcome> full = new java.util.ArrayList<>(java.util.Collections.nCopies(size, new Outcome(false, false)));
        full.addAll(history);
        RingWindow w = replay(full, size, failureRate, slowRate, minimumCalls, 0);
        int margin = w.safeBadOutcomesLocked();
        if (margin < 0) {
            return;
        }
        for (int i = 0; i < margin; i++) {
            assertFalse(w.record(true, true), "bad outcome " + (i + 1) + " of a margin of " + margin + " tripped");
        }
        assertTrue(w.record(true, true), "one bad outcome beyond the margin of " + margin + " trips");
    }

    @net.jqwik.api.Example
    void aWindowNearItsThresholdWhoseOldestOutcomesFailedTakesAsManyAsWillLeave() {
        RingWindow w = ring(10, 4, 8, 10, 0); // trips at 5 failures of 10
        for (int i = 0; i < 10; i++) {
            w.record(i < 4, false); // failures at positions 1 to 4
        }
        assertEquals(
                4, w.safeBadOutcomesLocked(), "the threshold leaves none, and the next four push out a failure each");
        for (int i = 0; i < 4; i++) {
            assertFalse(w.record(true, false));
        }
        assertTrue(w.record(true, false), "the fifth pushes out a success: five failures");
    }

    @Provide
    Arbitrary<List<Outcome>> histories() {
        return Arbitraries.integers()
                .between(0, 9)
                .map(i -> new Outcome(i < 3, i >= 2 && i < 5))
                .list()
                .ofMaxSize(20);
    }
}
