package dev.breaker.spi;

import static dev.breaker.spi.CombiningWindow.FAILED;
import static dev.breaker.spi.CombiningWindow.SLOW;

import org.jetbrains.kotlinx.lincheck.LinCheckerKt;
import org.jetbrains.kotlinx.lincheck.annotations.Operation;
import org.jetbrains.kotlinx.lincheck.strategy.managed.modelchecking.ModelCheckingOptions;
import org.jetbrains.kotlinx.lincheck.strategy.stress.StressOptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The combining protocol under Lincheck's model checker: outcomes offered by racing threads, and
 * the counts read through {@link CombiningWindow#drainedCounts}, must be explained by some order
 * of the same operations run one at a time (this class is its own sequential specification). The
 * model checker switches threads at the protocol's shared reads and writes, so a thread finds
 * the lock held mid-hold, buffers into its stripe, raises the urgent bit and has another thread
 * drain for it: an outcome lost, applied twice, or left in a buffer that a reader of the counts
 * does not drain shows as counts no order gives.
 *
 * <p>Trip decisions are not compared: SPEC rule 8 lets a decision lag (an outcome buffered while
 * the lock is busy is decided by the next offer), which no sequential run reproduces; the lag is
 * held by {@code CombiningWindowTests} and the TCK's race contract. {@code
 * -Dbreaker.lincheck.scale=N} multiplies the iterations (the {@code soak} profile sets 10).
 */
@Tag("class-path") // Lincheck instruments classes; it runs on the plain class path
public class CombiningWindowLincheckTests {

    private static final int SCALE = Integer.getInteger("breaker.lincheck.scale", 1);

    /**
     * Counts calls (up to 3 plain successes: a full window of them is healthy, so the healthy mode
     * and its closed stripes are reached), failures and slow calls; trips at 2 failures, so the
     * margin is 1 bad outcome at first, and 0 once one failure is applied.
     */
    static final class Small extends CombiningWindow {
        int calls;
        int failures;
        int slow;

        /** Whether calls stop counting plain successes at 3, which makes the counts depend on the order. */
        private final boolean saturates;

        Small(boolean successRuns) {
            super(successRuns);
            this.saturates = !successRuns;
        }

        @Override
        protected boolean applyLocked(int outcome, long stamp) {
            if (calls < 3 || outcome != 0 || !saturates) {
                calls++;
            }
            if ((outcome & FAILED) != 0) {
                failures++;
            }
            if ((outcome & SLOW) != 0) {
                slow++;
            }
            return failures >= 2;
        }

        @Override
        protected int safeBadOutcomesLocked() {
            return 1 - failures;
        }

        @Override
        protected boolean plainSuccessNeedsNoLock() {
            return calls >= 3 && failures == 0 && slow == 0;
        }

        @Override
        protected WindowCounts countsLocked() {
            return new WindowCounts(calls, failures, slow);
        }

        @Override
        public WindowCounts counts() {
            return drainedCounts(() -> {});
        }
    }

    /** The mode of runs for {@link CombiningWindowRunsLincheckTests} (the class, a final call: no escape of this). */
    private final Small window = new Small(getClass() == CombiningWindowRunsLincheckTests.class);

    /** Lincheck makes one per scenario. */
    public CombiningWindowLincheckTests() {}

    /** Offers a plain success. */
    @Operation
    public void success() {
        window.offer(0, 0);
    }

    /** Offers a failure. */
    @Operation
    public void failure() {
        window.offer(FAILED, 0);
    }

    /** Offers a slow success. */
    @Operation
    public void slow() {
        window.offer(SLOW, 0);
    }

    /** @return the counts, drained: calls/failures/slow */
    @Operation
    public String counts() {
        WindowCounts c = window.counts();
        return c.calls() + "/" + c.failures() + "/" + c.slowCalls();
    }

    /**
     * On JDK 17 only: on JDK 25, Lincheck 2.39's model checker takes the spin of a reader waiting
     * for the lock (a {@code Thread.yield}) for a hang, as in {@code ExponentialLincheckTests}.
     */
    @Test
    @org.junit.jupiter.api.condition.EnabledOnJre(org.junit.jupiter.api.condition.JRE.JAVA_17)
    void modelChecking() {
        LinCheckerKt.check(
                new ModelCheckingOptions()
                        .iterations(5 * SCALE)
                        .invocationsPerIteration(100)
                        .threads(2)
                        .actorsPerThread(3)
                        .actorsBefore(2)
                        .actorsAfter(1),
                getClass());
    }

    /** Real threads, on every JDK: many more schedules, none chosen. */
    @Test
    void stress() {
        LinCheckerKt.check(
                new StressOptions()
                        .iterations(10 * SCALE)
                        .invocationsPerIteration(2_000)
                        .threads(2)
                        .actorsPerThread(3)
                        .actorsBefore(2)
                        .actorsAfter(1),
                getClass());
    }
}
