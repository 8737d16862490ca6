package dev.breaker.internal;

import dev.breaker.spi.HalfOpenPolicy;
import java.time.Duration;

/**
 * The default half-open policy: one cooldown for every trip, {@code probes} permits per round,
 * all must succeed to close, and the first failed (or slow) probe opens again.
 *
 * @param cooldownNanos the cooldown
 * @param probes        permits per round
 */
public record FixedHalfOpenPolicy(long cooldownNanos, int probes) implements HalfOpenPolicy {

    /**
     * Validates and makes the policy.
     *
     * @param cooldown at least zero
     * @param probes   at least 1
     * @return the policy
     */
    public static FixedHalfOpenPolicy of(Duration cooldown, int probes) {
        long nanos = Durations.nonNegative("cooldown", cooldown);
        if (probes < 1) {
            throw new IllegalArgumentException("probes must be >= 1, was " + probes);
        }
        return new FixedHalfOpenPolicy(nanos, probes);
    }

    @Override
    public long cooldownNanos(int consecutiveOpens) {
        return cooldownNanos;
    }

    @Override
    public int probes(int consecutiveOpens) {
        return probes;
    }

    @Override
    public Verdict decide(int consecutiveOpens, int successes, int failures) {
        if (failures > 0) {
            return Verdict.OPEN;
        }
        return successes >= probes ? Verdict.CLOSE : Verdict.WAIT;
    }

    @Override
    public String toString() {
        return "fixed(cooldown=" + Duration.ofNanos(cooldownNanos) + ", probes=" + probes + ")";
    }
}
