package dev.breaker.events;

import dev.breaker.BreakerEvent;
import dev.breaker.BreakerListener;
import dev.breaker.tck.BreakerListenerContract;
import java.util.concurrent.ForkJoinPool;
import org.junit.jupiter.api.Nested;

/** The TCK's listener contract, run against each kind of bus with a subscriber that takes everything. */
class BusListenerContractTests {

    private static BreakerListener subscribed(EventBus bus) {
        bus.subscribe(BreakerEvent.class, e -> {});
        return bus;
    }

    @Nested
    class Async extends BreakerListenerContract {
        @Override
        protected BreakerListener listener() {
            return subscribed(EventBus.async());
        }
    }

    @Nested
    class OnAnExecutor extends BreakerListenerContract {
        @Override
        protected BreakerListener listener() {
            return subscribed(EventBus.async(ForkJoinPool.commonPool()));
        }
    }

    @Nested
    class Sync extends BreakerListenerContract {
        @Override
        protected BreakerListener listener() {
            return subscribed(EventBus.sync());
        }
    }

    @Nested
    class WithASleepingSubscriber extends BreakerListenerContract {
        @Override
        protected BreakerListener listener() {
            EventBus bus = EventBus.builder()
                    .capacity(8)
                    .closeWait(java.time.Duration.ZERO)
                    .build();
            bus.subscribe(BreakerEvent.class, e -> {
                try {
                    Thread.sleep(50);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                }
            });
            return bus;
        }
    }
}
