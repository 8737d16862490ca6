package dev.breaker.testsupport;

import java.lang.management.ManagementFactory;

/**
 * What a path allocates per call, by the JVM's per-thread allocation counter
 * ({@code com.sun.management.ThreadMXBean}, readable on the class path): the allocation tests of
 * every module measure the same way.
 */
public final class Allocations {

    /** Calls in the warm-up and in each measurement. */
    public static final int CALLS = 200_000;

    /** Measurements of each path; the least is the answer (see {@link #bytesPerCall}). */
    public static final int ROUNDS = 3;

    private Allocations() {}

    /**
     * Bytes allocated per call on this thread: the least of {@value #ROUNDS} measurements of
     * {@value #CALLS} calls each, after a warm-up of as many. An allocation per call shows in every
     * round; a stray one-off (the JIT's, while it compiles the path a round runs) in one round only.
     *
     * @param oneCall the path, once; it runs {@code (1 + ROUNDS) * CALLS} times
     * @return the least bytes per call of the rounds
     */
    public static double bytesPerCall(Runnable oneCall) {
        for (int i = 0; i < CALLS; i++) {
            oneCall.run(); // warm-up: let the JIT compile the path
        }
        double least = Double.MAX_VALUE;
        for (int round = 0; round < ROUNDS; round++) {
            long before = allocatedBytes();
            for (int i = 0; i < CALLS; i++) {
                oneCall.run();
            }
            least = Math.min(least, (double) (allocatedBytes() - before) / CALLS);
        }
        return least;
    }

    private static long allocatedBytes() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean())
                .getThreadAllocatedBytes(Thread.currentThread().getId());
    }
}
