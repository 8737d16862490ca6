package dev.breaker.tck;

import dev.breaker.Windows;
import dev.breaker.spi.WindowCounts;
import dev.breaker.spi.WindowFactory;
import java.util.List;

/** The built-in consecutive window keeps the window contract (run here: breaker-api cannot depend on the TCK). */
class ConsecutiveWindowContractTests extends WindowContract {

    private static final int THRESHOLD = 4;

    @Override
    protected WindowFactory factory() {
        return Windows.consecutiveFailures(THRESHOLD);
    }

    private static int tailRun(List<Recorded> outcomes) {
        int run = 0;
        for (int i = outcomes.size() - 1; i >= 0 && outcomes.get(i).failure(); i--) {
            run++;
        }
        return run;
    }

    @Override
    protected boolean tripsAfter(List<Recorded> outcomes) {
        return tailRun(outcomes) >= THRESHOLD;
    }

    @Override
    protected WindowCounts countsAfter(List<Recorded> outcomes) {
        int run = tailRun(outcomes);
        return new WindowCounts(run, run, 0);
    }
}
