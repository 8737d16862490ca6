package dev.breaker.halfopen;

import dev.breaker.halfopen.internal.Exponential;
import dev.breaker.spi.HalfOpenPolicy;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;

/**
 * The exponential half-open policy (SPEC rules 14 to 16): cooldowns that grow with each
 * consecutive opening up to a cap, with optional jitter and a calm period against flapping;
 * rounds of several probes that close on k successes; and an optional gradual return of traffic
 * after a round closes the breaker.
 *
 * <pre>{@code
 * CircuitBreaker breaker = CircuitBreaker.builder("payments")
 *     .halfOpen(ExponentialPolicy.builder()
 *         .initial(Duration.ofSeconds(1)).multiplier(2).max(Duration.ofMinutes(1))
 *         .jitter(0.2).calmPeriod(Duration.ofMinutes(5))
 *         .probes(5).closeAfter(4)
 *         .rampUp(Duration.ofSeconds(30)).rampFrom(0.1)
 *         .build())
 *     .build();
 * }</pre>
 *
 * <table class="striped">
 * <caption>Settings (the same keys for {@code HalfOpenPolicies.named("exponential", ...)})</caption>
 * <tr><th>setting</th><th>default</th><th>meaning</th></tr>
 * <tr><td>{@code initial}</td><td>10 s</td><td>the cooldown after the first opening</td></tr>
 * <tr><td>{@code multiplier}</td><td>2</td><td>each further consecutive opening multiplies it (at least 1)</td></tr>
 * <tr><td>{@code max}</td><td>5 min</td><td>the cap (at least {@code initial})</td></tr>
 * <tr><td>{@code jitter}</td><td>0</td><td>in [0, 1): each cooldown {@code w} is drawn from
 *     {@code [w * (1 - jitter), w]}, so breakers that tripped together do not probe together</td></tr>
 * <tr><td>{@code calmPeriod}</td><td>0</td><td>the count of openings starts over only after the
 *     breaker stayed CLOSED this long (0: at every close)</td></tr>
 * <tr><td>{@code probes}</td><td>1</td><td>permits per half-open round</td></tr>
 * <tr><td>{@code closeAfter}</td><td>{@code probes}</td><td>successes that close a round, 1 to
 *     {@code probes}; a round reopens once they are out of reach</td></tr>
 * <tr><td>{@code rampUp}</td><td>0</td><td>after a close, admit a growing share of requests for
 *     this long (0: no ramp)</td></tr>
 * <tr><td>{@code rampFrom}</td><td>0.1</td><td>the share the ramp starts at, in (0, 1]</td></tr>
 * </table>
 *
 * <p>Durations may be 0 (no cooldown, no calm period, no ramp), never negative.
 */
public final class ExponentialPolicy {

    /** The first cooldown when none is given. */
    public static final Duration DEFAULT_INITIAL = Duration.ofSeconds(10);
    /** The multiplier when none is given. */
    public static final double DEFAULT_MULTIPLIER = 2.0;
    /** The cap when none is given (and {@code initial} is not above it). */
    public static final Duration DEFAULT_MAX = Duration.ofMinutes(5);
    /** The share a ramp starts at when none is given. */
    public static final double DEFAULT_RAMP_FROM = 0.1;

    /** The default random source, shared, so that policies built alike are equal. */
    private static final DoubleSupplier THREAD_LOCAL_RANDOM =
            () -> ThreadLocalRandom.current().nextDouble();

    private ExponentialPolicy() {}

    /**
     * Starts a builder with the defaults in the table above.
     *
     * @return a builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The same exponential policy, drawing its jitter from {@code random} instead: every other
     * setting is kept. For a policy read from text settings (which take no random source), such as
     * a replay of recorded traffic that must repeat exactly from a seed.
     *
     * @param policy an exponential policy, from {@link Builder#build()} or
     *               {@code HalfOpenPolicies.named("exponential", ...)}
     * @param random returns a number in [0, 1) (anything else counts as 0)
     * @return the policy with that random source
     * @throws IllegalArgumentException when {@code policy} is not an exponential policy of this module
     */
    public static HalfOpenPolicy withRandom(HalfOpenPolicy policy, DoubleSupplier random) {
        Objects.requireNonNull(policy, "policy");
        Objects.requireNonNull(random, "random");
        if (!(policy instanceof Exponential e)) {
            throw new IllegalArgumentException("not an exponential policy: " + policy);
        }
        return new Exponential(
                e.initialNanos(),
                e.multiplier(),
                e.maxNanos(),
                e.jitter(),
                random,
                e.calmNanos(),
                e.probes(),
                e.closeAfter(),
                e.rampNanos(),
                e.rampFrom());
    }

    /** Builds the policy; every setter checks its argument at once, {@link #build()} checks them together. */
    public static final class Builder {

        private Duration initial = DEFAULT_INITIAL;
        private double multiplier = DEFAULT_MULTIPLIER;
        private Duration max;
        private double jitter;
        private DoubleSupplier random = THREAD_LOCAL_RANDOM;
        private Duration calmPeriod = Duration.ZERO;
        private int probes = 1;
        private Integer closeAfter;
        private Duration rampUp = Duration.ZERO;
        private double rampFrom = DEFAULT_RAMP_FROM;

        private Builder() {}

        /**
         * The cooldown after the first opening.
         *
         * @param initial at least 0
         * @return this builder
         */
        public Builder initial(Duration initial) {
            nanos("initial", initial);
            this.initial = initial;
            return this;
        }

        /**
         * The factor each further consecutive opening applies.
         *
         * @param multiplier at least 1 (1: a fixed cooldown), finite
         * @return this builder
         */
        public Builder multiplier(double multiplier) {
            if (!(multiplier >= 1) || Double.isInfinite(multiplier)) {
                throw new IllegalArgumentException("multiplier must be >= 1 and finite, was " + multiplier);
            }
            this.multiplier = multiplier;
            return this;
        }

        /**
         * The longest cooldown.
         *
         * @param max at least 0; at least {@code initial} when built (default: 5 minutes, or
         *            {@code initial} when that is longer)
         * @return this builder
         */
        public Builder max(Duration max) {
            nanos("max", max);
            this.max = max;
            return this;
        }

        /**
         * How much of each cooldown is random: it is drawn from {@code [w * (1 - jitter), w]}.
         *
         * @param jitter in [0, 1)
         * @return this builder
         */
        public Builder jitter(double jitter) {
            if (!(jitter >= 0 && jitter < 1)) {
                throw new IllegalArgumentException("jitter must be in [0, 1), was " + jitter);
            }
            this.jitter = jitter;
            return this;
        }

        /**
         * The random source of the jitter (tests make it exact); by default
         * {@link ThreadLocalRandom}. Called concurrently when breakers open at once.
         *
         * @param random returns a number in [0, 1) (anything else counts as 0)
         * @return this builder
         */
        public Builder random(DoubleSupplier random) {
            this.random = Objects.requireNonNull(random, "random");
            return this;
        }

        /**
         * How long the breaker must stay CLOSED, from the moment it closed, before the count of
         * consecutive openings starts over.
         *
         * @param calmPeriod at least 0 (0: at every close)
         * @return this builder
         */
        public Builder calmPeriod(Duration calmPeriod) {
            nanos("calmPeriod", calmPeriod);
            this.calmPeriod = calmPeriod;
            return this;
        }

        /**
         * Permits per half-open round.
         *
         * @param probes at least 1
         * @return this builder
         */
        public Builder probes(int probes) {
            if (probes < 1) {
                throw new IllegalArgumentException("probes must be >= 1, was " + probes);
            }
            this.probes = probes;
            return this;
        }

        /**
         * Successes that close a round (k of the round's N probes).
         *
         * @param closeAfter 1 to {@code probes} (checked when built)
         * @return this builder
         */
        public Builder closeAfter(int closeAfter) {
            if (closeAfter < 1) {
                throw new IllegalArgumentException("closeAfter must be >= 1, was " + closeAfter);
            }
            this.closeAfter = closeAfter;
            return this;
        }

        /**
         * How long, after a round closes the breaker, the admitted share of requests grows from
         * {@code rampFrom} to all.
         *
         * @param rampUp at least 0 (0: no ramp)
         * @return this builder
         */
        public Builder rampUp(Duration rampUp) {
            nanos("rampUp", rampUp);
            this.rampUp = rampUp;
            return this;
        }

        /**
         * The share of requests admitted when a ramp begins.
         *
         * @param rampFrom in (0, 1]
         * @return this builder
         */
        public Builder rampFrom(double rampFrom) {
            if (!(rampFrom > 0 && rampFrom <= 1)) {
                throw new IllegalArgumentException("rampFrom must be in (0, 1], was " + rampFrom);
            }
            this.rampFrom = rampFrom;
            return this;
        }

        /**
         * Checks the settings together and makes the policy.
         *
         * @return the policy, to give to {@code CircuitBreakerBuilder.halfOpen}
         * @throws IllegalArgumentException when {@code max < initial} or {@code closeAfter > probes}
         */
        public HalfOpenPolicy build() {
            long initialNanos = nanos("initial", initial);
            long maxNanos = max == null ? Math.max(initialNanos, nanos("max", DEFAULT_MAX)) : nanos("max", max);
            if (maxNanos < initialNanos) {
                throw new IllegalArgumentException("max must be >= initial (" + initial + "), was " + max);
            }
            int k = closeAfter == null ? probes : closeAfter;
            if (k > probes) {
                throw new IllegalArgumentException("closeAfter must be <= probes (" + probes + "), was " + k);
            }
            return new Exponential(
                    initialNanos,
                    multiplier,
                    maxNanos,
                    jitter,
                    random,
                    nanos("calmPeriod", calmPeriod),
                    probes,
                    k,
                    nanos("rampUp", rampUp),
                    rampFrom);
        }

        private static long nanos(String setting, Duration d) {
            Objects.requireNonNull(d, setting);
            if (d.isNegative()) {
                throw new IllegalArgumentException(setting + " must be >= 0, was " + d);
            }
            try {
                return d.toNanos();
            } catch (ArithmeticException e) {
                throw new IllegalArgumentException(
                        setting + " must be at most " + Duration.ofNanos(Long.MAX_VALUE) + ", was " + d, e);
            }
        }
    }
}
