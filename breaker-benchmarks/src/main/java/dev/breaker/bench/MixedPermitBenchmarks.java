package dev.breaker.bench;

import dev.breaker.CircuitBreaker;
import dev.breaker.Permit;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Real traffic through the permit API: a closed breaker shared by all benchmark threads, with a
 * slow-call threshold, fed a mix of successes, failures and slow calls whose rates stay below the
 * thresholds (50% failures, 100% slow calls), so the breaker stays closed. Each thread replays
 * its own fixed pattern, spread evenly so that no interleaving of the threads' patterns reaches
 * a threshold:
 * <ul>
 * <li>{@code HEALTHY}: 2% failures, 2% slow;</li>
 * <li>{@code NOISY}: 10% failures, 10% slow;</li>
 * <li>{@code SLOW}: 5% failures, 30% slow;</li>
 * <li>{@code FAILING_40}: 40% failures (at a 50% threshold), 5% slow.</li>
 * </ul>
 * Two more mixes, outside the default run, check that the design is not tuned to evenly spread
 * outcomes (pass them with {@code -p mix=...}, and other window sizes with {@code -p shape=...},
 * see {@link Subjects.Shape}):
 * <ul>
 * <li>{@code RANDOM}: 8% failures and 8% slow calls, each drawn independently (a fixed seed per
 *     thread, a pattern of 1,000 outcomes);</li>
 * <li>{@code BURSTS}: 10% failures and 10% slow calls, each in bursts of 5 in a row.</li>
 * </ul>
 * Failsafe has no slow-call rate: it sees the failures only.
 *
 * <p>Run: {@code breaker-benchmarks/run 1 3 5 1 Mixed} (or {@code java -jar
 * breaker-benchmarks/target/benchmarks.jar MixedPermit -t 2 -prof gc}).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class MixedPermitBenchmarks {

    /** The slow-call threshold of every breaker here; a slow outcome reports twice as long. */
    static final Duration SLOW = Duration.ofSeconds(1);

    private static final long FAST_NANOS = 1_000_000L;
    private static final long SLOW_NANOS = 2 * SLOW.toNanos();

    /** The traffic mixes, as JMH parameter values. */
    public enum Mix {
        HEALTHY(2, 2, 1),
        NOISY(10, 10, 1),
        SLOW(5, 30, 1),
        FAILING_40(40, 5, 1),
        RANDOM(8, 8, 0),
        BURSTS(10, 10, 5);

        final int failurePercent;
        final int slowPercent;
        /** Outcomes of a kind in a row (1: spread evenly), or 0 for independent draws. */
        final int burst;

        Mix(int failurePercent, int slowPercent, int burst) {
            this.failurePercent = failurePercent;
            this.slowPercent = slowPercent;
            this.burst = burst;
        }

        /**
         * A thread's pattern of outcomes with these percentages: evenly spread (outcome i fails
         * when the running share of failures falls behind the target), in bursts, or drawn.
         */
        boolean[][] pattern(int offset) {
            if (burst == 0) {
                java.util.SplittableRandom random = new java.util.SplittableRandom(0x5eedL + offset);
                boolean[][] p = new boolean[1000][2];
                for (boolean[] o : p) {
                    o[0] = random.nextInt(100) < failurePercent;
                    o[1] = random.nextInt(100) < slowPercent;
                }
                return p;
            }
            int n = 100 * burst;
            boolean[][] p = new boolean[n][2];
            for (int i = 0; i < n; i++) {
                int k = (i / burst + offset) % 100;
                p[i][0] = spread(k, failurePercent);
                p[i][1] = spread((k + 37) % 100, slowPercent);
            }
            return p;
        }

        /** Whether position k of 100 is one of {@code percent} spread evenly over them. */
        private static boolean spread(int k, int percent) {
            return (k + 1) * percent / 100 > k * percent / 100;
        }
    }

    /** One thread's position in its pattern. */
    @State(Scope.Thread)
    public static class Traffic {
        boolean[][] pattern;
        int next;
        private static final java.util.concurrent.atomic.AtomicInteger THREADS =
                new java.util.concurrent.atomic.AtomicInteger();

        /**
         * Picks this thread's pattern.
         *
         * @param shared the mix in use
         */
        @Setup(Level.Trial)
        public void setUp(Shared shared) {
            pattern = shared.mix.pattern(THREADS.getAndIncrement() * 17);
        }

        boolean[] nextOutcome() {
            boolean[] o = pattern[next];
            next = next == pattern.length - 1 ? 0 : next + 1;
            return o;
        }
    }

    /** The mix and the breakers, shared by all threads. */
    @State(Scope.Benchmark)
    public static class Shared {
        @Param({"COUNT_100", "TIME_10S"})
        Subjects.Shape shape;

        @Param({"HEALTHY", "NOISY", "SLOW", "FAILING_40"})
        Mix mix;

        CircuitBreaker ours;
        io.github.resilience4j.circuitbreaker.CircuitBreaker resilience4j;
        dev.failsafe.CircuitBreaker<Object> failsafe;

        /** Builds the breakers. */
        @Setup(Level.Trial)
        public void setUp() {
            ours = Subjects.ours(shape, false, SLOW);
            resilience4j = Subjects.resilience4j(shape, false, SLOW);
            failsafe = Subjects.failsafe(shape, false);
        }

        /** A run that tripped measured rejections, not traffic: refuse it. */
        @TearDown(Level.Trial)
        public void checkStillClosed() {
            if (ours.state() != dev.breaker.State.CLOSED
                    || resilience4j.getState() != io.github.resilience4j.circuitbreaker.CircuitBreaker.State.CLOSED
                    || failsafe.isOpen()) {
                throw new IllegalStateException("a breaker tripped under " + mix + ": " + ours.state() + ", "
                        + resilience4j.getState() + ", failsafe open=" + failsafe.isOpen());
            }
        }
    }

    /**
     * One call, measured.
     *
     * @param s shared
     * @param t traffic
     * @return whether granted
     */
    @Benchmark
    public boolean ours(Shared s, Traffic t) {
        boolean[] o = t.nextOutcome();
        Permit permit = s.ours.tryAcquire();
        if (!permit.granted()) {
            return false;
        }
        long nanos = o[1] ? SLOW_NANOS : FAST_NANOS;
        if (o[0]) {
            permit.onFailure(nanos, null);
        } else {
            permit.onSuccess(nanos);
        }
        return true;
    }

    private static final IllegalStateException FAILURE = new IllegalStateException("down");

    /**
     * One call, measured.
     *
     * @param s shared
     * @param t traffic
     * @return whether granted
     */
    @Benchmark
    public boolean resilience4j(Shared s, Traffic t) {
        boolean[] o = t.nextOutcome();
        if (!s.resilience4j.tryAcquirePermission()) {
            return false;
        }
        long nanos = o[1] ? SLOW_NANOS : FAST_NANOS;
        if (o[0]) {
            s.resilience4j.onError(nanos, TimeUnit.NANOSECONDS, FAILURE);
        } else {
            s.resilience4j.onSuccess(nanos, TimeUnit.NANOSECONDS);
        }
        return true;
    }

    /**
     * One call, measured.
     *
     * @param s shared
     * @param t traffic
     * @return whether granted
     */
    @Benchmark
    public boolean failsafe(Shared s, Traffic t) {
        boolean[] o = t.nextOutcome();
        if (!s.failsafe.tryAcquirePermit()) {
            return false;
        }
        if (o[0]) {
            s.failsafe.recordFailure();
        } else {
            s.failsafe.recordSuccess();
        }
        return true;
    }
}
