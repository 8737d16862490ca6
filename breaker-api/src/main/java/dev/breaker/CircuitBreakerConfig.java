package dev.breaker;

import dev.breaker.internal.Durations;
import dev.breaker.internal.FixedHalfOpenPolicy;
import dev.breaker.internal.Names;
import dev.breaker.spi.HalfOpenPolicy;
import dev.breaker.spi.WindowFactory;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything that decides how a breaker behaves, as an immutable value apart from the breaker's
 * name: one config may serve many breakers (a registry's defaults, every host of a service).
 * Listeners, the ticker and event delivery belong to each breaker and are set on
 * {@link CircuitBreakerBuilder}.
 *
 * <pre>{@code
 * CircuitBreakerConfig config = CircuitBreakerConfig.builder()
 *     .window(Windows.consecutiveFailures(3))
 *     .cooldown(Duration.ofSeconds(30)).probes(2)
 *     .build();
 * CircuitBreaker payments = CircuitBreaker.builder("payments", config).build();
 * CircuitBreakerConfig strict = CircuitBreakerConfig.builder(config).probes(5).build();
 * }</pre>
 *
 * <table>
 * <caption>Settings (the names are those of the properties keys) and their defaults</caption>
 * <tr><th>setting</th><th>default</th></tr>
 * <tr><td>{@code window}</td><td>{@code Windows.consecutiveFailures(5)}</td></tr>
 * <tr><td>{@code cooldown} / {@code probes}</td><td>60 s / 1: the fixed half-open policy; the
 *     shorthand for {@code halfOpen(HalfOpenPolicies.fixed(cooldown, probes))}</td></tr>
 * <tr><td>{@code halfOpen}</td><td>the fixed policy above; set instead of cooldown and probes</td></tr>
 * <tr><td>{@code slowCallThreshold}</td><td>none: calls are not timed and none is slow</td></tr>
 * <tr><td>{@code maxHalfOpenDuration}</td><td>60 s: a round without a decision by then is failed</td></tr>
 * <tr><td>{@code classifier}</td><td>{@link FailureClassifier#defaults()}</td></tr>
 * <tr><td>{@code rejectionStackTraces}</td><td>false</td></tr>
 * <tr><td>{@code trackedPermits}</td><td>false: CLOSED permits are shared, allocation-free</td></tr>
 * <tr><td>{@code shadow}</td><td>false: a shadow breaker decides but never rejects (SPEC rule 17)</td></tr>
 * <tr><td>{@code backOffMax}</td><td>10 min: the longest a dependency's "retry after" opens the breaker</td></tr>
 * </table>
 *
 * <p>Equality compares every setting; windows, policies and classifiers by their own
 * {@code equals}, so the built-in ones (values) compare by value and a lambda or any plugin
 * without {@code equals} by identity.
 */
public final class CircuitBreakerConfig {

    /** The threshold of the default window, {@code Windows.consecutiveFailures(5)}. */
    public static final int DEFAULT_CONSECUTIVE_FAILURES = 5;
    /** The cooldown of the default (fixed) half-open policy. */
    public static final Duration DEFAULT_COOLDOWN = Duration.ofSeconds(60);
    /** The probes per round of the default (fixed) half-open policy. */
    public static final int DEFAULT_PROBES = 1;
    /** How long a half-open round may go without a decision, by default. */
    public static final Duration DEFAULT_MAX_HALF_OPEN_DURATION = Duration.ofSeconds(60);
    /** The longest back-off a dependency may ask for, by default (SPEC rule 19). */
    public static final Duration DEFAULT_BACK_OFF_MAX = Duration.ofMinutes(10);

    private static final CircuitBreakerConfig DEFAULTS = new Builder().build();

    private final WindowFactory window;
    private final HalfOpenPolicy halfOpen;
    /** Null when no threshold is set. */
    private final Duration slowCallThreshold;

    private final Duration maxHalfOpenDuration;
    private final FailureClassifier classifier;
    private final boolean rejectionStackTraces;
    private final boolean trackedPermits;
    private final boolean shadow;
    private final Duration backOffMax;

    private CircuitBreakerConfig(Builder b, HalfOpenPolicy halfOpen) {
        this.window = b.window;
        this.halfOpen = halfOpen;
        this.slowCallThreshold = b.slowCallThreshold;
        this.maxHalfOpenDuration = b.maxHalfOpenDuration;
        this.classifier = b.classifier;
        this.rejectionStackTraces = b.rejectionStackTraces;
        this.trackedPermits = b.trackedPermits;
        this.shadow = b.shadow;
        this.backOffMax = b.backOffMax;
    }

    /**
     * The config with every default.
     *
     * @return the defaults, a shared instance
     */
    public static CircuitBreakerConfig defaults() {
        return DEFAULTS;
    }

    /**
     * Starts a config from the defaults.
     *
     * @return a builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Starts a config from an existing one; every setting not set on the builder keeps its value.
     *
     * @param from the config to start from
     * @return a builder
     */
    public static Builder builder(CircuitBreakerConfig from) {
        Objects.requireNonNull(from, "from");
        return new Builder(from);
    }

    /**
     * The window that decides when CLOSED trips.
     *
     * @return the window factory
     */
    public WindowFactory window() {
        return window;
    }

    /**
     * How long OPEN waits and how HALF_OPEN probes are judged (the fixed policy when
     * {@code cooldown} and {@code probes} were set).
     *
     * @return the policy
     */
    public HalfOpenPolicy halfOpen() {
        return halfOpen;
    }

    /**
     * Calls at least this long are slow.
     *
     * @return the threshold, or empty when calls are not timed
     */
    public Optional<Duration> slowCallThreshold() {
        return Optional.ofNullable(slowCallThreshold);
    }

    /**
     * How long a half-open round may go without a decision.
     *
     * @return the duration
     */
    public Duration maxHalfOpenDuration() {
        return maxHalfOpenDuration;
    }

    /**
     * Which outcomes are failures.
     *
     * @return the classifier
     */
    public FailureClassifier classifier() {
        return classifier;
    }

    /**
     * Whether rejections fill in a stack trace.
     *
     * @return the setting
     */
    public boolean rejectionStackTraces() {
        return rejectionStackTraces;
    }

    /**
     * Whether every CLOSED permit is an object of its own that detects a second report.
     *
     * @return the setting
     */
    public boolean trackedPermits() {
        return trackedPermits;
    }

    /**
     * Whether the breaker is a shadow (SPEC rule 17): it decides and reports like any breaker, but
     * lets every call through, counting the ones it would have rejected apart.
     *
     * @return the setting
     */
    public boolean shadow() {
        return shadow;
    }

    /**
     * The longest a dependency's "retry after" opens the breaker (SPEC rule 19).
     *
     * @return the cap
     */
    public Duration backOffMax() {
        return backOffMax;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CircuitBreakerConfig c
                && window.equals(c.window)
                && halfOpen.equals(c.halfOpen)
                && Objects.equals(slowCallThreshold, c.slowCallThreshold)
                && maxHalfOpenDuration.equals(c.maxHalfOpenDuration)
                && classifier.equals(c.classifier)
                && rejectionStackTraces == c.rejectionStackTraces
                && trackedPermits == c.trackedPermits
                && shadow == c.shadow
                && backOffMax.equals(c.backOffMax);
    }

    @Override
    public int hashCode() {
        return Objects.hash(
                window,
                halfOpen,
                slowCallThreshold,
                maxHalfOpenDuration,
                classifier,
                rejectionStackTraces,
                trackedPermits,
                shadow,
                backOffMax);
    }

    @Override
    public String toString() {
        return "CircuitBreakerConfig[window=" + Names.describe(window::describe, window)
                + ", halfOpen=" + Names.describe(halfOpen::toString, halfOpen)
                + ", slowCallThreshold=" + (slowCallThreshold == null ? "none" : slowCallThreshold)
                + ", maxHalfOpenDuration=" + maxHalfOpenDuration
                + ", classifier=" + Names.describe(classifier::toString, classifier)
                + ", rejectionStackTraces=" + rejectionStackTraces
                + ", trackedPermits=" + trackedPermits
                + (shadow ? ", shadow=true" : "")
                + ", backOffMax=" + backOffMax + "]";
    }

    /**
     * Builds a {@link CircuitBreakerConfig}. Every setter checks its argument at once and names the
     * setting and the value in its exception; a rejected value leaves the builder unchanged.
     * Settings that conflict ({@code halfOpen} with {@code cooldown} or {@code probes}) are refused
     * by {@link #build()}.
     */
    public static final class Builder {

        private WindowFactory window = Windows.consecutiveFailures(DEFAULT_CONSECUTIVE_FAILURES);
        /** Set here, or inherited when the config started from had a policy other than the fixed one. */
        private HalfOpenPolicy halfOpen;

        private Duration cooldown;
        private Integer probes;
        /** The fixed policy's settings inherited from the config started from. */
        private Duration baseCooldown = DEFAULT_COOLDOWN;

        private int baseProbes = DEFAULT_PROBES;
        private Duration slowCallThreshold;
        private Duration maxHalfOpenDuration = DEFAULT_MAX_HALF_OPEN_DURATION;
        private FailureClassifier classifier = FailureClassifier.defaults();
        private boolean rejectionStackTraces;
        private boolean trackedPermits;
        private boolean shadow;
        private Duration backOffMax = DEFAULT_BACK_OFF_MAX;

        private Builder() {}

        private Builder(CircuitBreakerConfig from) {
            this.window = from.window;
            if (from.halfOpen instanceof FixedHalfOpenPolicy fixed) {
                this.baseCooldown = Duration.ofNanos(fixed.cooldownNanos());
                this.baseProbes = fixed.probes();
            } else {
                this.halfOpen = from.halfOpen;
            }
            this.slowCallThreshold = from.slowCallThreshold;
            this.maxHalfOpenDuration = from.maxHalfOpenDuration;
            this.classifier = from.classifier;
            this.rejectionStackTraces = from.rejectionStackTraces;
            this.trackedPermits = from.trackedPermits;
            this.shadow = from.shadow;
            this.backOffMax = from.backOffMax;
        }

        /**
         * The window that decides when CLOSED trips.
         *
         * @param window from {@link Windows} or a window module
         * @return this builder
         */
        public Builder window(WindowFactory window) {
            this.window = Objects.requireNonNull(window, "window");
            return this;
        }

        /**
         * The fixed cooldown of the default half-open policy. Not combinable with {@link #halfOpen}.
         *
         * @param cooldown at least zero
         * @return this builder
         */
        public Builder cooldown(Duration cooldown) {
            Durations.nonNegative("cooldown", cooldown);
            this.cooldown = cooldown;
            return this;
        }

        /**
         * Probe permits per half-open round of the default policy. Not combinable with {@link #halfOpen}.
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
         * A half-open policy that replaces the default one (and its cooldown and probes settings).
         *
         * @param policy from {@link HalfOpenPolicies} or a half-open module
         * @return this builder
         */
        public Builder halfOpen(HalfOpenPolicy policy) {
            this.halfOpen = Objects.requireNonNull(policy, "halfOpen");
            return this;
        }

        /**
         * Calls that take at least this long are slow. Setting it makes the execute methods read
         * the ticker twice per call; a slow probe counts as failed.
         *
         * @param threshold longer than zero
         * @return this builder
         */
        public Builder slowCallThreshold(Duration threshold) {
            Durations.positive("slowCallThreshold", threshold);
            this.slowCallThreshold = threshold;
            return this;
        }

        /**
         * How long a half-open round may go without a decision; on the first request or report
         * after that the round counts as failed and the breaker opens. Keeps a probe that never
         * reports from wedging the breaker.
         *
         * @param max longer than zero
         * @return this builder
         */
        public Builder maxHalfOpenDuration(Duration max) {
            Durations.positive("maxHalfOpenDuration", max);
            this.maxHalfOpenDuration = max;
            return this;
        }

        /**
         * Which outcomes are failures.
         *
         * @param classifier the classifier
         * @return this builder
         */
        public Builder classifier(FailureClassifier classifier) {
            this.classifier = Objects.requireNonNull(classifier, "classifier");
            return this;
        }

        /**
         * Whether {@link CallNotPermittedException}s fill in a stack trace (default false: cheap
         * rejection).
         *
         * @param enabled true to fill in stack traces
         * @return this builder
         */
        public Builder rejectionStackTraces(boolean enabled) {
            this.rejectionStackTraces = enabled;
            return this;
        }

        /**
         * Whether each CLOSED permit from {@link CircuitBreaker#tryAcquire()} is an object of its
         * own (default false). By default the calls of one CLOSED generation share one permit, so
         * the happy path allocates nothing, and a second report on it cannot be told from another
         * call's report. Turned on, each permit costs one small object and a second report on it
         * is detected, ignored and counted in {@link BreakerMetrics#duplicateReports()}. Probe
         * permits are always tracked; the execute methods never report twice either way.
         *
         * @param enabled true for one-shot CLOSED permits
         * @return this builder
         */
        public Builder trackedPermits(boolean enabled) {
            this.trackedPermits = enabled;
            return this;
        }

        /**
         * Shadow mode (SPEC rule 17; default false), for rolling a configuration out safely: the
         * breaker makes exactly the transitions, at the same times, with the same events, as the
         * same breaker without shadow mode, but lets through every call that breaker would reject,
         * never throwing {@link CallNotPermittedException}, not even when isolated. Those calls
         * count as rejected, their outcomes are not recorded in the window, and they are counted
         * apart: {@link BreakerMetrics#shadowSuccesses()} (successes it would have rejected) and
         * {@link BreakerMetrics#shadowFailures()} (failures it would have spared the dependency).
         *
         * @param enabled true for a shadow breaker
         * @return this builder
         */
        public Builder shadow(boolean enabled) {
            this.shadow = enabled;
            return this;
        }

        /**
         * The longest a dependency's "retry after" opens the breaker (SPEC rule 19): a longer
         * delay is cut to this.
         *
         * @param max longer than zero
         * @return this builder
         */
        public Builder backOffMax(Duration max) {
            Durations.positive("backOffMax", max);
            this.backOffMax = max;
            return this;
        }

        /**
         * Checks the settings together and makes the config.
         *
         * @return the config
         * @throws IllegalArgumentException when {@code halfOpen} is combined with {@code cooldown}
         *                                  or {@code probes}, or the half-open policy answers
         *                                  {@code probes(1) < 1}, a negative first cooldown, calm
         *                                  period or ramp
         */
        public CircuitBreakerConfig build() {
            HalfOpenPolicy policy;
            if (cooldown != null || probes != null) {
                if (halfOpen != null) {
                    throw new IllegalArgumentException("halfOpen(" + Names.describe(halfOpen::toString, halfOpen)
                            + ") sets the cooldown and probes itself; remove cooldown(" + cooldown + ") and probes("
                            + probes + ")");
                }
                policy = HalfOpenPolicies.fixed(
                        cooldown != null ? cooldown : baseCooldown, probes != null ? probes : baseProbes);
            } else if (halfOpen != null) {
                policy = halfOpen;
            } else {
                policy = HalfOpenPolicies.fixed(baseCooldown, baseProbes);
            }
            checkPolicy(policy);
            return new CircuitBreakerConfig(this, policy);
        }

        private static void checkPolicy(HalfOpenPolicy policy) {
            String named = "halfOpen policy " + Names.describe(policy::toString, policy);
            int n = policy.probes(1);
            if (n < 1) {
                throw new IllegalArgumentException(named + ": probes(1) must be >= 1, was " + n);
            }
            long first = policy.cooldownNanos(1);
            if (first < 0) {
                throw new IllegalArgumentException(named + ": cooldownNanos(1) must be >= 0, was " + first);
            }
            long calm = policy.calmPeriodNanos();
            if (calm < 0) {
                throw new IllegalArgumentException(named + ": calmPeriodNanos() must be >= 0, was " + calm);
            }
            long ramp = policy.rampUpNanos();
            if (ramp < 0) {
                throw new IllegalArgumentException(named + ": rampUpNanos() must be >= 0, was " + ramp);
            }
        }
    }
}
