package dev.breaker;

import dev.breaker.internal.Names;
import dev.breaker.spi.HalfOpenPolicy;

/**
 * A breaker's half-open policy, asked so that its answers are checked and, once the breaker runs,
 * its failures contained. When the breaker is built, a bad answer is refused with the policy's
 * name and the value. Later, an opening or a round the breaker has decided happens whatever the
 * policy does: it gets a fallback, and the failure is logged, since the thread at hand may only
 * have asked for a permit.
 */
final class CheckedPolicy {

    private static final System.Logger LOG = System.getLogger("dev.breaker");

    private final String breakerName;
    private final HalfOpenPolicy policy;
    /** The cooldown of the first opening, checked when the breaker was built. */
    final long firstCooldownNanos;

    /**
     * Checks the policy's answers for the first opening.
     *
     * @throws IllegalArgumentException when {@code probes(1)} is below 1 or {@code cooldownNanos(1)} negative
     */
    CheckedPolicy(String breakerName, HalfOpenPolicy policy) {
        this.breakerName = breakerName;
        this.policy = policy;
        probes(policy, 1);
        this.firstCooldownNanos = cooldown(policy, 1);
    }

    private static int probes(HalfOpenPolicy policy, int opens) {
        int n = policy.probes(opens);
        if (n < 1) {
            throw new IllegalArgumentException(
                    "halfOpen policy " + policy + ": probes(" + opens + ") must be >= 1, was " + n);
        }
        return n;
    }

    private static long cooldown(HalfOpenPolicy policy, int opens) {
        long nanos = policy.cooldownNanos(opens);
        if (nanos < 0) {
            throw new IllegalArgumentException(
                    "halfOpen policy " + policy + ": cooldownNanos(" + opens + ") must be >= 0, was " + nanos);
        }
        return nanos;
    }

    /**
     * The permits of the round after the k-th consecutive opening. A policy that throws or answers
     * less than 1 cannot stop a round the breaker has begun: it gets one probe.
     */
    int probesFor(int opens) {
        try {
            return probes(policy, opens);
        } catch (Throwable e) { // an Error too: the round was decided and must happen
            LOG.log(
                    System.Logger.Level.WARNING,
                    () -> "breaker '" + breakerName + "': half-open policy failed on the probes of opening " + opens
                            + "; the round grants 1",
                    e);
            return 1;
        }
    }

    /**
     * The cooldown for an opening. A policy that throws or answers a negative number cannot stop an
     * opening the breaker has decided: it gets {@code fallback} (the last good cooldown).
     */
    long cooldownFor(int opens, long fallback) {
        try {
            return cooldown(policy, opens);
        } catch (Throwable e) { // an Error too: the opening was decided and must happen
            LOG.log(
                    System.Logger.Level.WARNING,
                    () -> "breaker '" + breakerName + "': half-open policy failed on opening " + opens
                            + "; using the cooldown " + fallback + " ns",
                    e);
            return fallback;
        }
    }

    /**
     * The policy's verdict on a round.
     *
     * @throws IllegalStateException when it answers null; whatever it throws propagates
     */
    HalfOpenPolicy.Verdict decide(int opens, int successes, int failures) {
        HalfOpenPolicy.Verdict verdict = policy.decide(opens, successes, failures);
        if (verdict == null) {
            throw new IllegalStateException("halfOpen policy " + policy + " returned null from decide(" + opens + ", "
                    + successes + ", " + failures + ")");
        }
        return verdict;
    }

    /** The policy as it describes itself; safe from a policy whose description throws. */
    String describe() {
        return Names.describe(policy::toString, policy);
    }
}
