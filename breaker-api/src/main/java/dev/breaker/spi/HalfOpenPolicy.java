package dev.breaker.spi;

/**
 * Decides how long an OPEN breaker waits, how its HALF_OPEN rounds are run and judged, and how
 * traffic returns after a round closes it (SPEC rules 14 to 16).
 *
 * <p><b>Rounds.</b> Every method that concerns a round gets {@code consecutiveOpens}: how many
 * times the breaker has opened since it last stayed CLOSED long enough ({@link #calmPeriodNanos};
 * 1 for the trip from CLOSED, 2 after the first failed round, and so on). The round that follows
 * the k-th opening waits {@code cooldownNanos(k)}, grants {@code probes(k)} permits and is judged
 * by {@code decide(k, ...)}, so a policy may ask more of later rounds.
 *
 * <p>The breaker counts the probes itself (at most {@code probes(k)} granted per round, a released
 * permit freeing its slot) and calls {@link #decide} after each probe outcome. The policy only
 * judges: it keeps no state of its own about a breaker, so one policy may serve many breakers,
 * and its methods may be called from any thread at once. A policy with jitter draws from its
 * random source in {@link #cooldownNanos}, which must then be safe to call concurrently.
 *
 * <p><b>Ramp-up.</b> A policy with {@link #rampUpNanos()} above 0 has the breaker, after a round
 * closes it, admit only the share {@link #rampShare} of the requests for that long; the breaker
 * turns the shares into admissions with a running credit (rule 16). A policy without a ramp
 * leaves the CLOSED path exactly as fast as it is.
 *
 * <p><b>Read once.</b> {@link #calmPeriodNanos()} and {@link #rampUpNanos()} are read when a
 * breaker is built and must not change afterwards. {@code breaker-tck}'s
 * {@code HalfOpenPolicyContract} checks a policy against all of this.
 */
public interface HalfOpenPolicy {

    /**
     * The cooldown after the k-th consecutive opening.
     *
     * @param consecutiveOpens at least 1
     * @return the cooldown in nanoseconds, at least 0
     */
    long cooldownNanos(int consecutiveOpens);

    /**
     * How many probe permits the round after the k-th consecutive opening grants.
     *
     * @param consecutiveOpens at least 1
     * @return at least 1
     */
    int probes(int consecutiveOpens);

    /**
     * Judges a round after one more probe outcome. A decision that is certain must be taken at
     * once: once every permit of the round has reported ({@code successes + failures ==
     * probes(consecutiveOpens)}) the answer is never {@link Verdict#WAIT}.
     *
     * @param consecutiveOpens the round's opening count, at least 1
     * @param successes        probes of this round that succeeded so far
     * @param failures         probes of this round that failed (or were slow) so far
     * @return what the breaker does next, never null
     */
    Verdict decide(int consecutiveOpens, int successes, int failures);

    /**
     * How long the breaker must stay CLOSED, from the moment it entered CLOSED, before the count
     * of consecutive openings starts over; 0 (the default): it starts over at the close.
     *
     * @return nanoseconds, at least 0
     */
    default long calmPeriodNanos() {
        return 0;
    }

    /**
     * How long after a round closes the breaker the admitted share ramps up; 0 (the default): no
     * ramp, every request is admitted at once.
     *
     * @return nanoseconds, at least 0
     */
    default long rampUpNanos() {
        return 0;
    }

    /**
     * The share of requests admitted {@code elapsedNanos} into a ramp (only asked for
     * {@code 0 <= elapsedNanos < rampUpNanos()}).
     *
     * @param elapsedNanos time since the breaker closed
     * @return a share in (0, 1]
     */
    default double rampShare(long elapsedNanos) {
        return 1.0;
    }

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
