package dev.breaker.tck;

import dev.breaker.BreakerEvent;
import dev.breaker.BreakerListener;
import dev.breaker.CallObserver;
import dev.breaker.CircuitBreaker;
import dev.breaker.State;
import java.util.concurrent.atomic.LongAdder;

/** The listener contract run against the simplest listener and observer there is: one that counts. */
class CountingListenerContractTests extends BreakerListenerContract {

    static final class Counting implements BreakerListener, CallObserver {
        final LongAdder events = new LongAdder();
        final LongAdder rejections = new LongAdder();

        @Override
        public void onEvent(BreakerEvent event) {
            events.increment();
        }

        @Override
        public void onRejected(CircuitBreaker breaker, State state) {
            rejections.increment();
        }
    }

    @Override
    protected BreakerListener listener() {
        return new Counting();
    }
}
