package dev.breaker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.breaker.spi.WindowCounts;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Issue 8, point 7: a thread that dies between a transition's compare-and-set and its publish
 * leaves no gap. Driven by hand, step by step, as the breaker drives the dispatcher.
 */
class EventDispatcherTests {

    private final AtomicReference<Snapshot> current = new AtomicReference<>(isolated(0, null));
    private final List<Long> delivered = new ArrayList<>();
    private final EventDispatcher dispatcher = new EventDispatcher(
            "d",
            List.of(e -> delivered.add(e instanceof StateTransition t ? t.generation() : -1L)),
            current::get,
            Runnable::run,
            8);

    static Snapshot isolated(long generation, StateTransition cause) {
        return Snapshot.isolated(generation, 0, true, null, WindowCounts.empty(), cause);
    }

    static StateTransition event(long generation) {
        return new StateTransition("d", State.ISOLATED, State.ISOLATED, generation, TransitionReason.ISOLATED, 0);
    }

    private void transition(boolean dies) {
        transition(dispatcher, current, dies);
    }

    /**
     * A transition as the breaker makes it; {@code dies} stops after the CAS, before the publish.
     *
     * @return the snapshot it moved on from
     */
    static Snapshot transition(EventDispatcher d, AtomicReference<Snapshot> current, boolean dies) {
        Snapshot from = current.get();
        Snapshot to = isolated(from.generation + 1, event(from.generation + 1));
        d.beforeTransition(from);
        current.set(to);
        if (!dies) {
            d.afterTransition();
        }
        return from;
    }

    @Test
    void aPublisherThatDiedIsCoveredByTheNextTransition() {
        transition(true);
        transition(false);
        assertEquals(List.of(1L, 2L), delivered);
    }

    @Test
    void severalPublishersInARowThatDiedAreCoveredToo() {
        transition(true);
        transition(true);
        transition(true);
        transition(false);
        assertEquals(List.of(1L, 2L, 3L, 4L), delivered);
    }

    @Test
    void theNewestGenerationIsTakenFromTheSnapshotByAnyLaterDrain() {
        transition(true); // nobody transitions after it
        dispatcher.other(new LateResult("d", 0, 1));
        assertEquals(List.of(1L, -1L), delivered);
    }

    @Test
    void aDrainerThatFellAWholeRingBehindCountsWhatWasOverwritten() {
        for (int i = 0; i < 20; i++) {
            transition(true); // nobody drains: the ring of 8 is lapped
        }
        transition(false);
        assertEquals(21, delivered.size() + dispatcher.dropped());
        assertEquals(
                List.of(14L, 15L, 16L, 17L, 18L, 19L, 20L, 21L),
                delivered,
                "exactly the backlog of 8: the newest ones");
    }

    /**
     * The drainer reads the newest snapshot, and before it reaches the ring the breaker has moved
     * on by more than a ring: the slots of the generations it then wants hold later ones. Modelled
     * by a view of the breaker's state that lags behind it (generation 5 while 10 is installed).
     * Each overwritten generation is counted as dropped, so every generation is delivered or
     * counted exactly once.
     */
    @Test
    void generationsWhoseSlotsALaterLapTookAreCountedAsDropped() {
        AtomicReference<Snapshot> real = new AtomicReference<>(isolated(0, null));
        AtomicReference<Snapshot> view = new AtomicReference<>();
        List<Long> seen = new ArrayList<>();
        EventDispatcher d = new EventDispatcher(
                "d", List.of(e -> seen.add(((StateTransition) e).generation())), view::get, Runnable::run, 4);
        Snapshot five = null;
        for (int i = 0; i < 10; i++) { // nobody drains: the ring of 4 holds 6 to 9
            if (i == 5) {
                five = real.get();
            }
            transition(d, real, true);
        }
        view.set(five);
        d.afterTransition(); // newest 5: 1 beyond the backlog of 4, 2 to 4 overwritten, 5 from the snapshot
        assertEquals(List.of(5L), seen);
        assertEquals(4, d.dropped(), "1 beyond the backlog, 2, 3 and 4 overwritten");
        view.set(real.get());
        d.afterTransition(); // newest 10: 6 beyond the backlog, 7 to 9 from the ring, 10 from the snapshot
        assertEquals(List.of(5L, 7L, 8L, 9L, 10L), seen);
        assertEquals(5, d.dropped(), "every generation from 1 to 10 delivered or counted once");
    }
}
