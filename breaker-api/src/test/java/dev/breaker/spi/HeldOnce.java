package dev.breaker.spi;

import static dev.breaker.spi.CombiningWindowTests.await;
import static dev.breaker.spi.CombiningWindowTests.get;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Holds one chosen thread, once, where it calls {@link #holdIfTarget()} (a race point, an add to
 * the totals), until the test lets it go; any other thread passes.
 */
final class HeldOnce {
    private volatile Thread target;
    private final String where;
    private final CountDownLatch inside = new CountDownLatch(1);
    private final CountDownLatch leave = new CountDownLatch(1);

    /**
     * @param target the thread to hold
     * @param where  what the place is, for a failure's message
     */
    HeldOnce(Thread target, String where) {
        this.target = target;
        this.where = where;
    }

    /** The thread that runs {@code ex}'s tasks (a single-thread executor). */
    static Thread threadOf(ExecutorService ex) {
        return get(ex.submit(Thread::currentThread));
    }

    /** Called at the place: holds the target there the first time it comes. */
    void holdIfTarget() {
        if (Thread.currentThread() == target) {
            target = null;
            inside.countDown();
            await(leave);
        }
    }

    void letGo() {
        leave.countDown();
    }

    /**
     * Waits until the target is held; fails at once should the target's work end without reaching
     * the place.
     */
    void reachedBy(Future<?> work) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        try {
            while (!inside.await(10, TimeUnit.MILLISECONDS)) {
                if (work.isDone()) {
                    throw new AssertionError("the thread never reached " + where);
                }
                if (System.nanoTime() - deadline > 0) {
                    throw new AssertionError("the thread did not reach " + where + " in 20 s");
                }
            }
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
