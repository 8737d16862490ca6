package dev.breaker.micrometer;

import dev.breaker.BreakerMetrics;
import dev.breaker.CircuitBreaker;
import dev.breaker.State;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * The meters of one breaker in one {@link MeterRegistry}: registered together, removed together.
 * Every meter reads the breaker when the registry asks (a scrape, a publication); nothing is
 * attached to the breaker.
 *
 * <p><b>References.</b> Micrometer holds a function counter's object weakly and its function
 * strongly, and a gauge's object strongly only when asked to. Each meter here is given one
 * {@link Reading} as both its object and its function, so every meter holds its breaker strongly,
 * for as long as the meter is registered: no meter turns NaN because the breaker was collected.
 */
final class BreakerMeters {

    /** The transition pairs a breaker can make, in the order they are registered. */
    static final List<State[]> PAIRS = List.of(
            new State[] {State.CLOSED, State.OPEN}, // a trip, or a back-off
            new State[] {State.CLOSED, State.ISOLATED},
            new State[] {State.CLOSED, State.CLOSED}, // reset() while CLOSED: a new generation
            new State[] {State.OPEN, State.HALF_OPEN},
            new State[] {State.OPEN, State.CLOSED}, // reset()
            new State[] {State.OPEN, State.ISOLATED},
            new State[] {State.HALF_OPEN, State.CLOSED},
            new State[] {State.HALF_OPEN, State.OPEN},
            new State[] {State.HALF_OPEN, State.ISOLATED},
            new State[] {State.ISOLATED, State.CLOSED}); // reset()

    private static final System.Logger LOG = System.getLogger("dev.breaker.micrometer");

    final CircuitBreaker breaker;
    private final List<Meter> meters;
    /** Set by the first read that failed, which alone is logged. */
    private volatile boolean failed;

    private BreakerMeters(CircuitBreaker breaker) {
        this.breaker = breaker;
        this.meters = new ArrayList<>();
    }

    /**
     * Registers every meter of {@code breaker}. When the registry refuses one (a naming clash in a
     * Prometheus registry, say), those already registered are removed before the exception goes on.
     */
    static BreakerMeters register(CircuitBreaker breaker, MeterRegistry registry, Tags common) {
        BreakerMeters m = new BreakerMeters(breaker);
        try {
            m.registerAll(registry, common.and(MeterNames.TAG_NAME, breaker.name()));
        } catch (RuntimeException | Error e) {
            try {
                m.remove(registry);
            } catch (RuntimeException alsoFailed) {
                e.addSuppressed(alsoFailed);
            }
            throw e;
        }
        return m;
    }

    private void registerAll(MeterRegistry registry, Tags tags) {
        for (State s : State.values()) {
            gauge(
                    registry,
                    MeterNames.STATE,
                    MeterNames.STATE_DESCRIPTION,
                    tags.and(MeterNames.TAG_STATE, tagValue(s)),
                    b -> b.state() == s ? 1 : 0);
        }
        calls(registry, tags, MeterNames.SUCCESS, BreakerMetrics::totalSuccesses);
        calls(registry, tags, MeterNames.FAILURE, BreakerMetrics::totalFailures);
        calls(registry, tags, MeterNames.IGNORED, BreakerMetrics::totalIgnored);
        calls(registry, tags, MeterNames.REJECTED, BreakerMetrics::rejectedCalls);
        calls(registry, tags, MeterNames.LATE, BreakerMetrics::lateResults);
        counter(
                registry,
                MeterNames.SLOW_CALLS,
                MeterNames.SLOW_CALLS_DESCRIPTION,
                MeterNames.UNIT_CALLS,
                tags.and(MeterNames.TAG_OUTCOME, MeterNames.SUCCESS),
                b -> b.metrics().totalSlowSuccesses());
        counter(
                registry,
                MeterNames.SLOW_CALLS,
                MeterNames.SLOW_CALLS_DESCRIPTION,
                MeterNames.UNIT_CALLS,
                tags.and(MeterNames.TAG_OUTCOME, MeterNames.FAILURE),
                b -> b.metrics().totalSlowFailures());
        gauge(
                registry,
                MeterNames.FAILURE_RATE,
                MeterNames.FAILURE_RATE_DESCRIPTION,
                tags,
                b -> b.metrics().failureRate());
        gauge(
                registry,
                MeterNames.SLOW_CALL_RATE,
                MeterNames.SLOW_CALL_RATE_DESCRIPTION,
                tags,
                b -> b.metrics().slowCallRate());
        for (State[] pair : PAIRS) {
            State from = pair[0];
            State to = pair[1];
            counter(
                    registry,
                    MeterNames.TRANSITIONS,
                    MeterNames.TRANSITIONS_DESCRIPTION,
                    MeterNames.UNIT_TRANSITIONS,
                    tags.and(MeterNames.TAG_FROM, tagValue(from), MeterNames.TAG_TO, tagValue(to)),
                    b -> b.transitions(from, to));
        }
    }

    private void calls(MeterRegistry registry, Tags tags, String outcome, ToDoubleFunction<BreakerMetrics> total) {
        counter(
                registry,
                MeterNames.CALLS,
                MeterNames.CALLS_DESCRIPTION,
                MeterNames.UNIT_CALLS,
                tags.and(MeterNames.TAG_OUTCOME, outcome),
                b -> total.applyAsDouble(b.metrics()));
    }

    private void gauge(
            MeterRegistry registry, String name, String description, Tags tags, ToDoubleFunction<CircuitBreaker> read) {
        Reading reading = new Reading(this, read);
        meters.add(Gauge.builder(name, reading, reading)
                .description(description)
                .tags(tags)
                .strongReference(true)
                .register(registry));
    }

    private void counter(
            MeterRegistry registry,
            String name,
            String description,
            String unit,
            Tags tags,
            ToDoubleFunction<CircuitBreaker> read) {
        Reading reading = new Reading(this, read);
        meters.add(FunctionCounter.builder(name, reading, reading)
                .description(description)
                .baseUnit(unit)
                .tags(tags)
                .register(registry));
    }

    /**
     * Removes every meter registered for this breaker; removing one already gone does nothing.
     * Each is tried even when removing another throws (a meter registry's removal listener, say):
     * the first failure is thrown after, the others suppressed in it.
     * Called once: the caller drops this object afterwards. (Micrometer removes by id, so a second
     * call could remove another breaker's meters registered under the same name since.)
     */
    void remove(MeterRegistry registry) {
        RuntimeException first = null;
        for (Meter meter : meters) {
            try {
                registry.remove(meter);
            } catch (RuntimeException e) { // a removal listener that throws: the other meters go all the same
                if (first == null) {
                    first = e;
                } else if (first != e) {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }

    /** The tag value of a state: its name in lower case ({@code half_open}). */
    static String tagValue(State state) {
        return state.name().toLowerCase(Locale.ROOT);
    }

    private void failed(RuntimeException e) {
        if (!failed) {
            failed = true;
            LOG.log(
                    System.Logger.Level.WARNING,
                    () -> "breaker '" + breaker.name() + "': reading it for a meter failed; its meters read NaN"
                            + " while it fails (logged once)",
                    e);
        }
    }

    /**
     * One meter's value, read from the breaker at scrape time. It is the meter's object and its
     * function at once, so the meter holds it, and through it the breaker, strongly. A read that
     * throws gives NaN, never an exception into the registry's scrape.
     */
    private static final class Reading implements ToDoubleFunction<Object> {

        private final BreakerMeters owner;
        private final ToDoubleFunction<CircuitBreaker> read;

        Reading(BreakerMeters owner, ToDoubleFunction<CircuitBreaker> read) {
            this.owner = owner;
            this.read = read;
        }

        @Override
        public double applyAsDouble(Object ignored) {
            try {
                return read.applyAsDouble(owner.breaker);
            } catch (RuntimeException e) {
                owner.failed(e);
                return Double.NaN;
            }
        }
    }
}
