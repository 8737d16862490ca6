package dev.breaker;

import dev.breaker.tck.BreakerSoak;
import org.junit.jupiter.api.Test;

/** The soak with the built-in consecutive window. */
class SoakTests {

    @Test
    void invariantsHoldUnderLoad() throws Exception {
        BreakerSoak.run(Windows.consecutiveFailures(3));
    }
}
