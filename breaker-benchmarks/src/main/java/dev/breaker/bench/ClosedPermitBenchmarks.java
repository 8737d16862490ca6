package dev.breaker.bench;

import dev.breaker.CircuitBreaker;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The happy path through the permit API: a closed breaker shared by all benchmark threads, ask
 * for permission, record a success. One method per library, same window shape per run.
 *
 * <p>Run: {@code breaker-benchmarks/run} (or {@code java -jar breaker-benchmarks/target/benchmarks.jar
 * ClosedPermit -t 2 -prof gc}).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ClosedPermitBenchmarks {

    /** Our breaker. */
    @State(Scope.Benchmark)
    public static class Ours {
        @Param({"CONSECUTIVE", "COUNT_100", "TIME_10S"})
        Subjects.Shape shape;

        CircuitBreaker breaker;

        /** Builds the breaker. */
        @Setup
        public void setUp() {
            breaker = Subjects.ours(shape, false);
        }
    }

    /** Resilience4j's breaker. */
    @State(Scope.Benchmark)
    public static class Resilience4j {
        @Param({"CONSECUTIVE", "COUNT_100", "TIME_10S"})
        Subjects.Shape shape;

        io.github.resilience4j.circuitbreaker.CircuitBreaker breaker;

        /** Builds the breaker. */
        @Setup
        public void setUp() {
            breaker = Subjects.resilience4j(shape, false);
        }
    }

    /** Failsafe's breaker. */
    @State(Scope.Benchmark)
    public static class Failsafe {
        @Param({"CONSECUTIVE", "COUNT_100", "TIME_10S"})
        Subjects.Shape shape;

        dev.failsafe.CircuitBreaker<Object> breaker;

        /** Builds the breaker. */
        @Setup
        public void setUp() {
            breaker = Subjects.failsafe(shape, false);
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

    /**
     * One call, measured.
     *
     * @param s state
     * @return whether granted
     */
    @Benchmark
    public boolean failsafe(Failsafe s) {
        if (s.breaker.tryAcquirePermit()) {
            s.breaker.recordSuccess();
            return true;
        }
        return false;
    }
}
