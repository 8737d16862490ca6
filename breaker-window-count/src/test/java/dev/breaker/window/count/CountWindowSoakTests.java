package dev.breaker.window.count;

import dev.breaker.tck.BreakerSoak;
import org.junit.jupiter.api.Test;

/** The breaker soak with a small count window, which trips often under the soak's mix. */
class CountWindowSoakTests {

    @Test
    void invariantsHoldUnderLoad() throws Exception {
        BreakerSoak.run(CountWindow.builder()
                .size(8)
                .minimumCalls(4)
                .failureRateThreshold(0.25)
                .consecutiveFailures(3)
                .build());
    }
}
