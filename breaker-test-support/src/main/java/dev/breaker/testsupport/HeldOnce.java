package dev.breaker.testsupport;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.IntConsumer;

/**
 * Holds one chosen thread, once, where it calls {@link #holdIfTarget()} (a race point, a plugin
 * method of the test's), until the test lets it go; any other thread passes. Every wait gives up
 * after 20 s, so a test that a fault deadlocks fails rather than hangs.
 */
public final class HeldOnce {
    private volatile Thread target;
    private final String where;
    private final CountDownLatch inside = new CountDownLatch(1);
    private final CountDownLatch leave = new CountDownLatch(1);

    /**
     * @param target the thread to hold
     * @param where  what the place is, for a failure's message
     */
    public HeldOnce(Thread target, String where) {
        this.target = target;
        this.where = where;
    }

    /**
     * The thread that runs {@code ex}'s tasks.
     *
     * @param ex a single-thread executor
     * @return its thread
     */
    public static Thread threadOf(ExecutorService ex) {
        return Waits.get(ex.submit(Thread::currentThread));
    }

    /**
     * Holds {@code target} once at a race point, until it is let go.
     *
     * @param install installs the handler every race point calls ({@code Races::handle})
     * @param point   the point
     * @param target  the thread to hold
     * @return the hold
     */
    public static HeldOnce atPoint(Consumer<IntConsumer> install, int point, Thread target) {
        HeldOnce held = new HeldOnce(target, "race point " + point);
        install.accept(p -> {
            if (p == point) {
                held.holdIfTarget();
            }
        });
        return held;
    }

    /** Called at the place: holds the target there the first time it comes. */
    public void holdIfTarget() {
        if (Thread.currentThread() == target) {
            target = null;
            inside.countDown();
            Waits.await(leave);
        }
    }

    /** Lets the held thread go on (or the target pass, should it not have come yet). */
    public void letGo() {
        leave.countDown();
    }

    /**
     * Waits until the target is held; fails at once should the target's work end without reaching
     * the place.
     *
     * @param work what the target runs to reach the place
     */
    public void reachedBy(Future<?> work) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Waits.SECONDS);
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
