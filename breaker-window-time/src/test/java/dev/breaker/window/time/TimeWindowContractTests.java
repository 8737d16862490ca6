package dev.breaker.window.time;

import dev.breaker.spi.WindowCounts;
import dev.breaker.spi.WindowFactory;
import dev.breaker.tck.WindowContract;
import java.time.Duration;
import java.util.List;

/**
 * The time window keeps the window contract. Time stands still here, so every outcome stays in
 * the window; the oracle is the plain definition with rates compared in integers.
 */
class TimeWindowContractTests extends WindowContract {

    @Override
    protected WindowFactory factory() {
        return TimeWindow.builder()
                .length(Duration.ofSeconds(1))
                .buckets(4)
                .failureRateThreshold(0.5)
                .slowCallRateThreshold(0.8)
                .minimumCalls(4)
                .build();
    }

    @Override
    protected boolean tripsAfter(List<Recorded> outcomes) {
        WindowCounts c = countsAfter(outcomes);
        return c.calls() >= 4 && (2 * c.failures() >= c.calls() || 5 * c.slowCalls() >= 4 * c.calls());
    }

    @Override
    protected WindowCounts countsAfter(List<Recorded> outcomes) {
        return Recorded.countsOfLast(outcomes, Integer.MAX_VALUE);
    }
}
