package dev.breaker.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.breaker.spi.CombiningWindowTests.Pausing;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;

/**
 * A thread that waits for {@link CombiningWindow}'s lock spins a little, then yields. On Java 21+
 * that yield is what keeps the window live when its callers are virtual threads: a holder whose
 * hold blocks (a subclass that waits for something, a reader's {@code before} step) is unmounted
 * from its carrier, and if every carrier were taken by a waiter that only spins, the holder could
 * never be mounted again to finish its hold. Here more virtual threads than there are carriers
 * wait for a holder that is unmounted, then the holder is let go: every one of them must finish.
 * (Runs where virtual threads exist; CI runs the suite on JDK 25 too.)
 */
class CombiningWindowVirtualThreadTests {

    /** More waiters than the virtual-thread scheduler has carriers (one per processor by default). */
    private static final int WAITERS = 4 * Runtime.getRuntime().availableProcessors();

    private static ExecutorService virtualThreads() throws ReflectiveOperationException {
        assumeTrue(Runtime.version().feature() >= 21, "virtual threads need Java 21");
        return (ExecutorService) java.util.concurrent.Executors.class
                .getMethod("newVirtualThreadPerTaskExecutor")
                .invoke(null);
    }

    @Test
    void readersWaitingForAnUnmountedWriterLetItFinish() throws Exception {
        Pausing window = new Pausing(Integer.MAX_VALUE);
        waitForAnUnmountedHolder(
                window::holdTheLock, // blocked inside its hold: unmounted
                false,
                window::counts,
                new WindowCounts(1, 0, 0),
                "each reader, after the hold");
    }

    @Test
    void interruptedReadersWaitingForAnUnmountedWriterLetItFinishAndKeepTheirInterrupt() throws Exception {
        Pausing window = new Pausing(Integer.MAX_VALUE);
        waitForAnUnmountedHolder(
                window::holdTheLock,
                false,
                () -> {
                    Thread.currentThread().interrupt(); // a park returns at once for an interrupted thread
                    WindowCounts c = window.counts();
                    return c.calls() == 1 && Thread.currentThread().isInterrupted();
                },
                true,
                "read after the hold, still interrupted");
    }

    @Test
    void recordersWaitingForAnUnmountedReaderLetItFinish() throws Exception {
        Pausing window = new Pausing(Integer.MAX_VALUE);
        waitForAnUnmountedHolder(
                window::holdTheReadLock, // unmounted while it reads
                new WindowCounts(0, 0, 0),
                () -> window.record(true, false),
                false,
                null);
        assertEquals(new WindowCounts(WAITERS, WAITERS, 0), window.counts(), "every failure applied once");
    }

    /**
     * A count window's mode: successes wait as runs and failures as entries while a recorder's
     * hold is unmounted, or spin briefly for its budgets and then wait for the lock; none is lost
     * or applied twice once the holder is let go.
     */
    @Test
    void recordersOfRunsWaitingForAnUnmountedWriterLetItFinishAndNoneIsLost() throws Exception {
        Pausing window = new Pausing(Integer.MAX_VALUE, true);
        java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
        waitForAnUnmountedHolder(
                window::holdTheLock, // unmounted while it applies its own success
                false,
                () -> window.record(calls.getAndIncrement() % 3 == 0, false),
                false,
                null);
        assertEquals(
                new WindowCounts(WAITERS + 1, (WAITERS + 2) / 3, 0),
                window.counts(),
                "the holder's success and every waiter's outcome, once");
    }

    /**
     * Starts a holder that stays inside its hold (unmounted) until let go, then {@link #WAITERS}
     * virtual threads that each run {@code waiter}, which waits for the lock; lets the holder go,
     * and checks what the holder and every waiter returned.
     */
    private static <H, W> void waitForAnUnmountedHolder(
            BiFunction<ExecutorService, CountDownLatch, Future<H>> hold,
            H held,
            Callable<W> waiter,
            W waited,
            String what)
            throws Exception {
        ExecutorService pool = virtualThreads();
        try {
            CountDownLatch leave = new CountDownLatch(1);
            Future<H> holder = hold.apply(pool, leave);
            List<Future<W>> waiters = new ArrayList<>();
            for (int i = 0; i < WAITERS; i++) {
                waiters.add(pool.submit(waiter));
            }
            giveTheWaitersTheCarriers();
            leave.countDown();
            assertEquals(held, holder.get(20, TimeUnit.SECONDS));
            for (Future<W> w : waiters) {
                assertEquals(waited, w.get(20, TimeUnit.SECONDS), what);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Lets the waiters reach their wait before the holder is let go. Not needed for the outcome,
     * which must be the same at any moment; it gives a waiter that never yields the chance to
     * keep every carrier.
     */
    private static void giveTheWaitersTheCarriers() throws InterruptedException {
        Thread.sleep(200);
    }
}
