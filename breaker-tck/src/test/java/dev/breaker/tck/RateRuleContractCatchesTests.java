package dev.breaker.tck;

import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.breaker.Ticker;
import dev.breaker.spi.Window;
import dev.breaker.spi.WindowCounts;
import dev.breaker.spi.WindowFactory;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

/**
 * {@link RateRuleContract} fails the mistakes it is there for: a threshold compared in binary
 * doubles, a slow failure not counted as slow, a minimum of calls ignored, a trip only above the
 * threshold. Each is a window of the last N outcomes whose own oracle would agree with it.
 */
class RateRuleContractCatchesTests {

    /** A window of the last N outcomes with one deliberate mistake. */
    private static final class Naive implements Window {
        private final double failureRate;
        private final double slowRate;
        private final int minimumCalls;
        private final boolean[][] ring;
        private final String mistake;
        private long n;

        Naive(double failureRate, double slowRate, int minimumCalls, int size, String mistake) {
            this.failureRate = failureRate;
            this.slowRate = slowRate;
            this.minimumCalls = minimumCalls;
            this.ring = new boolean[size][];
            this.mistake = mistake;
        }

        @Override
        public boolean record(boolean failure, boolean slow) {
            boolean countedSlow = mistake.equals("slow failure not slow") ? slow && !failure : slow;
            ring[(int) (n++ % ring.length)] = new boolean[] {failure, countedSlow};
            WindowCounts c = counts();
            if (c.calls() < minimumCalls && !mistake.equals("no minimum")) {
                return false;
            }
            if (mistake.equals("above, not at")) {
                return c.failures() > failureRate * c.calls() || c.slowCalls() > slowRate * c.calls();
            }
            // doubles: 0.55 * 100 is 55.00000000000001, so 55 failures of 100 miss a 0.55 threshold
            return c.failures() >= failureRate * c.calls() || c.slowCalls() >= slowRate * c.calls();
        }

        @Override
        public WindowCounts counts() {
            long calls = 0;
            long failures = 0;
            long slow = 0;
            for (boolean[] o : ring) {
                if (o != null) {
                    calls++;
                    failures += o[0] ? 1 : 0;
                    slow += o[1] ? 1 : 0;
                }
            }
            return new WindowCounts(calls, failures, slow);
        }
    }

    private static RateRuleContract with(String mistake) {
        return new RateRuleContract() {
            @Override
            protected WindowFactory window(double failureRate, double slowRate, int minimumCalls, int size) {
                return new WindowFactory() {
                    @Override
                    public Window create(Ticker ticker) {
                        return new Naive(failureRate, slowRate, minimumCalls, size, mistake);
                    }

                    @Override
                    public String describe() {
                        return "naive(" + mistake + ")";
                    }
                };
            }

            @Override
            protected boolean keepsTheLast() {
                return true;
            }
        };
    }

    @Test
    void aThresholdComparedInDoublesIsCaught() {
        assertThrows(
                AssertionFailedError.class, () -> with("doubles").exactlyAtAThresholdThatIsNotExactInBinaryTrips());
    }

    @Test
    void aTripOnlyAboveTheThresholdIsCaught() {
        assertThrows(
                AssertionFailedError.class,
                () -> with("above, not at").exactlyAtAThresholdThatIsNotExactInBinaryTrips());
    }

    @Test
    void aSlowFailureNotCountedAsSlowOrAMinimumIgnoredIsCaught() {
        for (String mistake : new String[] {"slow failure not slow", "no minimum"}) {
            RateRuleContract contract = with(mistake);
            java.util.List<WindowContract.Recorded> outcomes = new java.util.ArrayList<>();
            for (int i = 0; i < 3; i++) {
                outcomes.add(new WindowContract.Recorded(true, true));
            }
            assertThrows(
                    AssertionFailedError.class,
                    () -> contract.everyAnswerIsTheSpecsRule(new RateRuleContract.Rule(0.9, 0.5, 3, 10), outcomes),
                    mistake);
        }
    }
}
