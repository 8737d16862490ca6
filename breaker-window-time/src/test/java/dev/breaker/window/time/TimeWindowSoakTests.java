package dev.breaker.window.time;

import dev.breaker.tck.BreakerSoak;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The breaker soak with a short time window (its buckets rotate many times under the soak's clock). */
class TimeWindowSoakTests {

    @Test
    void invariantsHoldUnderLoad() throws Exception {
        BreakerSoak.run(TimeWindow.builder()
                .length(Duration.ofNanos(200_000))
                .buckets(4)
                .minimumCalls(4)
                .failureRateThreshold(0.25)
                .build());
    }
}
