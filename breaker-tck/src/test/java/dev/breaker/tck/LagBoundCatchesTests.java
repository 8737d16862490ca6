package dev.breaker.tck;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breaker.Ticker;
import dev.breaker.spi.Window;
import dev.breaker.spi.WindowCounts;
import dev.breaker.spi.WindowFactory;
import dev.breaker.tck.WindowContract.Recorded;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

/**
 * {@link RateWindowRaceContract#aTripUnderRacingWritersComesWithinTheDocumentedLag} passes a window
 * that decides every outcome under a lock, and fails one that answers its trips late by more than
 * it documents.
 */
class LagBoundCatchesTests {

    /** The last N outcomes under a lock; answers "trip" only on every {@code answerEvery}-th call. */
    private static final class Locked implements Window {
        private final double failureRate;
        private final int minimumCalls;
        private final boolean[] failed;
        private final int answerEvery;
        private long n;

        Locked(double failureRate, int minimumCalls, int answerEvery) {
            this.failureRate = failureRate;
            this.minimumCalls = minimumCalls;
            this.failed = new boolean[minimumCalls];
            this.answerEvery = answerEvery;
        }

        @Override
        public synchronized boolean record(boolean failure, boolean slow) {
            failed[(int) (n++ % failed.length)] = failure;
            WindowCounts c = counts();
            boolean trips = c.calls() >= minimumCalls && (double) c.failures() / c.calls() >= failureRate;
            return trips && n % answerEvery == 0;
        }

        @Override
        public synchronized WindowCounts counts() {
            long calls = Math.min(n, failed.length);
            long failures = 0;
            for (int i = 0; i < calls; i++) {
                failures += failed[i] ? 1 : 0;
            }
            return new WindowCounts(calls, failures, 0);
        }
    }

    private static RateWindowRaceContract with(int answerEvery, int documentedLag) {
        return new RateWindowRaceContract() {
            @Override
            protected Subject subject(double failureRateThreshold, double slowCallRateThreshold, int minimumCalls) {
                WindowFactory factory = new WindowFactory() {
                    @Override
                    public Window create(Ticker ticker) {
                        return new Locked(failureRateThreshold, minimumCalls, answerEvery);
                    }

                    @Override
                    public String describe() {
                        return "locked(answer every " + answerEvery + ")";
                    }
                };
                return new Subject(factory, outcomes -> Recorded.countsOfLast(outcomes, minimumCalls));
            }

            @Override
            protected int lagPerRecordingThread() {
                return documentedLag;
            }
        };
    }

    @Test
    void aWindowThatDecidesEveryOutcomePassesWithNoLag() {
        assertDoesNotThrow(() -> with(1, 0).aTripUnderRacingWritersComesWithinTheDocumentedLag());
    }

    @Test
    void aTripAnsweredLaterThanDocumentedIsCaught() {
        // the deciding failure comes 50 failures after 600 or 1,200 successes; the first "trip"
        // answer then waits for the next multiple of 400 calls: over 100 calls late, 4 documented
        AssertionFailedError e = assertThrows(
                AssertionFailedError.class, () -> with(400, 4).aTripUnderRacingWritersComesWithinTheDocumentedLag());
        assertTrue(e.getMessage().contains("the documented lag is 4"), e.getMessage());
    }

    @Test
    void theSameLateWindowPassesWhenItDocumentsItsLag() {
        assertDoesNotThrow(() -> with(400, 200).aTripUnderRacingWritersComesWithinTheDocumentedLag());
    }
}
