package dev.breaker.spring;

import dev.breaker.BreakerRegistry;
import dev.breaker.micrometer.BreakerMeterBinder;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Micrometer meters for every breaker of the registry (also breakers made later), when
 * {@code breaker-micrometer} is on the class path and the application has a {@link MeterRegistry}
 * bean: a {@link BreakerMeterBinder} bean, which Spring Boot binds to its meter registries.
 */
@AutoConfiguration(
        after = BreakerAutoConfiguration.class,
        afterName = {
            "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
            "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
            "org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration"
        })
@ConditionalOnClass({MeterRegistry.class, BreakerMeterBinder.class})
@ConditionalOnBean({MeterRegistry.class, BreakerRegistry.class})
public class BreakerMetricsAutoConfiguration {

    /** Made by Spring Boot. */
    public BreakerMetricsAutoConfiguration() {}

    /**
     * The binder; closed with the context, which removes its meters.
     *
     * @param registry the registry
     * @return the binder
     */
    @Bean
    @ConditionalOnMissingBean
    public BreakerMeterBinder breakerMeterBinder(BreakerRegistry registry) {
        return new BreakerMeterBinder(registry);
    }
}
