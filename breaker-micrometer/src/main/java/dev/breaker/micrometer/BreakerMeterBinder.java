package dev.breaker.micrometer;

import dev.breaker.BreakerRegistry;
import dev.breaker.CircuitBreaker;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Micrometer meters for one breaker, or for every breaker of a {@link BreakerRegistry}, also
 * those it makes later.
 *
 * <pre>{@code
 * new BreakerMeterBinder(registry).bindTo(meterRegistry);
 * }</pre>
 *
 * <p><b>The meters</b>, each tagged {@code name} with the breaker's name (and any common tags):
 * <table>
 *   <caption>Meters per breaker</caption>
 *   <tr><th>meter</th><th>type</th><th>tags</th><th>value</th></tr>
 *   <tr><td>{@code breaker.state}</td><td>gauge</td>
 *       <td>{@code state}: {@code closed}, {@code open}, {@code half_open}, {@code isolated}</td>
 *       <td>1 for the current state, 0 for the other three</td></tr>
 *   <tr><td>{@code breaker.calls}</td><td>function counter (base unit {@code calls})</td>
 *       <td>{@code outcome}: {@code success}, {@code failure}, {@code ignored}, {@code rejected},
 *       {@code late}</td>
 *       <td>the running totals of {@link dev.breaker.BreakerMetrics}: {@code totalSuccesses},
 *       {@code totalFailures}, {@code totalIgnored} (releases included), {@code rejectedCalls},
 *       {@code lateResults}. Each call is counted once, so the five add up to every call
 *       made</td></tr>
 *   <tr><td>{@code breaker.slow.calls}</td><td>function counter ({@code calls})</td>
 *       <td>{@code outcome}: {@code success}, {@code failure}</td>
 *       <td>{@code totalSlowSuccesses}, {@code totalSlowFailures}: the slow ones among the
 *       successes and failures above</td></tr>
 *   <tr><td>{@code breaker.failure.rate}</td><td>gauge</td><td></td>
 *       <td>{@code failureRate}: the window's figure, from 0 to 1 (what it means depends on the
 *       window; see {@link dev.breaker.BreakerMetrics})</td></tr>
 *   <tr><td>{@code breaker.slow.call.rate}</td><td>gauge</td><td></td>
 *       <td>{@code slowCallRate}, likewise</td></tr>
 *   <tr><td>{@code breaker.transitions}</td><td>function counter (base unit
 *       {@code transitions})</td>
 *       <td>{@code from}, {@code to}: states as in {@code breaker.state}</td>
 *       <td>{@link CircuitBreaker#transitions(dev.breaker.State, dev.breaker.State)}</td></tr>
 * </table>
 * {@code breaker.transitions} is registered for the ten pairs a breaker can make, not all
 * sixteen: {@code closed->open} (a trip or a back-off), {@code open->half_open},
 * {@code half_open->closed}, {@code half_open->open}; {@code isolate()} from {@code closed},
 * {@code open} or {@code half_open}; and {@code reset()} from any state, to {@code closed}
 * ({@code closed->closed} included: a reset of a CLOSED breaker starts a new generation and the
 * breaker counts it). An OPEN breaker cannot become OPEN again, nor an ISOLATED one anything but
 * CLOSED. In Prometheus's text format these read {@code breaker_state}, {@code breaker_calls_total},
 * {@code breaker_slow_calls_total}, {@code breaker_failure_rate}, {@code breaker_slow_call_rate}
 * and {@code breaker_transitions_total}.
 *
 * <p><b>Read at scrape time, from the breaker's own counters.</b> Binding attaches nothing to a
 * breaker (no listener, no call observer): a call costs what it cost before. Each meter reads the
 * breaker when the meter registry asks for its value: a state gauge reads
 * {@link CircuitBreaker#state()}, a transition counter
 * {@link CircuitBreaker#transitions(dev.breaker.State, dev.breaker.State)}, and every other meter
 * takes its own {@link CircuitBreaker#metrics()} snapshot, so one scrape reads {@code metrics()}
 * nine times per breaker (no snapshot is shared between meters). Meters of one scrape may
 * therefore differ by the calls made between their reads; each one on its own only grows. A read
 * that throws (a breaker's {@code metrics()} should not) makes that meter NaN for that read, never
 * an exception in the scrape, and is logged once per breaker and meter registry (WARNING,
 * {@code System.Logger} "dev.breaker.micrometer").
 *
 * <p><b>References.</b> Every meter holds its breaker strongly for as long as the meter is
 * registered, so no meter turns NaN while the breaker is still in use elsewhere; removing the
 * meters (below) lets it go.
 *
 * <p><b>A registry.</b> {@link #bindTo} binds every breaker the registry has, then, by
 * {@link BreakerRegistry#watch watching} it, every breaker made later, on the thread that made
 * it; a breaker removed or evicted has its meters removed from the meter registry. A breaker made
 * or removed while {@code bindTo} runs ends up bound exactly once, or, if removed, not at all;
 * a name whose breaker is evicted and made anew gets the new breaker's meters (the class
 * {@code Binding} explains how). Watching lasts until {@link #close()}.
 *
 * <p><b>Binding again.</b> One binder may be bound to several meter registries, each getting its
 * own meters. Binding it twice to one meter registry does nothing the second time. Two binders
 * that bind the same breaker to one meter registry share its meters (Micrometer knows a meter by
 * its name and tags and hands the second registration the first meter; Micrometer logs one
 * warning about the gauges registered again), so nothing is counted twice; but then either
 * binder's removal removes them. For the same reason, two different
 * breakers with one name (from two registries, say) must be told apart by common tags when they
 * share a meter registry, or the second reads as the first.
 *
 * <p>Thread-safe.
 */
public final class BreakerMeterBinder implements MeterBinder, AutoCloseable {

    private final BreakerRegistry registry;
    private final CircuitBreaker breaker;
    private final Tags tags;
    // guarded by this
    private final Map<MeterRegistry, Bound> bindings = new IdentityHashMap<>();

    private record Bound(Binding binding, AutoCloseable watch) {}

    /**
     * Meters for every breaker of {@code registry}, also those made after binding.
     *
     * @param registry the registry, not null
     * @throws NullPointerException when registry is null
     */
    public BreakerMeterBinder(BreakerRegistry registry) {
        this(registry, Tags.empty());
    }

    /**
     * Meters for every breaker of {@code registry}, also those made after binding, each with
     * {@code tags} besides its own.
     *
     * @param registry the registry, not null
     * @param tags     common tags, such as the application's; none may have a key the binder sets
     *                 ({@code name}, {@code state}, {@code outcome}, {@code from}, {@code to})
     * @throws NullPointerException     when an argument is null
     * @throws IllegalArgumentException when a tag's key is one the binder sets
     */
    public BreakerMeterBinder(BreakerRegistry registry, Iterable<Tag> tags) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.breaker = null;
        this.tags = checked(tags);
    }

    /**
     * Meters for one breaker.
     *
     * @param breaker the breaker, not null
     * @throws NullPointerException when breaker is null
     */
    public BreakerMeterBinder(CircuitBreaker breaker) {
        this(breaker, Tags.empty());
    }

    /**
     * Meters for one breaker, with {@code tags} besides its own.
     *
     * @param breaker the breaker, not null
     * @param tags    common tags; none may have a key the binder sets ({@code name},
     *                {@code state}, {@code outcome}, {@code from}, {@code to})
     * @throws NullPointerException     when an argument is null
     * @throws IllegalArgumentException when a tag's key is one the binder sets
     */
    public BreakerMeterBinder(CircuitBreaker breaker, Iterable<Tag> tags) {
        this.registry = null;
        this.breaker = Objects.requireNonNull(breaker, "breaker");
        this.tags = checked(tags);
    }

    private static Tags checked(Iterable<Tag> tags) {
        Tags all = Tags.of(Objects.requireNonNull(tags, "tags"));
        for (Tag t : all) {
            if (MeterNames.RESERVED_TAGS.contains(t.getKey())) {
                throw new IllegalArgumentException("tags: the key '" + t.getKey()
                        + "' is set by the binder itself; common tags may not use name, state, outcome, from or to");
            }
        }
        return all;
    }

    /**
     * Registers the meters (see the class's note) in {@code meterRegistry}; for a registry, also
     * starts watching it. Binding this binder to a meter registry it is bound to already does
     * nothing.
     *
     * @param meterRegistry the meter registry, not null
     * @throws NullPointerException when meterRegistry is null
     */
    @Override
    public synchronized void bindTo(MeterRegistry meterRegistry) {
        Objects.requireNonNull(meterRegistry, "meterRegistry");
        if (bindings.containsKey(meterRegistry)) {
            return;
        }
        Binding binding = new Binding(meterRegistry, tags, registry);
        AutoCloseable watch;
        if (registry != null) {
            watch = registry.watch(binding);
        } else {
            binding.added(breaker);
            watch = null;
        }
        bindings.put(meterRegistry, new Bound(binding, watch));
    }

    /**
     * Stops watching the registry and removes every meter this binder registered, from every
     * meter registry it was bound to (meters shared with another binder too, see the class's
     * note). The binder may be bound again afterwards.
     */
    @Override
    public synchronized void close() {
        for (Bound b : bindings.values()) {
            if (b.watch() != null) {
                try {
                    b.watch().close();
                } catch (Exception e) { // the registry's handle does not throw
                    throw new IllegalStateException(e);
                }
            }
            b.binding().unbindAll();
        }
        bindings.clear();
    }

    /** The binding in one meter registry, or null (for tests). */
    synchronized Binding binding(MeterRegistry meterRegistry) {
        Bound b = bindings.get(meterRegistry);
        return b == null ? null : b.binding();
    }

    @Override
    public String toString() {
        return "BreakerMeterBinder[" + (registry != null ? registry : "breaker '" + breaker.name() + "'") + "]";
    }
}
