package dev.breaker;

import dev.breaker.internal.Durations;
import dev.breaker.internal.FixedHalfOpenPolicy;
import dev.breaker.internal.Names;
import dev.breaker.spi.HalfOpenPolicy;
import dev.breaker.spi.WindowFactory;
import java.time.Duration;
import java.util.Map;
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
 * <p>{@link #fromProperties(Map, String)} reads one from text properties
 * ({@code breaker.defaults.cooldown = 30s}); {@link BreakerRegistry#fromProperties(Map)} reads a
 * registry's defaults and named configs.
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
     * Reads a config from {@link java.util.Properties} (its defaults included), as
     * {@link #fromProperties(Map, String)} does from a map.
     *
     * @param properties the properties
     * @param prefix     such as {@code breaker.defaults}, with or without its final dot; empty: every
     *                   key is a setting
     * @return the config
     * @throws IllegalArgumentException when a key under the prefix is unknown, or a value is bad or
     *                                  not a {@code String}; the message starts with the whole key
     */
    public static CircuitBreakerConfig fromProperties(java.util.Properties properties, String prefix) {
        Objects.requireNonNull(properties, "properties");
        Objects.requireNonNull(prefix, "prefix");
        String under = prefix.isEmpty() || prefix.endsWith(".") ? prefix : prefix + ".";
        return fromProperties(ConfigProperties.strings(properties, under), prefix);
    }

    /**
     * Reads a config from text properties, starting from {@link #defaults()}: every key under
     * {@code prefix + "."} is a setting of this config; other keys are ignored (they belong to
     * the rest of the application). The same as {@code fromProperties(properties, prefix,
     * defaults())}; see {@link #fromProperties(Map, String, CircuitBreakerConfig)} for the keys.
     *
     * <pre>
     * breaker.defaults.window.type = consecutive
     * breaker.defaults.window.threshold = 3
     * breaker.defaults.cooldown = 30s
     * breaker.defaults.slow-call-threshold = 2s
     * </pre>
     *
     * @param properties the properties
     * @param prefix     such as {@code breaker.defaults}, with or without its final dot; empty: every
     *                   key is a setting
     * @return the config
     * @throws IllegalArgumentException when a key under the prefix is unknown,
     *                                  or a value is bad; the message starts with the whole key and
     *                                  names the value
     */
    public static CircuitBreakerConfig fromProperties(Map<String, String> properties, String prefix) {
        return fromProperties(properties, prefix, DEFAULTS);
    }

    /**
     * Reads a config from text properties, starting from {@code base}: a setting not given keeps
     * the base's value. Every key under {@code prefix + "."} is a setting of this config; other
     * keys are ignored. {@link BreakerRegistry#fromProperties(Map)} reads a registry's defaults and
     * named instances.
     *
     * <p>The keys, each in kebab-case or camelCase ({@code slow-call-threshold} or
     * {@code slowCallThreshold}, {@code half-open.type} or {@code halfOpen.type},
     * {@code window.minimum-calls} or {@code window.minimumCalls}); one setting given in both
     * spellings is an error naming both keys:
     * <ul>
     * <li>{@code window.type}: a window's name ({@code consecutive} is built in; {@code count} and
     *     {@code time} come with their modules), and {@code window.<setting>}: its settings, as
     *     {@link Windows#named} takes them;
     * <li>{@code half-open.type} and {@code half-open.<setting>}: a half-open policy, as
     *     {@link HalfOpenPolicies#named} takes it ({@code fixed} is built in, {@code exponential}
     *     comes with {@code breaker-halfopen});
     * <li>{@code cooldown} and {@code probes}: the fixed policy's shorthand, as
     *     {@link Builder#cooldown} and {@link Builder#probes}; together with a {@code half-open.*}
     *     key they are an error naming both keys, and so they are when the base's policy is not
     *     the fixed one;
     * <li>{@code classifier.type} and {@code classifier.<setting>}: a failure classifier, as
     *     {@link FailureClassifier#named} takes it ({@code default} is built in);
     * <li>{@code slow-call-threshold}, {@code max-half-open-duration}, {@code back-off-max}:
     *     durations;
     * <li>{@code rejection-stack-traces}, {@code tracked-permits}, {@code shadow}: {@code true} or
     *     {@code false}.
     * </ul>
     * Values take the forms of
     * {@link dev.breaker.spi.Settings}: durations ISO-8601 ({@code PT30S}) or {@code 500ms},
     * {@code 30s}, {@code 5m}, {@code 1h}; rates {@code 0.5} or {@code 50%}; integers.
     *
     * <p>A {@code window.type} other than the base window's starts from that window's defaults; a
     * {@code window.<setting>} without {@code window.type} changes the base's window, which must
     * therefore be one whose settings can be read back: the built-in consecutive window (the
     * default). The same holds for {@code half-open.*} (the fixed policy) and
     * {@code classifier.*} (the default classifier).
     *
     * @param properties the properties; null keys are ignored, a null value under the prefix is
     *                   an error
     * @param prefix     such as {@code breaker.defaults}, with or without its final dot; empty:
     *                   every key is a setting
     * @param base       the config to start from
     * @return the config
     * @throws IllegalArgumentException when a key under the prefix is unknown,
     *                                  or a value is bad; the message starts with the whole key
     *                                  and names the value
     */
    public static CircuitBreakerConfig fromProperties(
            Map<String, String> properties, String prefix, CircuitBreakerConfig base) {
        return ConfigProperties.config(properties, prefix, base);
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
