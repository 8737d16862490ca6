package dev.breaker.spi;

/**
 * Decides how long an OPEN breaker waits and how its HALF_OPEN probes are judged.
 *
 * <p>The breaker counts the probes itself (at most {@link #probes()} granted per round, a
 * released permit freeing its slot) and calls {@link #decide} after each probe outcome. The
 * policy only judges; it keeps no state, so one policy may serve many breakers.
 */
public interface HalfOpenPolicy {

    /**
     * How many probe permits one half-open round grants.
     *
     * @return at least 1
     */
    int probes();

    /**
     * The cooldown before the next probe, given how many times the breaker has opened since it
     * was last CLOSED (1 for the trip from CLOSED, 2 after the first failed round, and so on).
     *
     * @param consecutiveOpens at least 1
     * @return the cooldown in nanoseconds, at least 0
     */
    long cooldownNanos(int consecutiveOpens);

    /**
     * Judges a round after one more probe outcome.
     *
     * @param successes probes of this round that succeeded so far
     * @param failures  probes of this round that failed (or were slow) so far
     * @return what the breaker does next
     */
    Verdict decide(int successes, int failures);

    /** What a half-open round leads to. */
    enum Verdict {
        /** Close the breaker with a fresh window. */
        CLOSE,
        /** Open the breaker again; a new cooldown starts at the time of the deciding outcome. */
        OPEN,
        /** No decision yet: keep probing. */
        WAIT
    }
}
