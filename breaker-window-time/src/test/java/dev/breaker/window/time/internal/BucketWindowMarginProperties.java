package dev.breaker.window.time.internal;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breaker.spi.RateThresholds;
import dev.breaker.spi.WindowCounts;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * The time window's margin ({@code safeBadOutcomesLocked}): how many bad outcomes other threads
 * may leave in their buffers, while the window stays in its current epoch, without a trip being
 * missed. Under contention the window buffers that many without deciding, so a margin one too
 * large is a late trip.
 *
 * <p>Safety is checked on the real window: after any history (stragglers included), the worst
 * continuation in the current epoch with {@code margin} bad outcomes must not trip at any step.
 * Within an epoch nothing leaves, so the sums depend only on how many outcomes of each kind came;
 * the worst case at each step is a block of plain successes (which can lift the calls to the
 * minimum) followed by the bad outcomes, each failed and slow. Every block length up to past the
 * minimum is tried.
 *
 * <p>A smaller margin is allowed (less buffering, never a wrong decision), but a margin computed
 * afresh is at least what the rule itself allows: as many bad outcomes as the window could take
 * if they came without adding calls (at the minimum, if it holds fewer).
 */
class BucketWindowMarginProperties {

    /** One outcome: the clock moves on by {@code advance}, and the outcome is reported {@code back} earlier. */
    record Step(long advance, long back, boolean failure, boolean slow) {}

    private static final double[] RATES = {0.1, 0.2, 0.25, 0.3, 0.5, 0.6, 0.75, 0.9, 1.0};

    private static BucketWindow replay(List<Step> history, long width, int buckets, RateThresholds thresholds) {
        BucketWindow w =
                (BucketWindow) BucketWindow.factory(width, buckets, thresholds).create(() -> 0);
        long now = 0;
        for (Step s : history) {
            now += s.advance();
            w.recordAt(s.failure(), s.slow(), Math.max(0, now - s.back()));
        }
        return w;
    }

    @Property(tries = 400)
    void theMarginIsNeverTooLargeAndAFreshOneIsWhatTheRuleAllows(
            @ForAll @IntRange(min = 1, max = 4) int buckets,
            @ForAll @IntRange(min = 1, max = 5) int width,
            @ForAll @IntRange(min = 0, max = 8) int failureRate,
            @ForAll @IntRange(min = 0, max = 8) int slowRate,
            @ForAll @IntRange(min = 1, max = 8) int minimumCalls,
            @ForAll("histories") List<Step> history,
            @ForAll boolean askedBefore) {
        RateThresholds thresholds = new RateThresholds(RATES[failureRate], RATES[slowRate], minimumCalls);
        BucketWindow w;
        if (askedBefore && !history.isEmpty()) {
            // the margin is also asked after earlier batches: whatever it remembers from then must
            // still be safe now, in this epoch or a later one
            w = replay(history.subList(0, history.size() / 2), width, buckets, thresholds);
            w.safeBadOutcomesLocked();
            long now = 0;
            for (Step s : history.subList(0, history.size() / 2)) {
                now += s.advance();
            }
            for (Step s : history.subList(history.size() / 2, history.size())) {
                now += s.advance();
                w.recordAt(s.failure(), s.slow(), Math.max(0, now - s.back()));
            }
        } else {
            w = replay(history, width, buckets, thresholds);
        }
        long epoch = w.stampLocked();
        int margin = w.safeBadOutcomesLocked();
        if (!askedBefore) {
            WindowCounts c = w.counts(); // the ticker stays at 0: reading the counts moves nothing
            long calls = Math.max(minimumCalls, c.calls());
            int allowed = -1;
            while (!thresholds.trips(calls, c.failures() + allowed + 1, c.slowCalls() + allowed + 1)) {
                allowed++;
            }
            assertTrue(margin >= allowed, "margin " + margin + ", but the rule allows " + allowed + " at " + c);
        }
        if (margin < 0) {
            return; // nothing may wait: every outcome is decided at once
        }
        for (int successes = 0; successes <= minimumCalls + 2; successes++) {
            BucketWindow v = replay(history, width, buckets, thresholds);
            long at = epoch * width; // a reading in the current epoch
            for (int i = 0; i < successes; i++) {
                assertFalse(v.recordAt(false, false, at), "a success tripped within the margin " + margin);
            }
            for (int i = 0; i < margin; i++) {
                assertFalse(
                        v.recordAt(true, true, at),
                        "bad outcome " + (i + 1) + " of a margin of " + margin + " after " + successes
                                + " successes tripped");
            }
        }
    }

    @Provide
    Arbitrary<List<Step>> histories() {
        return Combinators.combine(
                        Arbitraries.frequencyOf(
                                net.jqwik.api.Tuple.of(6, Arbitraries.just(0L)),
                                net.jqwik.api.Tuple.of(3, Arbitraries.longs().between(1, 6)),
                                net.jqwik.api.Tuple.of(1, Arbitraries.longs().between(7, 30))),
                        Arbitraries.frequencyOf(
                                net.jqwik.api.Tuple.of(4, Arbitraries.just(0L)),
                                net.jqwik.api.Tuple.of(1, Arbitraries.longs().between(1, 20))),
                        Arbitraries.integers().between(0, 9).map(i -> i < 3),
                        Arbitraries.integers().between(0, 9).map(i -> i >= 2 && i < 5))
                .as(Step::new)
                .list()
                .ofMaxSize(25);
    }
}
