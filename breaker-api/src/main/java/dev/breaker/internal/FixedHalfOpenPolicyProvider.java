package dev.breaker.internal;

import dev.breaker.CircuitBreakerConfig;
import dev.breaker.spi.HalfOpenPolicy;
import dev.breaker.spi.HalfOpenPolicyProvider;
import dev.breaker.spi.Settings;
import java.util.Map;
import java.util.Set;

/** Provides the default policy under the name {@code "fixed"}; settings {@code cooldown} (default PT60S), {@code probes} (default 1). */
public final class FixedHalfOpenPolicyProvider implements HalfOpenPolicyProvider {

    /** Makes the provider; called by {@link java.util.ServiceLoader}. */
    public FixedHalfOpenPolicyProvider() {}

    @Override
    public String name() {
        return "fixed";
    }

    @Override
    public Set<String> settingKeys() {
        return Set.of("cooldown", "probes");
    }

    @Override
    public HalfOpenPolicy create(Map<String, String> settings) {
        Settings s = Settings.of("half-open policy 'fixed'", settings, settingKeys());
        return FixedHalfOpenPolicy.of(
                s.duration("cooldown", CircuitBreakerConfig.DEFAULT_COOLDOWN),
                s.intValue("probes", CircuitBreakerConfig.DEFAULT_PROBES, 1));
    }
}
