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
 * The execute API on a closed breaker (count window of 100 at 50%): wrap a supplier that returns
 * a constant, as users wrap a remote call. The supplier is a field, so no lambda is made per call.
 *
 * <p>Run: {@code breaker-benchmarks/run}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Benchmark)
public class ExecuteBenchmarks {

    private final Supplier<String> call = () -> "answer";
    private final dev.failsafe.function.CheckedSupplier<Object> checkedCall = () -> "answer";
    private CircuitBreaker ours;
    private io.github.resilience4j.circuitbreaker.CircuitBreaker resilience4j;
    private FailsafeExecutor<Object> failsafe;

    /** Builds the breakers. */
    @Setup
    public void setUp() {
        ours = Subjects.ours(Subjects.Shape.COUNT_100, false);
        resilience4j = Subjects.resilience4j(Subjects.Shape.COUNT_100, false);
        failsafe = Subjects.failsafeExecutor(Subjects.failsafe(Subjects.Shape.COUNT_100, false));
    }

    /**
     * The call's result.
     *
     * @return the call's result
     */
    @Benchmark
    public String ours() {
        return ours.get(call);
    }

    /**
     * The call's result.
     *
     * @return the call's result
     */
    @Benchmark
    public String resilience4j() {
        return resilience4j.executeSupplier(call);
    }

    /**
     * The call's result.
     *
     * @return the call's result
     */
    @Benchmark
    public Object failsafe() {
        return failsafe.get(checkedCall);
    }
}
