package dev.breaker.tck;

import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.breaker.Ticker;
import dev.breaker.spi.Window;
import dev.breaker.spi.WindowCounts;
import dev.breaker.spi.WindowFactory;
import java.time.Duration;
import java.util.ArrayDeque;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

/**
 * {@link TimeWindowContract} fails the mistakes it is there for: a window that never lets an
 * outcome leave, one that compares readings as absolute times (which breaks where the ticker
 * wraps), and one that leaves late outcomes out of its decisions. Each keeps exact times otherwise, so a bucket width of 0 is claimed.
 */
class TimeWindowContractCatchesTests {

    /** Exact times, with one deliberate mistake. */
    private static final class Naive implements Window {
        private final long length;
        private final double rate;
        private final int minimumCalls;
        private final Ticker ticker;
        private final String mistake;
        private final ArrayDeque<long[]> outcomes = new ArrayDeque<>();
        /** The latest reading recorded, for the mistake "stragglers left out"; null before the first. */
        private Long latest;

        Naive(long length, double rate, int minimumCalls, Ticker ticker, String mistake) {
            this.length = length;
            this.rate = rate;
            this.minimumCalls = minimumCalls;
            this.ticker = ticker;
            this.mistake = mistake;
        }

        private void leave(long now) {
            if (mistake.equals("never leaves")) {
                return;
            }
            while (!outcomes.isEmpty()) {
                long at = outcomes.peekFirst()[0];
                boolean old = mistake.equals("absolute times") ? at <= now - length : now - at >= length;
                if (!old) {
                    return;
                }
                outcomes.pollFirst();
            }
        }

        @Override
        public boolean record(boolean failure, boolean slow) {
            return recordAt(failure, slow, ticker.read());
        }

        @Override
        public boolean recordAt(boolean failure, boolean slow, long nowNanos) {
            boolean late = latest != null && nowNanos - latest < 0;
            if (mistake.equals("stragglers left out") && late) {
                return false; // as a window that read the older buckets' sums once: not seen
            }
            if (!late) {
                latest = nowNanos;
            }
            leave(nowNanos);
            outcomes.addLast(new long[] {nowNanos, failure ? 1 : 0});
            WindowCounts c = counts(nowNanos);
            return c.calls() >= minimumCalls && c.failures() * 1.0 / c.calls() >= rate;
        }

        @Override
        public WindowCounts counts() {
            return counts(ticker.read());
        }

        private WindowCounts counts(long now) {
            leave(now);
            long failures = outcomes.stream().filter(o -> o[1] == 1).count();
            return new WindowCounts(outcomes.size(), failures, 0);
        }
    }

    private static TimeWindowContract with(String mistake) {
        return new TimeWindowContract() {
            @Override
            protected WindowFactory window(Duration length, double failureRateThreshold, int minimumCalls) {
                return new WindowFactory() {
                    @Override
                    public Window create(Ticker ticker) {
                        return new Naive(length.toNanos(), failureRateThreshold, minimumCalls, ticker, mistake);
                    }

                    @Override
                    public String describe() {
                        return "naive(" + mistake + ")";
                    }
                };
            }

            @Override
            protected Duration bucketWidth(Duration length) {
                return Duration.ZERO;
            }
        };
    }

    @Test
    void aWindowWhoseOutcomesNeverLeaveIsCaught() {
        TimeWindowContract c = with("never leaves");
        assertThrows(AssertionFailedError.class, c::outcomesOlderThanTheLengthLeave);
        assertThrows(AssertionFailedError.class, c::aDecisionAfterOldOutcomesLeftCountsTheYoungOnly);
    }

    @Test
    void aWindowThatComparesAbsoluteTimesIsCaughtAtTheWrap() {
        assertThrows(AssertionFailedError.class, with("absolute times")::outcomesOlderThanTheLengthLeave);
    }

    @Test
    void aWindowThatLeavesLateOutcomesOutOfItsDecisionsIsCaught() {
        TimeWindowContract c = with("stragglers left out");
        assertThrows(AssertionFailedError.class, c::aLateFailureIsInTheVeryNextDecision);
        assertThrows(AssertionFailedError.class, c::aLateSuccessIsInTheVeryNextDecision);
    }

    @Test
    void theNaiveWindowWithoutAMistakeKeepsTheContract() {
        TimeWindowContract c = with("none");
        c.outcomesOlderThanTheLengthLeave();
        c.outcomesYoungerThanTheLengthLessABucketStay();
        c.aDecisionAfterOldOutcomesLeftCountsTheYoungOnly();
        c.aLongSilenceEndsWithAWindowOfOne();
        c.aLateFailureIsInTheVeryNextDecision();
        c.aLateSuccessIsInTheVeryNextDecision();
    }
}
