package dev.breaker.spi;

/** How a thread waits for a {@link CombiningWindow}'s lock or a stripe's writer: spins, then yields, then parks. */
final class Pause {

    /** Spins before a waiting thread yields. */
    static final int SPINS = 128;
    /** Then yields before it parks for a moment at a time. */
    private static final int YIELDS = 64;
    /** A waiting thread's park, once spins and yields did not end its wait: 20 microseconds. */
    private static final long PARK_NANOS = 20_000;

    private Pause() {}

    /**
     * A waiting thread's pause: spin a little, then yield, then park for a moment at a time. A
     * hold is short, so the spins nearly always suffice. The park is for virtual threads: a holder
     * whose hold blocked (a subclass or a {@code before} step that waits for something) is
     * unmounted, and once let go it must be mounted again to finish. On JDK 25 a yield did not
     * give it a carrier while waiters that only spun and yielded held every one (measured with
     * more waiting virtual threads than carriers: the holder never ran again); a parked waiter
     * gives its carrier up until its park ends.
     */
    static void pause(int spins) {
        if (spins < SPINS) {
            Thread.onSpinWait();
        } else if (spins < SPINS + YIELDS) {
            Thread.yield();
        } else {
            // an interrupted thread's park returns at once, and it would spin again: clear the
            // interrupt, park twice (the interrupt also left a permit, which the first park takes),
            // and give the interrupt back to the caller
            boolean interrupted = Thread.interrupted();
            java.util.concurrent.locks.LockSupport.parkNanos(PARK_NANOS);
            if (interrupted) {
                java.util.concurrent.locks.LockSupport.parkNanos(PARK_NANOS);
                Thread.currentThread().interrupt();
            }
        }
    }
}
