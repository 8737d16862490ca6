package dev.breaker.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;

/** For race tests: threads released together by a barrier, each running a body, all joined. */
public final class Released {

    private Released() {}

    /**
     * Starts {@code threads} threads that wait at one barrier, releases them together, waits for
     * all of them, and rethrows the first failure of any (a thread's failed assertion is not lost).
     *
     * @param threads how many
     * @param body    what each runs, given its index
     * @throws Exception when waiting is interrupted
     */
    public static void run(int threads, IntConsumer body) throws Exception {
        CyclicBarrier start = new CyclicBarrier(threads + 1);
        AtomicReference<Throwable> failed = new AtomicReference<>();
        List<Thread> all = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int index = t;
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                    body.accept(index);
                } catch (Throwable e) {
                    failed.compareAndSet(null, e);
                }
            });
            thread.start();
            all.add(thread);
        }
        start.await();
        for (Thread thread : all) {
            thread.join();
        }
        Throwable e = failed.get();
        if (e != null) {
            throw new AssertionError("a released thread failed", e);
        }
    }
}
