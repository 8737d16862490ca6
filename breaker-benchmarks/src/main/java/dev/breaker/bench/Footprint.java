package dev.breaker.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * Retained heap per breaker, ours against Resilience4j's and Failsafe's, for the count window of
 * 100 and the time window of 10 s in 10 buckets. Each breaker first records one outcome in every
 * bucket or slot it will ever fill (the steady state: our time buckets are made lazily). Method:
 * hold {@value #COUNT} breakers, collect garbage, and divide the growth of the used heap.
 *
 * <p>Run: {@code java -cp breaker-benchmarks/target/benchmarks.jar dev.breaker.bench.Footprint}
 */
public final class Footprint {

    private static final int COUNT = 20_000;
    /** The test's own holder per window: an Object[2] (24 B), a long[1] (24 B) and the ticker lambda (16 B). */
    private static final long HOLDER_BYTES = 64;
    /** Threads that record into each window of the "contended" rows, so that each makes its stripe. */
    private static final int CONTENDERS = 4;

    private Footprint() {}

    /**
     * Measures and prints a Markdown table.
     *
     * @param args ignored
     */
    public static void main(String[] args) {
        System.out.println("| breaker | dev.breaker | Resilience4j | Failsafe |");
        System.out.println("|---|---:|---:|---:|");
        for (Subjects.Shape shape : Subjects.MEASURED) {
            long ours = perObject(() -> {
                long[] now = {0};
                dev.breaker.CircuitBreaker b = Subjects.ours(shape, false, () -> now[0]);
                fill(() -> {
                    b.tryAcquire().onSuccess(0);
                    now[0] += 100_000_000L; // 100 records over 10 s: every 1 s bucket of the time window is made
                });
                return new Object[] {b, now};
            });
            long r4j = perObject(() -> {
                io.github.resilience4j.circuitbreaker.CircuitBreaker b = Subjects.resilience4j(shape, false);
                fill(() -> b.onSuccess(0, java.util.concurrent.TimeUnit.NANOSECONDS));
                return b;
            });
            long failsafe = perObject(() -> {
                dev.failsafe.CircuitBreaker<Object> b = Subjects.failsafe(shape, false);
                fill(b::recordSuccess);
                return b;
            });
            System.out.printf(Locale.ROOT, "| %s | %d B | %d B | %d B |%n", shape, ours, r4j, failsafe);
        }
        System.out.println();
        System.out.println("| window alone (dev.breaker) | bytes |");
        System.out.println("|---|---:|");
        for (Subjects.Shape shape : Subjects.MEASURED) {
            dev.breaker.spi.WindowFactory factory = Subjects.window(shape);
            System.out.printf(
                    Locale.ROOT, "| %s: %s | %d B |%n", shape, factory.describe(), windowBytes(factory, null));
        }
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(CONTENDERS);
        try {
            for (Subjects.Shape shape : Subjects.MEASURED) {
                COLLIDED.set(0);
                CONTENDED_WINDOWS.set(0);
                long bytes = windowBytes(Subjects.window(shape), pool);
                String collided = CONTENDED_WINDOWS.get() == 0
                        ? ""
                        : String.format(Locale.ROOT, " (%d of %d collided)", COLLIDED.get(), CONTENDED_WINDOWS.get());
                System.out.printf(
                        Locale.ROOT, "| %s after %d threads recorded%s | %d B |%n", shape, CONTENDERS, collided, bytes);
            }
        } finally {
            pool.shutdown();
        }
        System.out.println();
        System.out.println(
                "(The breaker figures of dev.breaker include the test's holder and fake ticker, about 64 B; the "
                        + "window figures do not. A rate window makes a buffer stripe for each thread that records into it, "
                        + "at a fixed stripe per thread, at most "
                        + 2 * Runtime.getRuntime().availableProcessors()
                        + " stripes on this machine: the last rows show what contention adds.)");
    }

    /** A filled window's retained bytes, less the holder; when {@code pool} is given, after its threads recorded too. */
    private static long windowBytes(dev.breaker.spi.WindowFactory factory, java.util.concurrent.ExecutorService pool) {
        return perObject(() -> {
                    long[] now = {0};
                    dev.breaker.spi.Window w = factory.create(() -> now[0]);
                    fill(() -> {
                        w.record(false, false);
                        now[0] += 100_000_000L;
                    });
                    if (pool != null) {
                        recordFromEveryThread(pool, w);
                    }
                    return new Object[] {w, now};
                })
                - HOLDER_BYTES;
    }

    /** Windows of the "contended" rows that saw threads collide (they buffered), and all of them. */
    private static final java.util.concurrent.atomic.AtomicLong COLLIDED = new java.util.concurrent.atomic.AtomicLong();

    private static final java.util.concurrent.atomic.AtomicLong CONTENDED_WINDOWS =
            new java.util.concurrent.atomic.AtomicLong();

    /**
     * Each pooled thread records successes into the window at once until the window has seen two
     * threads collide (a rate window then buffers, and makes what contention needs: its stripes,
     * a time window's count of successes), at most 100,000 each, then 200 more, so that the
     * stripes of all of them are made. A window of another kind gets the 200 only.
     */
    private static void recordFromEveryThread(java.util.concurrent.ExecutorService pool, dev.breaker.spi.Window w) {
        java.util.List<java.util.concurrent.Callable<Boolean>> tasks = new java.util.ArrayList<>();
        java.util.concurrent.CyclicBarrier together = new java.util.concurrent.CyclicBarrier(CONTENDERS);
        dev.breaker.spi.CombiningWindow rate = w instanceof dev.breaker.spi.CombiningWindow c ? c : null;
        for (int i = 0; i < CONTENDERS; i++) {
            tasks.add(() -> {
                together.await();
                boolean tripped = false;
                for (int n = 0; rate != null && n < 100_000 && !rate.isBuffering(); n++) {
                    tripped |= w.record(false, false);
                }
                for (int n = 0; n < 200; n++) {
                    tripped |= w.record(false, false);
                }
                return tripped;
            });
        }
        try {
            pool.invokeAll(tasks);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (rate != null) {
            CONTENDED_WINDOWS.incrementAndGet();
            if (rate.isBuffering()) {
                COLLIDED.incrementAndGet();
            }
        }
    }

    /** Records 100 outcomes: enough to fill a ring of 100. */
    private static void fill(Runnable record) {
        for (int i = 0; i < 100; i++) {
            record.run();
        }
    }

    private static long perObject(Supplier<Object> make) {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        for (int i = 0; i < 1_000; i++) {
            make.get(); // warm up and load classes
        }
        Object[] keep = new Object[COUNT];
        settle();
        long before = memory.getHeapMemoryUsage().getUsed();
        for (int i = 0; i < COUNT; i++) {
            keep[i] = make.get();
        }
        settle();
        long after = memory.getHeapMemoryUsage().getUsed();
        if (keep[COUNT - 1] == null) {
            throw new AssertionError();
        }
        return (after - before) / COUNT;
    }

    private static void settle() {
        for (int i = 0; i < 4; i++) {
            System.gc();
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
