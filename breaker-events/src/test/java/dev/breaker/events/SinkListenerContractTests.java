package dev.breaker.events;

import dev.breaker.BreakerListener;
import dev.breaker.tck.BreakerListenerContract;
import org.junit.jupiter.api.Nested;

/** The TCK's listener contract, run against the logging and JFR sinks. */
class SinkListenerContractTests {

    @Nested
    class Logger extends BreakerListenerContract {
        @Override
        protected BreakerListener listener() {
            return Slf4jEventLogger.builder()
                    .loggerName("dev.breaker.events.contract")
                    .build();
        }
    }

    @Nested
    class Jfr extends BreakerListenerContract {
        @Override
        protected BreakerListener listener() {
            return JfrEventRecorder.create();
        }
    }
}
