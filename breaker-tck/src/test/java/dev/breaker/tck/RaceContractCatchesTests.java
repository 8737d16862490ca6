package dev.breaker.tck;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.breaker.Ticker;
import dev.breaker.spi.Window;
import dev.breaker.spi.WindowCounts;
import dev.breaker.spi.WindowFactory;
import dev.breaker.tck.WindowContract.Recorded;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

/**
 * The race checks of {@link RateWindowRaceContract} fail the mistakes they are there for, each
 * made here on purpose in a window that is otherwise the last N outcomes under a lock: a trip on a
 * rate no order of the outcomes reached (failures and slow calls), a failure counted twice, and
 * outcomes lost (at rest, and on virtual threads, where the breaker counts the calls itself and
 * only the window's own counts can show it). The same window without a mistake passes them all.
 */
class RaceContractCatchesTests {

    /** The last N outcomes under a lock, with one deliberate mistake. */
    private static final class Locked implements Window {
        private final double failureRate;
        private final double slowRate;
        private final int size;
        private final String mistake;
        private final boolean[] failed;
        private final boolean[] slowed;
        private long n;
        private long offered;
        private long failures;
        private long slowCalls;

        Locked(double failureRate, double slowRate, int size, String mistake) {
            this.failureRate = failureRate;
            this.slowRate = slowRate;
            this.size = size;
            this.mistake = mistake;
            this.failed = new boolean[size];
            this.slowed = new boolean[size];
        }

        @Override
        public synchronized boolean record(boolean failure, boolean slow) {
            if (mistake.equals("loses every third outcome") && ++offered % 3 == 0) {
                return false;
            }
            int at = (int) (n++ % size);
            if (n > size) { // the slot's outcome leaves
                failures -= failed[at] ? 1 : 0;
                slowCalls -= slowed[at] ? 1 : 0;
            }
            failed[at] = failure;
            slowed[at] = slow;
            failures += failure ? 1 : 0;
            slowCalls += slow ? 1 : 0;
            WindowCounts c = counts();
            double lower = mistake.equals("trips below its threshold") ? 0.1 : 0;
            return c.calls() >= size
                    && ((double) c.failures() / c.calls() >= failureRate - lower
                            || (double) c.slowCalls() / c.calls() >= slowRate - lower);
        }

        @Override
        public synchronized WindowCounts counts() {
            long calls = Math.min(n, size);
            long counted = mistake.equals("counts a failure twice") ? 2 * failures : failures;
            return new WindowCounts(calls, Math.min(calls, counted), slowCalls);
        }
    }

    private static RateWindowRaceContract with(String mistake) {
        return new RateWindowRaceContract() {
            @Override
            protected Subject subject(double failureRate, double slowRate, int size) {
                WindowFactory factory = new WindowFactory() {
                    @Override
                    public Window create(Ticker ticker) {
                        return new Locked(failureRate, slowRate, size, mistake);
                    }

                    @Override
                    public String describe() {
                        return "locked(" + mistake + ")";
                    }
                };
                return new Subject(factory, outcomes -> Recorded.countsOfLast(outcomes, size));
            }
        };
    }

    @Test
    void aTripBelowTheThresholdIsCaughtForFailuresAndSlowCalls() {
        RateWindowRaceContract c = with("trips below its threshold");
        assertThrows(AssertionFailedError.class, c::steadyFortyPercentNeverTripsFiftyPercent);
        assertThrows(AssertionFailedError.class, c::steadyFortyPercentSlowCallsNeverTripFiftyPercent);
    }

    @Test
    void aFailureCountedTwiceIsCaught() {
        assertThrows(AssertionFailedError.class, with("counts a failure twice")::spacedFailuresNeverTripASmallWindow);
    }

    @Test
    void lostOutcomesAreCaughtAtRest() {
        assertThrows(
                AssertionFailedError.class,
                with("loses every third outcome")::countsAtRestComeFromSomeOrderOfTheOutcomes);
    }

    @Test
    void lostOutcomesAreCaughtOnVirtualThreads() {
        assumeTrue(Runtime.version().feature() >= 21, "virtual threads need Java 21");
        assertThrows(
                AssertionFailedError.class,
                with("loses every third outcome")::tenThousandVirtualThreadsInventNoTripAndLoseNoCall);
    }

    @Test
    void theWindowWithoutAMistakeKeepsEveryRaceCheck() {
        RateWindowRaceContract c = with("none");
        assertDoesNotThrow(c::steadyFortyPercentNeverTripsFiftyPercent);
        assertDoesNotThrow(c::steadyFortyPercentSlowCallsNeverTripFiftyPercent);
        assertDoesNotThrow(c::spacedFailuresNeverTripASmallWindow);
        assertDoesNotThrow(c::countsAtRestComeFromSomeOrderOfTheOutcomes);
        if (Runtime.version().feature() >= 21) {
            assertDoesNotThrow(c::tenThousandVirtualThreadsInventNoTripAndLoseNoCall);
        }
    }
}
