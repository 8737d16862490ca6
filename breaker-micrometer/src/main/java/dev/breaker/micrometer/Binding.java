package dev.breaker.micrometer;

import dev.breaker.BreakerRegistry;
import dev.breaker.CircuitBreaker;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * What one binder has registered in one {@link MeterRegistry}: at most one breaker's meters per
 * name. As a registry's watcher it binds the breakers added and unbinds those removed.
 *
 * <p><b>Why one lock, and the two checks.</b> The registry tells watchers on the thread that made
 * or removed a breaker, and tells a new watcher of the breakers that already exist on the thread
 * that binds; so {@code added} and {@code removed} of one breaker can race and arrive in either
 * order, and an {@code added} can arrive after its breaker was removed, even after the name's next
 * breaker was bound. Every {@code added} and {@code removed} here holds one lock, and the registry
 * takes a breaker out of its map before it tells anyone. So:
 * <ul>
 *   <li>{@code added} first asks the registry whether the breaker is still the name's breaker, and
 *       binds nothing if not: a late announcement of an old breaker must not unbind the name's
 *       current one. A breaker that is still there is the name's only one, so any other breaker
 *       bound under the name is an older one whose {@code removed} is still on its way: its
 *       meters go first (Micrometer knows meters by name and tags only, so the new breaker would
 *       otherwise be handed the old one's meters), and that {@code removed} later finds another
 *       breaker under the name and does nothing;</li>
 *   <li>a breaker announced twice (made while the binder started watching) is found bound already:
 *       the second {@code added} does nothing;</li>
 *   <li>a breaker removed while its meters are being registered (its {@code removed} may come
 *       first, or on this very thread, and find nothing to remove): having registered them,
 *       {@code added} asks the registry again and unbinds the breaker if it is gone. Either that
 *       check sees it gone, or its {@code removed} runs after the check and finds it bound.</li>
 * </ul>
 * A breaker that stays in the registry is therefore bound exactly once, and one removed leaves no
 * meters, whatever the order. The lock is taken only when a breaker is added or removed, never on a call or a scrape.
 */
final class Binding implements BreakerRegistry.Watcher {

    private final MeterRegistry meters;
    private final Tags common;
    /** The registry watched, or null when binding a single breaker. */
    private final BreakerRegistry source;
    // guarded by this
    private final Map<String, BreakerMeters> bound = new HashMap<>();
    /** Set by {@link #unbindAll()}: an announcement still on its way afterwards binds nothing. */
    private boolean closed;

    Binding(MeterRegistry meters, Tags common, BreakerRegistry source) {
        this.meters = meters;
        this.common = common;
        this.source = source;
    }

    @Override
    public synchronized void added(CircuitBreaker breaker) {
        if (closed) {
            return; // the binder was closed while the registry was telling this watcher
        }
        String name = breaker.name();
        if (source != null && !stillIn(source.find(name), breaker)) {
            return; // removed already: a late announcement, perhaps after the name's next breaker
        }
        BreakerMeters current = bound.get(name);
        if (current != null) {
            if (current.breaker == breaker) {
                return; // announced twice
            }
            current.remove(meters); // the name's previous breaker, whose removal is still on its way
            bound.remove(name);
        }
        BreakerMeters made = BreakerMeters.register(breaker, meters, common);
        bound.put(name, made);
        if (source != null && !stillIn(source.find(name), breaker)) {
            unbind(name, made); // removed while it was being bound
        }
    }

    @Override
    public synchronized void removed(CircuitBreaker breaker) {
        String name = breaker.name();
        BreakerMeters current = bound.get(name);
        if (current != null && current.breaker == breaker) {
            unbind(name, current);
        }
    }

    /** Removes every meter this binding registered, and binds nothing from now on. */
    synchronized void unbindAll() {
        closed = true;
        for (BreakerMeters m : bound.values()) {
            m.remove(meters);
        }
        bound.clear();
    }

    /** The breakers bound now, by name (for tests). */
    synchronized Map<String, BreakerMeters> bound() {
        return Map.copyOf(bound);
    }

    private void unbind(String name, BreakerMeters m) {
        bound.remove(name);
        m.remove(meters);
    }

    private static boolean stillIn(Optional<CircuitBreaker> found, CircuitBreaker breaker) {
        return found.isPresent() && found.get() == breaker;
    }
}
