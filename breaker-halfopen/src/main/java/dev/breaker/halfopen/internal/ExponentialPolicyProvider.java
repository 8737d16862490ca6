package dev.breaker.halfopen.internal;

import dev.breaker.halfopen.ExponentialPolicy;
import dev.breaker.spi.HalfOpenPolicy;
import dev.breaker.spi.HalfOpenPolicyProvider;
import dev.breaker.spi.Settings;
import java.util.Map;
import java.util.Set;

/** Provides the exponential policy under the name {@code "exponential"}, with the keys of {@link ExponentialPolicy}. */
public final class ExponentialPolicyProvider implements HalfOpenPolicyProvider {

    /** Makes the provider; called by {@link java.util.ServiceLoader}. */
    public ExponentialPolicyProvider() {}

    @Override
    public String name() {
        return "exponential";
    }

    @Override
    public Set<String> settingKeys() {
        return Set.of(
                "initial", "multiplier", "max", "jitter", "calmPeriod", "probes", "closeAfter", "rampUp", "rampFrom");
    }

    @Override
    public HalfOpenPolicy create(Map<String, String> settings) {
        Settings s = Settings.of("half-open policy 'exponential'", settings, settingKeys());
        return s.build(() -> {
            ExponentialPolicy.Builder b = ExponentialPolicy.builder()
                    .initial(s.duration("initial", ExponentialPolicy.DEFAULT_INITIAL))
                    .multiplier(s.doubleValue("multiplier", ExponentialPolicy.DEFAULT_MULTIPLIER))
                    .jitter(s.share("jitter", 0))
                    .calmPeriod(s.duration("calmPeriod", java.time.Duration.ZERO))
                    .probes(s.intValue("probes", 1, 1))
                    .rampUp(s.duration("rampUp", java.time.Duration.ZERO))
                    .rampFrom(s.share("rampFrom", ExponentialPolicy.DEFAULT_RAMP_FROM));
            if (s.has("max")) {
                b.max(s.duration("max", ExponentialPolicy.DEFAULT_MAX));
            }
            if (s.has("closeAfter")) {
                b.closeAfter(s.intValue("closeAfter", 1, 1));
            }
            return b.build();
        });
    }
}
