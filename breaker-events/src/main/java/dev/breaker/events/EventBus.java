package dev.breaker.events;

import dev.breaker.BreakerEvent;
import dev.breaker.BreakerListener;
import java.lang.ref.Cleaner;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * A bus between breakers and the code that wants their events: a {@link BreakerListener} to
 * attach to breakers or a registry, and {@link #subscribe subscriptions} by event type.
 *
 * <pre>{@code
 * EventBus bus = EventBus.async();
 * BreakerRegistry registry = BreakerRegistry.builder().listener(bus).build();
 * AutoCloseable sub = bus.subscribe(StateTransition.class,
 *         t -> alerts.send(t.breakerName() + " is " + t.to()));
 * ...
 * sub.close();   // no delivery to it begins after this returns
 * bus.close();   // delivers what is queued (bounded wait), then stops its thread
 * }</pre>
 *
 * <p><b>Asynchronous</b> ({@link #async()}, {@link #async(Executor)}, {@link #builder()}): publishing
 * puts the event on a bounded queue and returns; one thread at a time delivers, either a daemon
 * thread the bus owns or tasks on your executor. A subscriber that is slow, sleeps, blocks or throws
 * never holds a caller: when the queue is full, new events are dropped and counted in
 * {@link #droppedEvents()}; nothing waits. Nothing is stranded either: every event is delivered or
 * counted as dropped, even if no other event follows (SPEC rule 13).
 *
 * <p><b>Synchronous</b> ({@link #sync()}): delivery runs on the publishing thread, which is the
 * breaker's event delivery (itself bounded per caller, see {@link
 * dev.breaker.CircuitBreakerBuilder#eventExecutor}). The one place a slow subscriber slows a
 * caller, by the user's choice.
 *
 * <p><b>Order.</b> A breaker publishes its events one at a time, transitions in generation order;
 * both kinds of bus deliver them in that order, also when one bus serves many breakers that
 * transition at once (events of different breakers interleave). Subscribers are called one at a
 * time by an asynchronous bus, in the order they subscribed.
 *
 * <p><b>Subscribers.</b> One that throws is logged through SLF4J (logger {@code dev.breaker.events},
 * its 1st, 2nd, 4th, 8th... failure) and stays subscribed. One that calls back into a breaker
 * (state, metrics, reset, isolate) cannot deadlock: no breaker holds a lock while publishing, and an
 * asynchronous bus delivers on its own thread.
 */
public final class EventBus implements BreakerListener, AutoCloseable {

    /** Events an asynchronous bus holds by default before it drops new ones. */
    public static final int DEFAULT_CAPACITY = 1024;
    /** The most events an asynchronous bus may hold. */
    public static final int MAX_CAPACITY = 1 << 24;
    /** How long {@link #close()} waits by default for the queue to be delivered. */
    public static final Duration DEFAULT_CLOSE_WAIT = Duration.ofSeconds(5);

    private static final AtomicInteger THREADS = new AtomicInteger();

    private final Subscribers subscribers = new Subscribers();
    /** Null for a synchronous bus. */
    private final AsyncDelivery async;

    private final long closeWaitNanos;
    private final String description;
    private final LongAdder droppedWhileClosed = new LongAdder();
    private volatile boolean closed;

    private EventBus(Builder b, boolean sync) {
        this.closeWaitNanos = b.closeWait.toNanos();
        if (sync) {
            this.async = null;
            this.description = "EventBus[sync]";
        } else {
            String thread = "dev.breaker-event-bus-" + THREADS.incrementAndGet();
            AsyncDelivery delivery = new AsyncDelivery(subscribers, b.capacity, b.executor, thread);
            this.async = delivery;
            if (b.executor == null) { // a bus dropped without close() must not keep its thread forever
                Abandoned.CLEANER.register(this, delivery::abandon);
            }
            this.description = "EventBus[async, capacity " + b.capacity + ", "
                    + (b.executor == null ? "thread " + thread : "executor " + b.executor) + "]";
        }
    }

    /**
     * An asynchronous bus with a queue of {@value #DEFAULT_CAPACITY} events and one daemon
     * dispatcher thread of its own.
     *
     * @return the bus
     */
    public static EventBus async() {
        return builder().build();
    }

    /**
     * An asynchronous bus with a queue of {@value #DEFAULT_CAPACITY} events, delivered by tasks on
     * {@code executor}, one task at a time. The executor must run every task it accepts or refuse
     * it by throwing (a refusal drops what waits, counted); one that silently discards tasks would
     * strand events.
     *
     * @param executor runs the deliveries
     * @return the bus
     * @throws NullPointerException when {@code executor} is null
     */
    public static EventBus async(Executor executor) {
        return builder().executor(executor).build();
    }

    /**
     * A synchronous bus: every event is delivered on the thread that publishes it.
     *
     * @return the bus
     */
    public static EventBus sync() {
        return new EventBus(new Builder(), true);
    }

    /**
     * Starts building an asynchronous bus: capacity, executor, how long {@link #close()} waits.
     *
     * @return a builder with the defaults of {@link #async()}
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Subscribes to events of a type (and its subtypes: {@code BreakerEvent.class} for all).
     *
     * @param type     the events wanted
     * @param consumer called with each, never with null
     * @param <E>      the event type
     * @return the subscription: {@code close()} it to stop delivery to {@code consumer}; once that
     *         returns no delivery to it begins (one already begun on another thread finishes), and
     *         it may be called from any thread, also from within the consumer
     * @throws NullPointerException  when an argument is null
     * @throws IllegalStateException when the bus is closed
     */
    public <E extends BreakerEvent> AutoCloseable subscribe(Class<E> type, Consumer<? super E> consumer) {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(consumer, "consumer");
        if (closed) {
            throw new IllegalStateException(description + " is closed: cannot subscribe to " + type.getSimpleName());
        }
        return subscribers.add(type, consumer);
    }

    /**
     * Publishes an event to the subscribers: queues it (asynchronous) or delivers it now
     * (synchronous). Never throws because of a subscriber; never waits on an asynchronous bus.
     *
     * @param event the event
     * @throws NullPointerException when {@code event} is null
     */
    @Override
    public void onEvent(BreakerEvent event) {
        Objects.requireNonNull(event, "event");
        if (async != null) {
            async.publish(event);
        } else if (closed) {
            droppedWhileClosed.increment();
        } else {
            subscribers.deliver(event);
        }
    }

    /**
     * Events not delivered: the queue was full, the executor refused the delivery, the bus was
     * closed, or {@link #close()} stopped waiting for them.
     *
     * @return the count since the bus was made
     */
    public long droppedEvents() {
        return async != null ? async.dropped() : droppedWhileClosed.sum();
    }

    /**
     * Calls of a subscriber that threw.
     *
     * @return the count since the bus was made
     */
    public long subscriberFailures() {
        return subscribers.failures();
    }

    /**
     * Events waiting to be delivered (0 for a synchronous bus).
     *
     * @return the count now
     */
    public int queuedEvents() {
        return async != null ? async.queued() : 0;
    }

    /**
     * Closes the bus: new events are dropped (counted), what is queued is delivered, waiting at most
     * the close wait (5 s unless {@link Builder#closeWait} said otherwise), then anything left is
     * counted as dropped and the bus's own thread ends (a subscriber still running on it is
     * interrupted). Called from a subscriber, it does not wait (it cannot wait for itself): the
     * queue is still delivered after it returns. Idempotent. A bus that nothing refers to any more (its subscribers included) is closed this way
     * once collected, so that its thread does not outlive it.
     */
    @Override
    public void close() {
        closed = true;
        if (async != null) {
            async.close(closeWaitNanos);
        }
    }

    @Override
    public String toString() {
        return description + (closed ? " (closed)" : "") + ", " + subscribers.size() + " subscribers";
    }

    /**
     * Ends the threads of buses that became unreachable without {@link #close()} (their thread
     * refers to the delivery, never to the bus; a subscriber that refers to its bus keeps it).
     */
    private static final class Abandoned {
        static final Cleaner CLEANER = Cleaner.create(r -> {
            Thread t = new Thread(r, "dev.breaker-event-bus-cleaner");
            t.setDaemon(true);
            return t;
        });
    }

    /** Builds an asynchronous {@link EventBus}. */
    public static final class Builder {
        private int capacity = DEFAULT_CAPACITY;
        private Executor executor;
        private Duration closeWait = DEFAULT_CLOSE_WAIT;

        private Builder() {}

        /**
         * How many events may wait; beyond it new events are dropped and counted.
         *
         * @param events 1 to {@value EventBus#MAX_CAPACITY}
         * @return this builder
         * @throws IllegalArgumentException when out of range
         */
        public Builder capacity(int events) {
            if (events < 1 || events > MAX_CAPACITY) {
                throw new IllegalArgumentException("capacity must be in [1, " + MAX_CAPACITY + "], was " + events);
            }
            this.capacity = events;
            return this;
        }

        /**
         * Delivers on tasks run by this executor instead of a thread of the bus's own (see
         * {@link EventBus#async(Executor)}).
         *
         * @param executor not null
         * @return this builder
         */
        public Builder executor(Executor executor) {
            this.executor = Objects.requireNonNull(executor, "executor");
            return this;
        }

        /**
         * How long {@link EventBus#close()} waits for queued events to be delivered.
         *
         * @param wait zero or positive, at most a day
         * @return this builder
         * @throws IllegalArgumentException when negative or longer than a day
         */
        public Builder closeWait(Duration wait) {
            Objects.requireNonNull(wait, "closeWait");
            if (wait.isNegative() || wait.compareTo(Duration.ofDays(1)) > 0) {
                throw new IllegalArgumentException("closeWait must be in [0, 1 day], was " + wait);
            }
            this.closeWait = wait;
            return this;
        }

        /**
         * Builds the bus (and starts its thread, unless an executor was given).
         *
         * @return the bus
         */
        public EventBus build() {
            return new EventBus(this, false);
        }
    }
}
