package dev.breaker.spi;

import java.util.Map;
import java.util.Set;

/**
 * Makes half-open policies by name for {@code HalfOpenPolicies.named}, found through
 * {@link java.util.ServiceLoader} like {@link WindowProvider}.
 */
public interface HalfOpenPolicyProvider {

    /**
     * The name users look this policy up by, such as {@code "exponential"}.
     *
     * @return the name
     */
    String name();

    /**
     * The setting keys this provider understands; any other key is an error.
     *
     * @return the keys
     */
    Set<String> settingKeys();

    /**
     * Validates the settings and makes a policy.
     *
     * @param settings keys from {@link #settingKeys()} with their text values
     * @return the policy
     * @throws IllegalArgumentException naming the key and value when a setting is bad
     */
    HalfOpenPolicy create(Map<String, String> settings);
}
