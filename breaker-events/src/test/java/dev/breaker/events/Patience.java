package dev.breaker.events;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * How long a test waits for something that should happen at once (an event delivered, a thread
 * reaching a point) before it fails: 10 s, or the ISO-8601 duration in the system property
 * {@value #PROPERTY}.
 *
 * <p>The mutation profile sets 1 s. A mutant that stops delivery then fails its test within a
 * second, as a kill, instead of running into PIT's time limit, which costs a test JVM restarted
 * for every such mutant. Waits for floods of events keep their own, longer limits.
 */
final class Patience {

    /** The system property: {@code breaker.test.patience}. */
    static final String PROPERTY = "breaker.test.patience";

    private static final long NANOS =
            Duration.parse(System.getProperty(PROPERTY, "PT10S")).toNanos();

    private Patience() {}

    /** The moment, on {@link System#nanoTime()}, when a wait that starts now gives up. */
    static long deadline() {
        return System.nanoTime() + NANOS;
    }

    /** Whether the latch opened within the patience. */
    static boolean await(CountDownLatch latch) throws InterruptedException {
        return latch.await(NANOS, TimeUnit.NANOSECONDS);
    }

    /** Waits up to the patience for the thread to end. */
    static void join(Thread thread) throws InterruptedException {
        TimeUnit.NANOSECONDS.timedJoin(thread, NANOS);
    }
}
