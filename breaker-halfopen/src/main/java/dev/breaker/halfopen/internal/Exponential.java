package dev.breaker.halfopen.internal;

import dev.breaker.spi.HalfOpenPolicy;
import java.time.Duration;
import java.util.function.DoubleSupplier;

/**
 * The exponential policy (SPEC rules 14 to 16), validated by {@code ExponentialPolicy.Builder}.
 * Stateless apart from its random source: one policy may serve any number of breakers. Equal to
 * another with the same settings and the same random source.
 */
public final class Exponential implements HalfOpenPolicy {

    private final long initialNanos;
    private final double multiplier;
    private final long maxNanos;
    private final double jitter;
    private final DoubleSupplier random;
    private final long calmNanos;
    private final int probes;
    private final int closeAfter;
    private final long rampNanos;
    private final double rampFrom;

    /**
     * Makes the policy from validated settings.
     *
     * @param initialNanos the first cooldown
     * @param multiplier   each consecutive opening's factor, at least 1
     * @param maxNanos     the cap, at least {@code initialNanos}
     * @param jitter       in [0, 1): a cooldown is drawn from {@code [w * (1 - jitter), w]}
     * @param random       draws in [0, 1) for the jitter
     * @param calmNanos    CLOSED this long and the count of openings starts over
     * @param probes       permits per round
     * @param closeAfter   successes that close a round, 1 to {@code probes}
     * @param rampNanos    how long traffic ramps up after a close; 0 for no ramp
     * @param rampFrom     the share admitted when the ramp begins, in (0, 1]
     */
    public Exponential(
            long initialNanos,
            double multiplier,
            long maxNanos,
            double jitter,
            DoubleSupplier random,
            long calmNanos,
            int probes,
            int closeAfter,
            long rampNanos,
            double rampFrom) {
        this.initialNanos = initialNanos;
        this.multiplier = multiplier;
        this.maxNanos = maxNanos;
        this.jitter = jitter;
        this.random = random;
        this.calmNanos = calmNanos;
        this.probes = probes;
        this.closeAfter = closeAfter;
        this.rampNanos = rampNanos;
        this.rampFrom = rampFrom;
    }

    /**
     * The first cooldown in nanoseconds.
     *
     * @return the first cooldown in nanoseconds
     */
    public long initialNanos() {
        return initialNanos;
    }

    /**
     * Each further consecutive opening's factor.
     *
     * @return each further consecutive opening's factor
     */
    public double multiplier() {
        return multiplier;
    }

    /**
     * The cap in nanoseconds.
     *
     * @return the cap in nanoseconds
     */
    public long maxNanos() {
        return maxNanos;
    }

    /**
     * The jitter, in [0, 1).
     *
     * @return the jitter, in [0, 1)
     */
    public double jitter() {
        return jitter;
    }

    /**
     * The random source of the jitter.
     *
     * @return the random source of the jitter
     */
    public DoubleSupplier random() {
        return random;
    }

    /**
     * The calm period in nanoseconds.
     *
     * @return the calm period in nanoseconds
     */
    public long calmNanos() {
        return calmNanos;
    }

    /**
     * Permits per round.
     *
     * @return permits per round
     */
    public int probes() {
        return probes;
    }

    /**
     * Successes that close a round.
     *
     * @return successes that close a round
     */
    public int closeAfter() {
        return closeAfter;
    }

    /**
     * The ramp's length in nanoseconds.
     *
     * @return the ramp's length in nanoseconds
     */
    public long rampNanos() {
        return rampNanos;
    }

    /**
     * The share a ramp starts at.
     *
     * @return the share a ramp starts at
     */
    public double rampFrom() {
        return rampFrom;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Exponential e
                && initialNanos == e.initialNanos
                && Double.compare(multiplier, e.multiplier) == 0
                && maxNanos == e.maxNanos
                && Double.compare(jitter, e.jitter) == 0
                && random.equals(e.random)
                && calmNanos == e.calmNanos
                && probes == e.probes
                && closeAfter == e.closeAfter
                && rampNanos == e.rampNanos
                && Double.compare(rampFrom, e.rampFrom) == 0;
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(
                initialNanos, multiplier, maxNanos, jitter, random, calmNanos, probes, closeAfter, rampNanos, rampFrom);
    }

    /**
     * The cooldown before jitter: {@code min(initial * multiplier^(k-1), max)}, to the nearest
     * whole nanosecond below the cap (no floating point when the multiplier is 1).
     *
     * @param consecutiveOpens at least 1
     * @return nanoseconds
     */
    public long baseCooldownNanos(int consecutiveOpens) {
        int k = Math.max(1, consecutiveOpens);
        if (multiplier == 1.0 || k == 1) {
            return Math.min(initialNanos, maxNanos);
        }
        double w = initialNanos * Math.pow(multiplier, k - 1);
        return w >= maxNanos ? maxNanos : Math.round(w); // the nearest nanosecond: 1 s x 1.2^3 is 1.728 s
    }

    @Override
    public long cooldownNanos(int consecutiveOpens) {
        long w = baseCooldownNanos(consecutiveOpens);
        if (jitter == 0 || w == 0) {
            return w;
        }
        double r = random.getAsDouble();
        if (!(r >= 0 && r < 1)) { // a source that leaves [0, 1) gets no say
            r = 0;
        }
        return w - (long) (w * jitter * r);
    }

    @Override
    public int probes(int consecutiveOpens) {
        return probes;
    }

    @Override
    public Verdict decide(int consecutiveOpens, int successes, int failures) {
        if (successes >= closeAfter) {
            return Verdict.CLOSE;
        }
        if (failures > probes - closeAfter) {
            return Verdict.OPEN; // closeAfter successes are no longer possible
        }
        return Verdict.WAIT;
    }

    @Override
    public long calmPeriodNanos() {
        return calmNanos;
    }

    @Override
    public long rampUpNanos() {
        return rampNanos;
    }

    @Override
    public double rampShare(long elapsedNanos) {
        if (elapsedNanos >= rampNanos) {
            return 1.0;
        }
        double share = rampFrom + (1 - rampFrom) * ((double) Math.max(0, elapsedNanos) / rampNanos);
        return Math.min(1.0, Math.max(rampFrom, share));
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("exponential(initial=")
                .append(Duration.ofNanos(initialNanos))
                .append(", multiplier=")
                .append(multiplier)
                .append(", max=")
                .append(Duration.ofNanos(maxNanos));
        if (jitter > 0) {
            b.append(", jitter=").append(jitter);
        }
        if (calmNanos > 0) {
            b.append(", calmPeriod=").append(Duration.ofNanos(calmNanos));
        }
        b.append(", probes=").append(probes);
        if (closeAfter != probes) {
            b.append(", closeAfter=").append(closeAfter);
        }
        if (rampNanos > 0) {
            b.append(", rampUp=")
                    .append(Duration.ofNanos(rampNanos))
                    .append(", rampFrom=")
                    .append(rampFrom);
        }
        return b.append(')').toString();
    }
}
