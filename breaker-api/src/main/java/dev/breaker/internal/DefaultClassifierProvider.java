package dev.breaker.internal;

import dev.breaker.FailureClassifier;
import dev.breaker.spi.FailureClassifierProvider;
import dev.breaker.spi.Settings;
import java.util.Map;
import java.util.Set;

/** Provides the default classifier under the name {@code "default"}; no settings. */
public final class DefaultClassifierProvider implements FailureClassifierProvider {

    /** Makes the provider; called by {@link java.util.ServiceLoader}. */
    public DefaultClassifierProvider() {}

    @Override
    public String name() {
        return "default";
    }

    @Override
    public Set<String> settingKeys() {
        return Set.of();
    }

    @Override
    public FailureClassifier create(Map<String, String> settings) {
        Settings.of("failure classifier 'default'", settings, settingKeys());
        return DefaultClassifier.INSTANCE;
    }
}
