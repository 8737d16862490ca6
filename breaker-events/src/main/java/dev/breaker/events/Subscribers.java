package dev.breaker.events;

import dev.breaker.BreakerEvent;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A bus's subscribers and the delivery of one event to them. The list is copy-on-write: delivery
 * iterates a snapshot without a lock, and subscribing or closing (rare) copies it. A subscriber
 * that throws is logged (its 1st, 2nd, 4th, 8th... failure) and stays subscribed; the others still
 * get the event.
 */
final class Subscribers {

    private static final Logger LOG = LoggerFactory.getLogger("dev.breaker.events");

    private final CopyOnWriteArrayList<Subscription> list = new CopyOnWriteArrayList<>();
    private final LongAdder failures = new LongAdder();

    Subscription add(Class<? extends BreakerEvent> type, java.util.function.Consumer<?> consumer) {
        Subscription s = new Subscription(this, type, consumer);
        list.add(s);
        return s;
    }

    void remove(Subscription s) {
        list.remove(s);
    }

    int size() {
        return list.size();
    }

    long failures() {
        return failures.sum();
    }

    /** Delivers one event to every open subscriber that wants its type, in subscription order. */
    void deliver(BreakerEvent event) {
        deliver(event, false);
    }

    /**
     * Delivers one event to every open subscriber that wants its type, in subscription order.
     *
     * @param ownThread delivering on a thread of the bus's own: an interrupt a subscriber leaves on
     *     it means nothing to the bus, and is cleared before the next subscriber's call
     */
    void deliver(BreakerEvent event, boolean ownThread) {
        for (Subscription s : list) {
            if (s.wants(event)) {
                try {
                    s.accept(event);
                } catch (Throwable t) { // an Error too: one subscriber must not cost the others their event
                    failures.increment();
                    long n = s.failed();
                    if (Long.bitCount(n) == 1) { // the 1st, 2nd, 4th, 8th...: a flood logs a few lines
                        logFailure(s, event, t, n);
                    }
                }
                if (ownThread) {
                    Thread.interrupted();
                }
            }
        }
    }

    private static void logFailure(Subscription s, BreakerEvent event, Throwable t, long n) {
        try {
            LOG.warn(
                    "event subscriber {} for {} threw on {} (failure {}; it stays subscribed)",
                    s.consumer(),
                    s.type().getSimpleName(),
                    event,
                    n,
                    t);
        } catch (Throwable loggingFailed) { // an exception that cannot print itself, or a broken logger
            // nothing more can be said safely; the event still reaches the other subscribers
        }
    }
}
