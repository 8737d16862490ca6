package dev.breaker.spring;

import dev.breaker.BreakerRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The {@code breakers} health contributor, when Spring Boot's health support is on the class path
 * and {@code management.health.breakers.enabled} is not false. It reports only the breakers named
 * in {@code breaker.health.include}.
 */
@AutoConfiguration(after = BreakerAutoConfiguration.class)
@ConditionalOnClass({HealthIndicator.class, ConditionalOnEnabledHealthIndicator.class})
public class BreakerHealthAutoConfiguration {

    /** Made by Spring Boot. */
    public BreakerHealthAutoConfiguration() {}

    /**
     * The contributor's own condition, nested so that it is read only once Spring Boot's health
     * support is known to be on the class path.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnEnabledHealthIndicator("breakers")
    public static class Enabled {

        /** Made by Spring Boot. */
        public Enabled() {}

        /**
         * The contributor; its bean name makes its name {@code breakers}.
         *
         * @param registry   the registry
         * @param properties {@code breaker.health.include}
         * @return the contributor
         */
        @Bean
        @ConditionalOnMissingBean(name = "breakersHealthIndicator")
        @ConditionalOnBean(BreakerRegistry.class)
        public BreakersHealthIndicator breakersHealthIndicator(BreakerRegistry registry, BreakerProperties properties) {
            return new BreakersHealthIndicator(registry, properties.getHealth().getInclude());
        }
    }
}
