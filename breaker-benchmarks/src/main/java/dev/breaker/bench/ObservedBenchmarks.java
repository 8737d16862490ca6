package dev.breaker.bench;

import dev.breaker.BreakerEvent;
import dev.breaker.CallObserver;
import dev.breaker.CircuitBreaker;
import dev.breaker.CircuitBreakerBuilder;
import dev.breaker.Outcome;
import dev.breaker.events.EventBus;
import dev.breaker.events.Slf4jEventLogger;
import dev.breaker.micrometer.BreakerMeterBinder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What watching a breaker costs on its hot path: the closed permit path (count window of 100, a
 * success per call) with nothing attached, with a call observer counting every outcome (a
 * {@link LongAdder}), with an event bus as its listener (transitions only: nothing per call), with
 * the SLF4J logger as listener and observer (a rejection counter per breaker; successes pass by),
 * and bound to a Micrometer registry (meters read the breaker's counters at scrape time only).
 * Resilience4j in the same run, bare and with an {@code onSuccess} consumer on its event
 * publisher (which builds an event object per call once anyone listens).
 *
 * <p>Run: {@code java -jar breaker-benchmarks/target/benchmarks.jar Observed -t 1 -prof gc}, then
 * {@code -t 2}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ObservedBenchmarks {

    /** Our breaker, watched or not. */
    @State(Scope.Benchmark)
    public static class Ours {
        @Param({"NONE", "OBSERVER", "BUS", "LOGGER", "BINDER"})
        String watch;

        CircuitBreaker breaker;
        EventBus bus;
        SimpleMeterRegistry meters;
        final LongAdder seen = new LongAdder();

        /** Builds the breaker. */
        @Setup
        public void setUp() {
            CircuitBreakerBuilder b = CircuitBreaker.builder("bench")
                    .window(Subjects.window(Subjects.Shape.COUNT_100))
                    .cooldown(java.time.Duration.ofHours(1));
            switch (watch) {
                case "OBSERVER" ->
                    b.observer(new CallObserver() {
                        @Override
                        public void onOutcome(CircuitBreaker breaker, Outcome outcome, boolean slow, long nanos) {
                            seen.increment();
                        }
                    });
                case "BUS" -> {
                    bus = EventBus.async();
                    bus.subscribe(BreakerEvent.class, e -> seen.increment());
                    b.listener(bus);
                }
                case "LOGGER" -> {
                    Slf4jEventLogger log = Slf4jEventLogger.create(); // bound to slf4j-nop here
                    b.listener(log).observer(log);
                }
                default -> {}
            }
            breaker = b.build();
            if (watch.equals("BINDER")) {
                meters = new SimpleMeterRegistry();
                new BreakerMeterBinder(breaker).bindTo(meters);
            }
        }

        /** Stops the bus's thread. */
        @TearDown
        public void tearDown() {
            if (bus != null) {
                bus.close();
            }
        }
    }

    /** Resilience4j's breaker, with a per-call consumer or without. */
    @State(Scope.Benchmark)
    public static class Resilience4j {
        @Param({"NONE", "CONSUMER"})
        String watch;

        io.github.resilience4j.circuitbreaker.CircuitBreaker breaker;
        final LongAdder seen = new LongAdder();

        /** Builds the breaker. */
        @Setup
        public void setUp() {
            breaker = Subjects.resilience4j(Subjects.Shape.COUNT_100, false);
            if (watch.equals("CONSUMER")) {
                breaker.getEventPublisher().onSuccess(e -> seen.increment());
            }
        }
    }

    /**
     * One call, measured.
     *
     * @param s state
     * @return whether granted
     */
    @Benchmark
    public boolean ours(Ours s) {
        return Subjects.succeed(s.breaker);
    }

    /**
     * One call, measured.
     *
     * @param s state
     * @return whether granted
     */
    @Benchmark
    public boolean resilience4j(Resilience4j s) {
        return Subjects.succeed(s.breaker);
    }
}
