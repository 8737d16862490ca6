package dev.breaker.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.management.ThreadMXBean;
import dev.breaker.Ticker;
import dev.breaker.spi.Window;
import dev.breaker.spi.WindowCounts;
import dev.breaker.spi.WindowFactory;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The contract every {@link Window} keeps, as one abstract test class that each implementation
 * extends (like Micrometer's compatibility kit). Shipped in {@code breaker-tck}.
 *
 * <p>The subclass supplies the factory and its window's rule as a naive oracle over a list of
 * outcomes recorded at one instant; the kit checks the window against the oracle for random
 * sequences, keeps its counts consistent, checks exact counts after many threads record at once,
 * and that recording a healthy stream allocates nothing once warm.
 */
public abstract class WindowContract {

    /** For subclasses. */
    protected WindowContract() {}

    /**
     * One recorded outcome.
     *
     * @param failure whether it failed
     * @param slow    whether it was slow
     */
    public record Recorded(boolean failure, boolean slow) {

        /**
         * The counts of the last {@code size} of {@code outcomes} (all of them when there are
         * fewer): what a window of the last {@code size} outcomes, or a window that keeps every
         * outcome while time stands still ({@code Integer.MAX_VALUE}), holds after them. A
         * convenience for oracles; the rule itself is each window's own.
         *
         * @param outcomes the outcomes in the order recorded
         * @param size     how many of the latest count, at least 1
         * @return the calls, failures and slow calls among them
         */
        public static WindowCounts countsOfLast(List<Recorded> outcomes, int size) {
            List<Recorded> last = outcomes.subList(Math.max(0, outcomes.size() - size), outcomes.size());
            long failures = 0;
            long slowCalls = 0;
            for (Recorded r : last) {
                failures += r.failure() ? 1 : 0;
                slowCalls += r.slow() ? 1 : 0;
            }
            return new WindowCounts(last.size(), failures, slowCalls);
        }
    }

    /**
     * The ticker the windows are made with; time stands still unless a subclass says otherwise.
     *
     * @return the ticker
     */
    protected Ticker ticker() {
        return () -> 0L;
    }

    /**
     * The window factory under test.
     *
     * @return the factory
     */
    protected abstract WindowFactory factory();

    /**
     * The oracle: whether a fresh window trips right after recording {@code outcomes} in order.
     *
     * @param outcomes recorded at one instant
     * @return the expected answer of the last {@code record}
     */
    protected abstract boolean tripsAfter(List<Recorded> outcomes);

    /**
     * The oracle: the counts of a fresh window after recording {@code outcomes} in order.
     *
     * @param outcomes recorded at one instant
     * @return the expected counts
     */
    protected abstract WindowCounts countsAfter(List<Recorded> outcomes);

    /**
     * A new window holds nothing.
     */
    @Example
    public void freshWindowIsEmpty() {
        assertEquals(WindowCounts.empty(), factory().create(ticker()).counts());
    }

    /**
     * Windows from one factory share no state.
     */
    @Example
    public void factoryMakesIndependentWindows() {
        WindowFactory f = factory();
        Window a = f.create(ticker());
        Window b = f.create(ticker());
        assertNotSame(a, b);
        a.record(true, true);
        assertEquals(WindowCounts.empty(), b.counts());
    }

    /**
     * The factory has a description for logs and toString.
     */
    @Example
    public void describesItself() {
        assertFalse(factory().describe().isBlank());
    }

    /**
     * For random sequences, every trip answer and the final counts equal the oracle's.
     *
     * @param outcomes generated
     */
    @Property(tries = 200)
    public void followsItsOwnRule(@ForAll("outcomes") List<Recorded> outcomes) {
        Window window = factory().create(ticker());
        List<Recorded> prefix = new ArrayList<>();
        for (Recorded r : outcomes) {
            prefix.add(r);
            assertEquals(tripsAfter(prefix), window.record(r.failure(), r.slow()), "trip after " + prefix.size());
        }
        assertEquals(countsAfter(outcomes), window.counts());
    }

    /**
     * Recording at the ticker's own reading ({@link Window#recordAt}, which the breaker calls at
     * the end of a timed call) answers and counts as recording does. Since contract version 2.
     *
     * @param outcomes generated
     */
    @Property(tries = 50)
    public void recordingAtTheTickersReadingIsRecording(@ForAll("outcomes") List<Recorded> outcomes) {
        Window plain = factory().create(ticker());
        Window timed = factory().create(ticker());
        for (Recorded r : outcomes) {
            assertEquals(plain.record(r.failure(), r.slow()), timed.recordAt(r.failure(), r.slow(), ticker().read()));
        }
        assertEquals(plain.counts(), timed.counts());
    }

    /**
     * Whether {@link Window#record} allocates nothing once warm, on a healthy stream (the
     * {@code Window} javadoc's "should allocate nothing", SPEC rule 11): true by default. A
     * window that cannot avoid allocating answers false, and its users should hear why.
     *
     * @return whether the kit checks that recording allocates nothing
     */
    protected boolean recordAllocatesNothing() {
        return true;
    }

    /**
     * Recording a healthy stream (plain successes with a failure and a slow call in every 50, or
     * plain successes alone where the window trips on those), through {@link Window#record} and
     * {@link Window#recordAt} in turn, allocates nothing once warm: the least of 3 measurements of
     * 100,000 outcomes, after as many to warm up, is under 0.05 bytes per outcome, so a single
     * object per call shows (at least 16 bytes) and a one-off allocation of the JIT's does not.
     * Measured with the JVM's per-thread allocation counter, and skipped where it has none. Since
     * contract version 9 ({@link TckVersion}).
     */
    @Example
    public void recordingAHealthyStreamAllocatesNothing() {
        ThreadMXBean bean = allocationCounter();
        if (!recordAllocatesNothing() || bean == null) {
            return;
        }
        List<Recorded> pattern = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            pattern.add(new Recorded(i == 20, i == 40));
        }
        int outcomes = 100_000;
        Window window = factory().create(ticker());
        if (record(window, pattern.toArray(new Recorded[0]), outcomes)) { // warm-up: the JIT compiles the path
            pattern = List.of(new Recorded(false, false)); // its rule trips on these: successes alone
            window = factory().create(ticker());
            record(window, pattern.toArray(new Recorded[0]), outcomes);
        }
        Recorded[] stream = pattern.toArray(new Recorded[0]);
        double least = Double.MAX_VALUE;
        long id = Thread.currentThread().getId();
        for (int round = 0; round < 3; round++) {
            long before = bean.getThreadAllocatedBytes(id);
            record(window, stream, outcomes);
            long after = bean.getThreadAllocatedBytes(id);
            if (before < 0 || after < 0) {
                return; // no counter for this thread (a virtual thread, say)
            }
            least = Math.min(least, (double) (after - before) / outcomes);
        }
        assertTrue(
                least < 0.05,
                factory().describe() + " allocated " + least + " bytes per recorded outcome at least, "
                        + "on a healthy stream once warm");
    }

    /** The JVM's per-thread allocation counter, or null where there is none. */
    private static ThreadMXBean allocationCounter() {
        try {
            return ManagementFactory.getThreadMXBean() instanceof ThreadMXBean bean
                            && bean.isThreadAllocatedMemorySupported()
                            && bean.isThreadAllocatedMemoryEnabled()
                    ? bean
                    : null;
        } catch (LinkageError noManagement) { // a runtime without jdk.management, on the class path
            return null;
        }
    }

    /** Records the stream's outcomes in turn, every other one at the ticker's reading; whether any answered "trip". */
    private boolean record(Window window, Recorded[] stream, int outcomes) {
        Ticker ticker = ticker();
        boolean tripped = false;
        for (int i = 0; i < outcomes; i++) {
            Recorded r = stream[i % stream.length];
            tripped |= (i & 1) == 0
                    ? window.record(r.failure(), r.slow())
                    : window.recordAt(r.failure(), r.slow(), ticker.read());
        }
        return tripped;
    }

    /**
     * Random sequences of up to 300 outcomes, failure- and slow-heavy.
     *
     * @return the arbitrary
     */
    @Provide
    public Arbitrary<List<Recorded>> outcomes() {
        Arbitrary<Recorded> one = Combinators.combine(
                        Arbitraries.integers().between(0, 9).map(i -> i < 4),
                        Arbitraries.integers().between(0, 9).map(i -> i < 3))
                .as(Recorded::new);
        return one.list().ofMaxSize(300);
    }

    /**
     * Failures recorded by four threads at once are counted exactly.
     *
     * @throws Exception when a thread fails
     */
    @Example
    public void concurrentFailuresAreCountedExactly() throws Exception {
        recordFromManyThreads(new Recorded(true, false));
    }

    /**
     * Slow successes recorded by four threads at once are counted exactly.
     *
     * @throws Exception when a thread fails
     */
    @Example
    public void concurrentSlowSuccessesAreCountedExactly() throws Exception {
        recordFromManyThreads(new Recorded(false, true));
    }

    /** Four threads record {@code perThread} copies of one outcome at once; the result cannot depend on order. */
    private void recordFromManyThreads(Recorded outcome) throws Exception {
        int threads = 4;
        int perThread = 2_000;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            for (int round = 0; round < 20; round++) {
                Window window = factory().create(ticker());
                CyclicBarrier start = new CyclicBarrier(threads);
                AtomicBoolean tripped = new AtomicBoolean();
                List<Future<?>> done = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    done.add(pool.submit(() -> {
                        start.await(10, TimeUnit.SECONDS);
                        for (int i = 0; i < perThread; i++) {
                            if (window.record(outcome.failure(), outcome.slow())) {
                                tripped.set(true);
                            }
                        }
                        return null;
                    }));
                }
                for (Future<?> f : done) {
                    f.get(30, TimeUnit.SECONDS);
                }
                List<Recorded> all = Collections.nCopies(threads * perThread, outcome);
                assertEquals(countsAfter(all), window.counts(), "round " + round);
                if (tripsAfter(all)) {
                    assertTrue(tripped.get(), "some record must have reported the trip");
                }
            }
        } finally {
            pool.shutdownNow();
            assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
        }
    }
}
