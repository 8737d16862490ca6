package dev.breaker.window.count.internal;

import dev.breaker.spi.RateThresholds;
import dev.breaker.spi.Settings;
import dev.breaker.spi.WindowFactory;
import dev.breaker.spi.WindowProvider;
import dev.breaker.window.count.CountWindow;
import java.util.Map;
import java.util.Set;

/** Provides the count window under the name {@code "count"}. */
public final class CountWindowProvider implements WindowProvider {

    /** Makes the provider; called by {@link java.util.ServiceLoader}. */
    public CountWindowProvider() {}

    @Override
    public String name() {
        return "count";
    }

    @Override
    public Set<String> settingKeys() {
        return Set.of(
                "size",
                RateThresholds.FAILURE_RATE,
                RateThresholds.SLOW_CALL_RATE,
                RateThresholds.MINIMUM_CALLS,
                "consecutiveFailures");
    }

    @Override
    public WindowFactory create(Map<String, String> settings) {
        Settings s = Settings.of("window 'count'", settings, settingKeys());
        return s.build(() -> {
            CountWindow.Builder b = CountWindow.builder()
                    .size(s.intValue("size", CountWindow.DEFAULT_SIZE, 1))
                    .failureRateThreshold(s.rate(RateThresholds.FAILURE_RATE, RateThresholds.DEFAULT_FAILURE_RATE))
                    .slowCallRateThreshold(
                            s.rate(RateThresholds.SLOW_CALL_RATE, RateThresholds.DEFAULT_SLOW_CALL_RATE));
            if (s.has(RateThresholds.MINIMUM_CALLS)) {
                b.minimumCalls(s.intValue(RateThresholds.MINIMUM_CALLS, 1, 1));
            }
            if (s.has("consecutiveFailures")) {
                b.consecutiveFailures(s.intValue("consecutiveFailures", 1, 1));
            }
            return b.build();
        });
    }
}
