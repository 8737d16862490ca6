package dev.breaker.bench;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
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
 * read plus a {@code LongAdder} increment (about the least a shared recorder can do), an
 * uncontended try-lock taken and released (one compare-and-set and a release store: the least a
 * window that keeps exact state under one writer pays for an outcome it must write), and one
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

    @SuppressWarnings("unused") // accessed through LOCK
    private volatile int lock;

    private int guarded;

    private static final VarHandle LOCK;

    static {
        try {
            LOCK = MethodHandles.lookup().findVarHandle(FloorBenchmarks.class, "lock", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * The supplier's value.
     *
     * @return the supplier's value
     */
    @Benchmark
    public String noOpSupplier() {
        return call.get();
    }

    /**
     * The value read.
     *
     * @return the value read
     */
    @Benchmark
    public int volatileReadAndLongAdder() {
        int s = state;
        adder.increment();
        return s;
    }

    /**
     * The guarded counter.
     *
     * @return the guarded counter
     */
    @Benchmark
    public int uncontendedTryLock() {
        if (LOCK.compareAndSet(this, 0, 1)) {
            int g = ++guarded;
            LOCK.setRelease(this, 0);
            return g;
        }
        return -1;
    }

    /**
     * The time.
     *
     * @return the time
     */
    @Benchmark
    public long nanoTime() {
        return System.nanoTime();
    }
}
