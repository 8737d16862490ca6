package dev.breaker.tck;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breaker.Ticker;
import dev.breaker.spi.Window;
import dev.breaker.spi.WindowCounts;
import dev.breaker.spi.WindowFactory;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

/**
 * {@link WindowContract#recordingAHealthyStreamAllocatesNothing} fails a window that allocates an
 * object per outcome, and passes it when the window says it must allocate.
 */
class AllocationCheckCatchesTests {

    /** Counts every outcome, and keeps each as a new object. */
    private static final class Allocating implements Window {
        private long calls;
        private long failures;
        private long slow;
        /** The last outcome, a new object each time: it escapes, so the JIT cannot remove it. */
        @SuppressWarnings("unused")
        private long[] last;

        @Override
        public synchronized boolean record(boolean failure, boolean slow) {
            last = new long[] {failure ? 1 : 0, slow ? 1 : 0};
            calls++;
            failures += failure ? 1 : 0;
            this.slow += slow ? 1 : 0;
            return false;
        }

        @Override
        public synchronized WindowCounts counts() {
            return new WindowCounts(calls, failures, slow);
        }
    }

    private static WindowContract with(boolean declaresItAllocates) {
        return new WindowContract() {
            @Override
            protected WindowFactory factory() {
                return new WindowFactory() {
                    @Override
                    public Window create(Ticker ticker) {
                        return new Allocating();
                    }

                    @Override
                    public String describe() {
                        return "allocating";
                    }
                };
            }

            @Override
            protected boolean tripsAfter(List<Recorded> outcomes) {
                return false;
            }

            @Override
            protected WindowCounts countsAfter(List<Recorded> outcomes) {
                return Recorded.countsOfLast(outcomes, Integer.MAX_VALUE);
            }

            @Override
            protected boolean recordAllocatesNothing() {
                return !declaresItAllocates;
            }
        };
    }

    @Test
    void anObjectPerOutcomeIsCaught() {
        AssertionFailedError e =
                assertThrows(AssertionFailedError.class, () -> with(false).recordingAHealthyStreamAllocatesNothing());
        assertTrue(e.getMessage().startsWith("allocating allocated "), e.getMessage());
    }

    @Test
    void aWindowThatSaysItAllocatesIsNotChecked() {
        assertDoesNotThrow(() -> with(true).recordingAHealthyStreamAllocatesNothing());
    }
}
