package dev.breaker.tck;

import dev.breaker.Windows;
import org.junit.jupiter.api.Test;

/** The soak with the built-in consecutive window. */
class ConsecutiveSoakTests {

    @Test
    void invariantsHoldUnderLoad() throws Exception {
        BreakerSoak.run(Windows.consecutiveFailures(3));
    }
}
