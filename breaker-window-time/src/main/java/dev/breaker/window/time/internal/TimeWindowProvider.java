package dev.breaker.window.time.internal;

import dev.breaker.spi.RateThresholds;
import dev.breaker.spi.Settings;
import dev.breaker.spi.WindowFactory;
import dev.breaker.spi.WindowProvider;
import dev.breaker.window.time.TimeWindow;
import java.util.Map;
import java.util.Set;

/** Provides the time window under the name {@code "time"}. */
public final class TimeWindowProvider implements WindowProvider {

    /** Makes the provider; called by {@link java.util.ServiceLoader}. */
    public TimeWindowProvider() {}

    @Override
    public String name() {
        return "time";
    }

    @Override
    public Set<String> settingKeys() {
        return Set.of(
                "length",
                "buckets",
                RateThresholds.FAILURE_RATE,
                RateThresholds.SLOW_CALL_RATE,
                RateThresholds.MINIMUM_CALLS);
    }

    @Override
    public WindowFactory create(Map<String, String> settings) {
        Settings s = Settings.of("window 'time'", settings, settingKeys());
        return s.build(() -> TimeWindow.builder()
                .length(s.duration("length", TimeWindow.DEFAULT_LENGTH))
                .buckets(s.intValue("buckets", TimeWindow.DEFAULT_BUCKETS, 1))
                .failureRateThreshold(s.rate(RateThresholds.FAILURE_RATE, RateThresholds.DEFAULT_FAILURE_RATE))
                .slowCallRateThreshold(s.rate(RateThresholds.SLOW_CALL_RATE, RateThresholds.DEFAULT_SLOW_CALL_RATE))
                .minimumCalls(s.intValue(RateThresholds.MINIMUM_CALLS, TimeWindow.DEFAULT_MINIMUM_CALLS, 1))
                .build());
    }
}
