package dev.breaker.window.time;

import dev.breaker.spi.WindowFactory;
import dev.breaker.tck.TimeWindowContract;
import java.time.Duration;

/** The time window while time moves, across the ticker's wrap: 10 buckets of its length. */
class TimeWindowTimeContractTests extends TimeWindowContract {

    @Override
    protected WindowFactory window(Duration length, double failureRateThreshold, int minimumCalls) {
        return TimeWindow.builder()
                .length(length)
                .buckets(10)
                .failureRateThreshold(failureRateThreshold)
                .minimumCalls(minimumCalls)
                .build();
    }

    @Override
    protected Duration bucketWidth(Duration length) {
        return length.dividedBy(10);
    }
}
