package dev.breaker.events;

import dev.breaker.BreakerEvent;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * One subscriber of a bus: the event type it wants, its consumer, and whether it is still open.
 * Closing it removes it from the bus's list; the {@code open} flag, read just before each call,
 * also stops a delivery that had already taken the list before the removal.
 */
final class Subscription implements AutoCloseable {

    private final Subscribers owner;
    private final Class<? extends BreakerEvent> type;
    private final Consumer<BreakerEvent> consumer;
    private volatile boolean open = true;
    private final AtomicLong failures = new AtomicLong();

    @SuppressWarnings("unchecked")
    Subscription(Subscribers owner, Class<? extends BreakerEvent> type, Consumer<?> consumer) {
        this.owner = owner;
        this.type = type;
        this.consumer = (Consumer<BreakerEvent>) consumer; // accept() is only called with instances of type
    }

    boolean wants(BreakerEvent event) {
        return open && type.isInstance(event);
    }

    void accept(BreakerEvent event) {
        consumer.accept(event);
    }

    /** Counts a failure and answers the count so far (the 1st, 2nd, 4th, 8th... are logged). */
    long failed() {
        return failures.incrementAndGet();
    }

    Class<? extends BreakerEvent> type() {
        return type;
    }

    Object consumer() {
        return consumer;
    }

    /**
     * Stops delivery to this subscriber: no delivery begins after this returns (one already begun,
     * on another thread, finishes; this does not wait for it). Idempotent; may be called from the
     * subscriber's own callback.
     */
    @Override
    public void close() {
        open = false;
        owner.remove(this);
    }

    @Override
    public String toString() {
        return "Subscription[" + type.getSimpleName() + ", " + (open ? "open" : "closed") + "]";
    }
}
