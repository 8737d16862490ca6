package dev.breaker;

import dev.breaker.internal.Names;
import dev.breaker.internal.race.Races;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * Delivers a breaker's events to its listeners one at a time, transitions in generation order,
 * without locks, without holding any caller for long, and without stranding or hoarding events
 * (SPEC rule 13).
 *
 * <p><b>Where transition events come from.</b> Every snapshot carries the event of the transition
 * that began its generation. The newest event is therefore always readable from the breaker's
 * current snapshot, and before any thread tries a transition away from a snapshot it stores that
 * snapshot's event in a ring indexed by generation ({@link #beforeTransition}). So once generation
 * {@code g + 1} is installed, the event of {@code g} is in the ring: the drainer never waits for a
 * publisher, and a thread that dies between its compare-and-set and its publish leaves no gap.
 * A store never replaces a newer generation's event, so a slot holds either the generation the
 * drainer wants or a later one (the wanted one was overwritten: the drainer fell a whole ring
 * behind, and counts it as dropped).
 *
 * <p><b>Who delivers.</b> The work-in-progress counter elects one drainer at a time: the thread
 * that moves it from zero. A thread arriving while another drains adds one and leaves; the
 * drainer loops until it has accounted for every arrival. A calling thread delivers at most
 * {@value #CALLER_BUDGET} events; if more are waiting it hands the drain, still elected, to the
 * breaker's event executor, which delivers up to {@value #EXECUTOR_BUDGET} per task and
 * resubmits itself while work remains. Without a user's executor that is
 * {@link java.util.concurrent.ForkJoinPool#commonPool()} (a new daemon thread per hand-off when
 * the pool has no parallelism), so a leftover is delivered within a bounded time even if the
 * breaker never publishes again. An executor that refuses the task (throws) turns the leftovers
 * into dropped events; one that accepts it and never runs it (a discard policy) only delays them
 * until the next event, whose publisher takes the unclaimed drain over.
 *
 * <p><b>Bounds.</b> At most {@code capacity} transitions wait (the newest ones: older ones are
 * dropped when the drainer comes to them) and at most {@code capacity} other events (new ones are
 * dropped when the queue is full); every drop is counted in {@link BreakerMetrics#droppedEvents()}.
 *
 * <p><b>Memory order.</b> {@code next} is touched only by the elected drainer; the counter's atomic
 * updates, a hand-off's claim, and the executor's hand-off order one drainer's writes before the
 * next one's reads.
 */
final class EventDispatcher {

    /** Most events one calling thread delivers before handing the rest to the executor. */
    static final int CALLER_BUDGET = 8;
    /** Most events one executor task delivers before resubmitting itself. */
    static final int EXECUTOR_BUDGET = 64;

    private static final System.Logger LOG = System.getLogger("dev.breaker");

    private final String breakerName;
    private final List<BreakerListener> listeners;
    private final java.util.function.Supplier<Snapshot> current;
    private final Executor executor;
    private final int capacity;
    private final int mask;
    private final AtomicReference<AtomicReferenceArray<StateTransition>> ring = new AtomicReference<>();
    private final ConcurrentLinkedQueue<BreakerEvent> others = new ConcurrentLinkedQueue<>();
    private final AtomicInteger othersQueued = new AtomicInteger();
    private final AtomicInteger wip = new AtomicInteger();
    private final LongAdder dropped = new LongAdder();
    /** The next generation to deliver; only the elected drainer reads or writes it. */
    private long next = 1;
    /** The last drain handed to the executor; a publisher may claim it if the executor has not. */
    private volatile HandOff pending;

    /**
     * @param capacity at least 1; rounded up to a power of two for the ring
     */
    EventDispatcher(
            String breakerName,
            List<BreakerListener> listeners,
            java.util.function.Supplier<Snapshot> current,
            Executor executor,
            int capacity) {
        this.breakerName = breakerName;
        this.listeners = listeners;
        this.current = current;
        this.executor = executor;
        this.capacity = capacity;
        this.mask = (capacity <= 1 ? 1 : Integer.highestOneBit(capacity - 1) << 1) - 1;
    }

    /** Before any attempt to move on from {@code from}: make its generation's event findable in the ring. */
    void beforeTransition(Snapshot from) {
        StateTransition event = from.cause;
        if (event == null) {
            return;
        }
        AtomicReferenceArray<StateTransition> r = ring();
        int slot = (int) (event.generation() & mask);
        for (; ; ) {
            StateTransition there = r.get(slot);
            if (there != null && there.generation() >= event.generation()) {
                return;
            }
            Races.at(Races.RING_READ);
            if (r.compareAndSet(slot, there, event)) {
                return;
            }
        }
    }

    /** After a transition's compare-and-set: its event is in the snapshot; deliver what is ready. */
    void afterTransition() {
        signal();
    }

    /** An event outside the generation order (a late result). */
    void other(BreakerEvent event) {
        if (othersQueued.incrementAndGet() > capacity) {
            othersQueued.decrementAndGet();
            dropped.increment();
            return;
        }
        others.add(event);
        signal();
    }

    long dropped() {
        return dropped.sum();
    }

    private AtomicReferenceArray<StateTransition> ring() {
        AtomicReferenceArray<StateTransition> r = ring.get();
        if (r == null) {
            ring.compareAndSet(null, new AtomicReferenceArray<>(mask + 1));
            r = ring.get();
        }
        return r;
    }

    private void signal() {
        if (wip.getAndIncrement() == 0) {
            drain(1, CALLER_BUDGET);
            return;
        }
        HandOff waiting = pending;
        if (waiting != null && waiting.claim()) { // handed to the executor, which has not run it: take the drain over
            drain(waiting.missed, CALLER_BUDGET);
        }
    }

    /**
     * Runs the elected drain: delivers up to {@code budget} events, then steps down or hands the
     * rest to the executor. An executor that runs the task on the spot (a direct executor) is
     * detected, and the drain goes on in this loop instead of one stack frame deeper per hand-off.
     */
    private void drain(int missed, int budget) {
        for (; ; ) {
            int handOver = drainSome(missed, budget);
            if (handOver == 0) {
                return; // stepped down
            }
            HandOff task = new HandOff(handOver);
            pending = task;
            try {
                executor.execute(task);
            } catch (Throwable refused) { // nobody can deliver the leftovers now: count them, and step down
                if (task.claim()) {
                    stepDownDropping(handOver);
                }
                return;
            }
            task.submitted = true;
            if (!task.ranInline || !task.claim()) {
                return; // the executor has it, or a publisher took it over
            }
            missed = handOver;
            budget = EXECUTOR_BUDGET;
        }
    }

    /**
     * Delivers what waits, within the budget.
     *
     * @return 0 once stepped down; otherwise the arrivals still unaccounted, to hand over
     */
    private int drainSome(int missed, int budget) {
        try {
            for (; ; ) {
                budget = deliverTransitions(budget);
                budget = deliverOthers(budget);
                if (budget <= 0 && pending()) {
                    return missed;
                }
                Races.at(Races.DRAINED_ROUND);
                missed = wip.addAndGet(-missed);
                if (missed == 0) {
                    return 0;
                }
            }
        } catch (Throwable unexpected) { // deliver() lets nothing escape; should anything else fail, the drain lives on
            return missed;
        }
    }

    private boolean pending() {
        return next <= current.get().generation || !others.isEmpty();
    }

    private void stepDownDropping(int missed) {
        int left = missed;
        do {
            dropAll();
            Races.at(Races.DRAINED_ROUND);
            left = wip.addAndGet(-left);
        } while (left != 0);
    }

    /**
     * The elected drain, passed to the executor with the arrivals it still has to account for.
     * Whoever claims it first carries the drain on: the executor's thread, or a publisher that
     * finds it still unclaimed (so an executor that accepts tasks and silently discards them, a
     * {@code DiscardPolicy}, delays the leftovers only until the next event).
     */
    private final class HandOff implements Runnable {
        private final java.util.concurrent.atomic.AtomicBoolean claimed =
                new java.util.concurrent.atomic.AtomicBoolean();
        final int missed;
        private final Thread submitter = Thread.currentThread();
        /** Set after {@code execute} returned; a run on the submitter's thread before that is inline. */
        volatile boolean submitted;
        /** Written and read only on the submitter's thread, when the executor ran the task inline. */
        boolean ranInline;

        HandOff(int missed) {
            this.missed = missed;
        }

        boolean claim() {
            return claimed.compareAndSet(false, true);
        }

        @Override
        public void run() {
            if (!submitted && Thread.currentThread() == submitter) {
                ranInline = true; // the submitter carries on in its loop
                return;
            }
            if (claim()) {
                drain(missed, EXECUTOR_BUDGET);
            }
        }
    }

    private void dropAll() {
        long newest = current.get().generation;
        if (next <= newest) {
            dropped.add(newest - next + 1);
            next = newest + 1;
        }
        while (others.poll() != null) {
            othersQueued.decrementAndGet();
            dropped.increment();
        }
    }

    private int deliverTransitions(int budget) {
        while (budget > 0) {
            Snapshot newest = current.get();
            long g = next;
            if (g > newest.generation) {
                return budget;
            }
            long oldestKept = newest.generation - capacity + 1;
            if (g < oldestKept) { // more than the backlog waits: the oldest go
                dropped.add(oldestKept - g);
                next = oldestKept;
                continue;
            }
            next = g + 1;
            StateTransition event = g == newest.generation ? newest.cause : fromRing(g);
            if (event == null) {
                dropped.increment(); // overwritten: the ring was lapped while this drainer lagged
            } else {
                deliver(event);
                budget--;
            }
        }
        return budget;
    }

    /** The event of {@code g}, older than the newest; null when a later generation took its slot. */
    private StateTransition fromRing(long g) {
        AtomicReferenceArray<StateTransition> r = ring.get();
        if (r == null) {
            return null;
        }
        int slot = (int) (g & mask);
        StateTransition event = r.get(slot);
        if (event == null || event.generation() != g) {
            return null;
        }
        r.compareAndSet(slot, event, null); // delivered: keep no reference to it
        return event;
    }

    private int deliverOthers(int budget) {
        for (BreakerEvent event; budget > 0 && (event = others.poll()) != null; budget--) {
            othersQueued.decrementAndGet();
            deliver(event);
        }
        return budget;
    }

    private void deliver(BreakerEvent event) {
        for (BreakerListener listener : listeners) {
            try {
                listener.onEvent(event);
            } catch (Throwable e) { // a listener can change no decision and lose no event for the others
                logFailure(listener, event, e);
            }
        }
    }

    private void logFailure(BreakerListener listener, BreakerEvent event, Throwable failure) {
        try {
            LOG.log(
                    System.Logger.Level.WARNING,
                    () -> "breaker '" + breakerName + "': listener " + Names.describe(listener::toString, listener)
                            + " failed on " + event,
                    failure);
        } catch (Throwable loggingFailed) { // a listener whose toString or exception misbehaves, or a broken logger
            // nothing more can be said safely; the event still reaches the other listeners
        }
    }
}
