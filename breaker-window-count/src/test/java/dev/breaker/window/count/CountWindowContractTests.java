package dev.breaker.window.count;

import dev.breaker.spi.WindowCounts;
import dev.breaker.spi.WindowFactory;
import dev.breaker.tck.WindowContract;
import java.util.List;

/**
 * The count window keeps the window contract. The oracle is the naive definition: the last 10
 * outcomes of the list, rates compared in integers (failures/calls >= 1/2, slow/calls >= 4/5),
 * at least 4 calls, or 3 failures in a row at the end of the whole history.
 */
class CountWindowContractTests extends WindowContract {

    private static final int SIZE = 10;

    @Override
    protected WindowFactory factory() {
        return CountWindow.builder()
                .size(SIZE)
                .failureRateThreshold(0.5)
                .slowCallRateThreshold(0.8)
                .minimumCalls(4)
                .consecutiveFailures(3)
                .build();
    }

    @Override
    protected boolean tripsAfter(List<Recorded> outcomes) {
        WindowCounts c = countsAfter(outcomes);
        boolean rates = c.calls() >= 4 && (2 * c.failures() >= c.calls() || 5 * c.slowCalls() >= 4 * c.calls());
        int run = 0;
        for (int i = outcomes.size() - 1; i >= 0 && outcomes.get(i).failure(); i--) {
            run++;
        }
        return rates || run >= 3;
    }

    @Override
    protected WindowCounts countsAfter(List<Recorded> outcomes) {
        return Recorded.countsOfLast(outcomes, SIZE);
    }
}
