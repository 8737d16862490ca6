package dev.breaker.bench;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * Floors to read the other rows against: a bare supplier call (what a breaker wraps), a volatile
 * read plus a {@code LongAdder} increment (about the least a shared recorder can do), and one
 * {@code System.nanoTime()} (half of what timing a call costs).
 *
 * <p>Run: {@code breaker-benchmarks/run}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Benchmark)
public class FloorBenchmarks {

    private final Supplier<String> call = () -> "answer";
    private final LongAdder adder = new LongAdder();
    private volatile int state;

    /** @return the supplier's value */
    @Benchmark
    public String noOpSupplier() {
        return call.get();
    }

    /** @return the value read */
    @Benchmark
    public int volatileReadAndLongAdder() {
        int s = state;
        adder.increment();
        return s;
    }

    /** @return the time */
    @Benchmark
    public long nanoTime() {
        return System.nanoTime();
    }
}
