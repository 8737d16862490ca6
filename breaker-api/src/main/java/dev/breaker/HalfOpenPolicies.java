package dev.breaker;

import dev.breaker.internal.Discovery;
import dev.breaker.internal.FixedHalfOpenPolicy;
import dev.breaker.spi.HalfOpenPolicy;
import dev.breaker.spi.HalfOpenPolicyProvider;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * Ready-made half-open policies, and lookup of policies from other modules by name.
 */
public final class HalfOpenPolicies {

    private HalfOpenPolicies() {}

    /**
     * The default policy: the same cooldown after every trip, {@code probes} permits per
     * round, and all of them must succeed to close; any failed or slow probe opens again.
     *
     * @param cooldown how long OPEN rejects, at least zero
     * @param probes   permits per half-open round, at least 1
     * @return the policy
     * @throws IllegalArgumentException when a value is out of range
     */
    public static HalfOpenPolicy fixed(Duration cooldown, int probes) {
        return FixedHalfOpenPolicy.of(cooldown, probes);
    }

    /**
     * Finds a policy by name through {@link java.util.ServiceLoader}. Built in: {@code "fixed"}
     * with settings {@code cooldown} (such as {@code PT10S} or {@code 10s}) and {@code probes}. The {@code breaker-halfopen}
     * module adds {@code "exponential"}.
     *
     * @param name     the provider's name
     * @param settings the provider's settings
     * @return the policy
     * @throws IllegalArgumentException when the name is unknown or taken twice, or a setting is bad
     */
    public static HalfOpenPolicy named(String name, Map<String, String> settings) {
        Objects.requireNonNull(settings, "settings");
        return Discovery.find(HalfOpenPolicyProvider.class, "half-open policy", name, HalfOpenPolicyProvider::name)
                .create(settings);
    }
}
