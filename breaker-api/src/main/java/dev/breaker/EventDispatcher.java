package dev.breaker;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Delivers a breaker's events to its listeners one at a time, transitions in generation order,
 * without locks.
 *
 * <p><b>Why ordering needs care.</b> The thread that wins a transition's compare-and-set
 * publishes its event afterwards, so two transitions decided in quick succession by two threads
 * can reach this class in the opposite order. Transitions are therefore parked in a map keyed by
 * generation and handed out only when the next expected generation is present. Generations are
 * dense (every generation is started by exactly one published transition), so a gap always fills.
 * Skipping ahead over a gap would be wrong: a publisher preempted between its CAS and its publish
 * is ordinary on a busy machine, and its event would then arrive out of order.
 *
 * <p><b>Who delivers.</b> The work-in-progress counter elects one drainer at a time (the thread
 * that moves it from zero); a thread arriving while another drains adds one and leaves, and the
 * drainer loops until it has accounted for every such arrival. A listener that blocks therefore
 * stalls only the drainer, never the threads that decide transitions. {@code nextGeneration} is
 * touched only by the drainer; the counter's atomic updates order one drainer's writes before
 * the next drainer's reads.
 */
final class EventDispatcher {

    private static final System.Logger LOG = System.getLogger("dev.breaker");

    private final List<BreakerListener> listeners;
    private final ConcurrentSkipListMap<Long, StateTransition> parked = new ConcurrentSkipListMap<>();
    private final ConcurrentLinkedQueue<BreakerEvent> unordered = new ConcurrentLinkedQueue<>();
    private final AtomicInteger wip = new AtomicInteger();
    private long nextGeneration;

    EventDispatcher(List<BreakerListener> listeners, long firstGeneration) {
        this.listeners = listeners;
        this.nextGeneration = firstGeneration;
    }

    void transition(StateTransition event) {
        parked.put(event.generation(), event);
        drain();
    }

    void other(BreakerEvent event) {
        unordered.add(event);
        drain();
    }

    private void drain() {
        if (wip.getAndIncrement() != 0) {
            return;
        }
        int missed = 1;
        do {
            deliverReadyTransitions();
            for (BreakerEvent e; (e = unordered.poll()) != null; ) {
                deliver(e);
            }
            missed = wip.addAndGet(-missed);
        } while (missed != 0);
    }

    private void deliverReadyTransitions() {
        for (;;) {
            Map.Entry<Long, StateTransition> head = parked.firstEntry();
            if (head == null) {
                return;
            }
            long generation = head.getKey();
            if (generation != nextGeneration) {
                return; // its predecessor is still between its CAS and its publish; that thread will drain
            }
            parked.remove(generation);
            nextGeneration = generation + 1;
            deliver(head.getValue());
        }
    }

    private void deliver(BreakerEvent event) {
        for (BreakerListener listener : listeners) {
            try {
                listener.onEvent(event);
            } catch (Throwable e) { // a listener can change no decision and lose no event for the others
                LOG.log(System.Logger.Level.WARNING, "listener " + listener + " failed on " + event, e);
            }
        }
    }
}
