package dev.breaker.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.breaker.spi.CombiningWindowTests.Pausing;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
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
        ExecutorService pool = virtualThreads();
        try {
            Pausing window = new Pausing(Integer.MAX_VALUE);
            CountDownLatch leave = new CountDownLatch(1);
            Future<Boolean> holder = window.holdTheLock(pool, leave); // blocked inside its hold: unmounted
            List<Future<WindowCounts>> readers = new ArrayList<>();
            for (int i = 0; i < WAITERS; i++) {
                readers.add(pool.submit(window::counts));
            }
            giveTheWaitersTheCarriers();
            leave.countDown();
            assertEquals(false, holder.get(20, TimeUnit.SECONDS));
            for (Future<WindowCounts> r : readers) {
                assertEquals(new WindowCounts(1, 0, 0), r.get(20, TimeUnit.SECONDS), "each reader, after the hold");
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void interruptedReadersWaitingForAnUnmountedWriterLetItFinishAndKeepTheirInterrupt() throws Exception {
        ExecutorService pool = virtualThreads();
        try {
            Pausing window = new Pausing(Integer.MAX_VALUE);
            CountDownLatch leave = new CountDownLatch(1);
            Future<Boolean> holder = window.holdTheLock(pool, leave);
            List<Future<Boolean>> readers = new ArrayList<>();
            for (int i = 0; i < WAITERS; i++) {
                readers.add(pool.submit(() -> {
                    Thread.currentThread().interrupt(); // a park returns at once for an interrupted thread
                    WindowCounts c = window.counts();
                    return c.calls() == 1 && Thread.currentThread().isInterrupted();
                }));
            }
            giveTheWaitersTheCarriers();
            leave.countDown();
            assertEquals(false, holder.get(20, TimeUnit.SECONDS));
            for (Future<Boolean> r : readers) {
                assertEquals(true, r.get(20, TimeUnit.SECONDS), "read after the hold, still interrupted");
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void recordersWaitingForAnUnmountedReaderLetItFinish() throws Exception {
        ExecutorService pool = virtualThreads();
        try {
            Pausing window = new Pausing(Integer.MAX_VALUE);
            CountDownLatch leave = new CountDownLatch(1);
            Future<WindowCounts> reader = window.holdTheReadLock(pool, leave); // unmounted while it reads
            List<Future<Boolean>> recorders = new ArrayList<>();
            for (int i = 0; i < WAITERS; i++) {
                recorders.add(pool.submit(() -> window.record(true, false)));
            }
            giveTheWaitersTheCarriers();
            leave.countDown();
            assertEquals(new WindowCounts(0, 0, 0), reader.get(20, TimeUnit.SECONDS));
            for (Future<Boolean> r : recorders) {
                assertEquals(false, r.get(20, TimeUnit.SECONDS));
            }
            assertEquals(new WindowCounts(WAITERS, WAITERS, 0), window.counts(), "every failure applied once");
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
