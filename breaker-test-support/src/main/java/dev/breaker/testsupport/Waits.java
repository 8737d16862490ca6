package dev.breaker.testsupport;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Waits of the tests that must end: each gives up after 20 s, so a test that a fault deadlocks
 * fails rather than hangs, and a failure inside a task is rethrown as the test's.
 */
public final class Waits {

    /** How long a wait gives up after. */
    public static final long SECONDS = 20;

    private Waits() {}

    /**
     * The task's result.
     *
     * @param f the task
     * @param <T> its result's type
     * @return its result
     * @throws IllegalStateException with the task's failure as its cause, or when it took 20 s
     */
    public static <T> T get(Future<T> f) {
        try {
            return f.get(SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException | TimeoutException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Waits until the latch opens.
     *
     * @param l the latch
     * @throws IllegalStateException when it did not open in 20 s
     */
    public static void await(CountDownLatch l) {
        try {
            if (!l.await(SECONDS, TimeUnit.SECONDS)) {
                throw new IllegalStateException("waited " + SECONDS + " s");
            }
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
