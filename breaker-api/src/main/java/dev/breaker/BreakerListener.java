package dev.breaker;

/**
 * Receives a breaker's events. Events of one breaker are delivered one at a time, state
 * transitions in generation order, never while the breaker holds any lock (it holds none).
 * A listener that throws is logged and skipped: it changes no decision and does not keep the
 * event from the other listeners.
 *
 * <p>Delivery runs on a thread that caused a transition. A listener that blocks delays only
 * the thread that happens to be delivering; other threads keep deciding and enqueue their
 * events behind it. Listeners that do real work should hand it to their own executor
 * (the {@code breaker-events} module's bus does).
 */
@FunctionalInterface
public interface BreakerListener {

    /**
     * Handles one event.
     *
     * @param event the event, never null
     */
    void onEvent(BreakerEvent event);
}
