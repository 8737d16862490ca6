package dev.breaker.window.count;

import dev.breaker.spi.WindowFactory;
import dev.breaker.tck.RateRuleContract;

/** The count window answers as SPEC rule 8 reads, computed by the kit, for any thresholds and sizes. */
class CountWindowRuleTests extends RateRuleContract {

    @Override
    protected WindowFactory window(
            double failureRateThreshold, double slowCallRateThreshold, int minimumCalls, int size) {
        return CountWindow.builder()
                .size(size)
                .failureRateThreshold(failureRateThreshold)
                .slowCallRateThreshold(slowCallRateThreshold)
                .minimumCalls(minimumCalls)
                .build();
    }

    @Override
    protected boolean keepsTheLast() {
        return true;
    }
}
