package dev.breaker.bench;

import dev.breaker.CircuitBreaker;
import dev.breaker.Permit;
import dev.breaker.State;
import dev.breaker.Windows;
import dev.breaker.halfopen.ExponentialPolicy;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;

/**
 * A CLOSED breaker ramping up after recovery (SPEC rule 16; {@code breaker-halfopen}'s
 * exponential policy, a ramp of an hour from 50%): every request reads the clock and adds its
 * share to the ramp's shared credit; about half are admitted (and report a success), the rest
 * get the allocation-free rejected permit. No peer ramps, so there is no Resilience4j row: read it
 * against {@code ClosedPermit CONSECUTIVE} (no ramp) and the {@code nanoTime} floor.
 *
 * <p>Run: {@code breaker-benchmarks/run 1 3 5 1 Ramp}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@org.openjdk.jmh.annotations.State(Scope.Benchmark)
public class RampBenchmarks {

    private CircuitBreaker ramping;

    /** Trips the breaker, lets its cooldown pass and closes it with a probe: the ramp begins. */
    @Setup
    public void setUp() {
        ramping = CircuitBreaker.builder("ramp")
                .window(Windows.consecutiveFailures(1))
                .halfOpen(ExponentialPolicy.builder()
                        .initial(Duration.ZERO)
                        .max(Duration.ZERO)
                        .rampUp(Duration.ofHours(1))
                        .rampFrom(0.5)
                        .build())
                .build();
        ramping.tryAcquire().onFailure(0, null);
        ramping.tryAcquire().onSuccess(0); // the probe: closes, the ramp starts
        if (ramping.state() != State.CLOSED) {
            throw new IllegalStateException("not closed: " + ramping.state());
        }
    }

    /**
     * Whether granted.
     *
     * @return whether granted
     */
    @Benchmark
    public boolean ours() {
        Permit permit = ramping.tryAcquire();
        if (!permit.granted()) {
            return false;
        }
        permit.onSuccess(1_000);
        return true;
    }
}
