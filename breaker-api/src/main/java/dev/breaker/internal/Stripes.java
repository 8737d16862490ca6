package dev.breaker.internal;

/**
 * Where a thread's striped state lives: a fixed index per thread, from a hash of its id, among at
 * most twice the processors (a power of two, at most 64). Keyed by thread id, never by thread, so
 * millions of virtual threads share the same few stripes and cost no memory of their own; and a
 * thread never moves, which keeps its own updates in order.
 */
public final class Stripes {

    /** How many stripes there are at most: twice the processors, rounded up to a power of two, at most 64. */
    public static final int MAX =
            Math.min(64, Integer.highestOneBit(Math.max(1, Runtime.getRuntime().availableProcessors()) * 2 - 1) << 1);

    private Stripes() {}

    /**
     * The calling thread's stripe: the same number for the thread's whole life.
     *
     * @return 0 to {@link #MAX} - 1
     */
    public static int index() {
        @SuppressWarnings("deprecation") // threadId() is Java 19+; getId() is the same number
        long id = Thread.currentThread().getId();
        long h = id * 0x9E3779B97F4A7C15L;
        return (int) (h >>> 40) & (MAX - 1);
    }
}
