package dev.breaker.internal;

import dev.breaker.CircuitBreakerConfig;
import dev.breaker.spi.Settings;
import dev.breaker.spi.WindowFactory;
import dev.breaker.spi.WindowProvider;
import java.util.Map;
import java.util.Set;

/** Provides the built-in window under the name {@code "consecutive"}; setting {@code threshold} (default 5). */
public final class ConsecutiveWindowProvider implements WindowProvider {

    /** Makes the provider; called by {@link java.util.ServiceLoader}. */
    public ConsecutiveWindowProvider() {}

    @Override
    public String name() {
        return "consecutive";
    }

    @Override
    public Set<String> settingKeys() {
        return Set.of("threshold");
    }

    @Override
    public WindowFactory create(Map<String, String> settings) {
        Settings s = Settings.of("window 'consecutive'", settings, settingKeys());
        return ConsecutiveWindow.factory(s.intValue("threshold", CircuitBreakerConfig.DEFAULT_CONSECUTIVE_FAILURES, 1));
    }
}
