package dev.breaker.bench;

import dev.breaker.CircuitBreaker;
import dev.failsafe.FailsafeExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Rejection by an open breaker (cooldown of an hour, count window of 100): through the permit API
 * ({@code *Permit}: a boolean answer) and through the execute API ({@code *Exception}: the
 * library's exception, each with its default stack-trace setting).
 *
 * <p>Run: {@code breaker-benchmarks/run}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Benchmark)
public class RejectBenchmarks {

    private final Supplier<String> call = () -> "answer";
    private final dev.failsafe.function.CheckedSupplier<Object> checkedCall = () -> "answer";
    private CircuitBreaker ours;
    private io.github.resilience4j.circuitbreaker.CircuitBreaker resilience4j;
    private dev.failsafe.CircuitBreaker<Object> failsafe;
    private FailsafeExecutor<Object> failsafeExecutor;

    /** Builds open breakers. */
    @Setup
    public void setUp() {
        ours = Subjects.ours(Subjects.Shape.COUNT_100, true);
        resilience4j = Subjects.resilience4j(Subjects.Shape.COUNT_100, true);
        failsafe = Subjects.failsafe(Subjects.Shape.COUNT_100, true);
        failsafeExecutor = Subjects.failsafeExecutor(failsafe);
    }

    /**
     * False: rejected.
     *
     * @return false: rejected
     */
    @Benchmark
    public boolean oursPermit() {
        return ours.tryAcquire().granted();
    }

    /**
     * False: rejected.
     *
     * @return false: rejected
     */
    @Benchmark
    public boolean resilience4jPermit() {
        return resilience4j.tryAcquirePermission();
    }

    /**
     * False: rejected.
     *
     * @return false: rejected
     */
    @Benchmark
    public boolean failsafePermit() {
        return failsafe.tryAcquirePermit();
    }

    /**
     * The rejection.
     *
     * @return the rejection
     */
    @Benchmark
    public Object oursException() {
        try {
            return ours.get(call);
        } catch (dev.breaker.CallNotPermittedException e) {
            return e;
        }
    }

    /**
     * The rejection.
     *
     * @return the rejection
     */
    @Benchmark
    public Object resilience4jException() {
        try {
            return resilience4j.executeSupplier(call);
        } catch (io.github.resilience4j.circuitbreaker.CallNotPermittedException e) {
            return e;
        }
    }

    /**
     * The rejection.
     *
     * @return the rejection
     */
    @Benchmark
    public Object failsafeException() {
        try {
            return failsafeExecutor.get(checkedCall);
        } catch (dev.failsafe.CircuitBreakerOpenException e) {
            return e;
        }
    }
}
