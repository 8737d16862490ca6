package dev.breaker.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.breaker.CircuitBreaker;
import dev.breaker.Permit;
import dev.breaker.RetryAfter;
import dev.breaker.State;
import dev.breaker.Windows;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * The ten transition counters registered are all a breaker ever counts: driven through trips,
 * back-offs, probes that succeed, fail, are released or expire, late results, isolations and
 * resets, a breaker never counts a pair outside them, and the registered counters add up to its
 * generation (every transition starts one).
 */
class TransitionPairsProperties {

    /** A back-off failure (SPEC rule 19). */
    static final class TooManyRequests extends RuntimeException implements RetryAfter {
        private static final long serialVersionUID = 1L;

        TooManyRequests() {
            super(null, null, false, false);
        }

        @Override
        public Duration retryAfter() {
            return Duration.ofMillis(5);
        }
    }

    @Property(tries = 300)
    void aBreakerCountsOnlyTheRegisteredPairs(
            @ForAll @Size(max = 80) List<@IntRange(min = 0, max = 9) Integer> actions) {
        ManualTicker ticker = new ManualTicker();
        CircuitBreaker b = CircuitBreaker.builder("chain")
                .window(Windows.consecutiveFailures(2))
                .cooldown(Duration.ofMillis(10))
                .probes(2)
                .maxHalfOpenDuration(Duration.ofMillis(30))
                .ticker(ticker)
                .build();
        MeterRegistry meters = new SimpleMeterRegistry();
        new BreakerMeterBinder(b).bindTo(meters);
        Deque<Permit> held = new ArrayDeque<>();
        for (int action : actions) {
            switch (action) {
                case 0, 1 -> report(b.tryAcquire(), p -> p.onSuccess(0));
                case 2, 3 -> report(b.tryAcquire(), p -> p.onFailure(0, null));
                case 4 -> report(b.tryAcquire(), p -> p.onFailure(0, new TooManyRequests()));
                case 5 -> {
                    Permit p = b.tryAcquire();
                    if (p.granted()) {
                        held.push(p); // reported later: maybe late, maybe a probe's outcome
                    }
                }
                case 6 -> {
                    Permit p = held.poll();
                    if (p != null) {
                        if (ticker.read() % 2 == 0) {
                            p.onSuccess(0);
                        } else {
                            p.release();
                        }
                    }
                }
                case 7 -> ticker.advanceMillis(7);
                case 8 -> b.isolate();
                default -> b.reset();
            }
        }
        long registered = 0;
        for (State[] pair : BreakerMeters.PAIRS) {
            double counted = Meters.transitions(
                    meters, "chain", BreakerMeters.tagValue(pair[0]), BreakerMeters.tagValue(pair[1]));
            assertEquals(b.transitions(pair[0], pair[1]), counted);
            registered += (long) counted;
        }
        long all = 0;
        for (State from : State.values()) {
            for (State to : State.values()) {
                all += b.transitions(from, to);
            }
        }
        assertEquals(all, registered, "a pair outside the registered ten was counted");
        assertEquals(b.metrics().generation(), registered, "every transition is counted once");
    }

    private interface Report {
        void on(Permit p);
    }

    private static void report(Permit p, Report r) {
        if (p.granted()) {
            r.on(p);
        }
    }
}
