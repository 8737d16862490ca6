package dev.breaker.window.time;

import dev.breaker.spi.WindowFactory;
import dev.breaker.tck.RateRuleContract;

/**
 * The time window answers as SPEC rule 8 reads, computed by the kit, for any thresholds: time
 * stands still, so it keeps every outcome.
 */
class TimeWindowRuleTests extends RateRuleContract {

    @Override
    protected WindowFactory window(
            double failureRateThreshold, double slowCallRateThreshold, int minimumCalls, int size) {
        return TimeWindow.builder()
                .failureRateThreshold(failureRateThreshold)
                .slowCallRateThreshold(slowCallRateThreshold)
                .minimumCalls(minimumCalls)
                .build();
    }

    @Override
    protected boolean keepsTheLast() {
        return false;
    }
}
