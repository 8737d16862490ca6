package dev.breaker.spring;

import dev.breaker.BreakerRegistry;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The {@code breakers} actuator endpoint, when actuator is on the class path and the endpoint is available. */
@AutoConfiguration(after = BreakerAutoConfiguration.class)
@ConditionalOnClass({Endpoint.class, ConditionalOnAvailableEndpoint.class})
public class BreakerEndpointAutoConfiguration {

    /** Made by Spring Boot. */
    public BreakerEndpointAutoConfiguration() {}

    /**
     * The endpoint's own condition, nested so that it is read only once actuator is known to be
     * on the class path (Spring makes a class's conditions before it evaluates them).
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnAvailableEndpoint(BreakersEndpoint.class)
    public static class Available {

        /** Made by Spring Boot. */
        public Available() {}

        /**
         * The endpoint.
         *
         * @param registry the registry it shows
         * @return the endpoint
         */
        @Bean
        @ConditionalOnMissingBean
        @ConditionalOnBean(BreakerRegistry.class)
        public BreakersEndpoint breakersEndpoint(BreakerRegistry registry) {
            return new BreakersEndpoint(registry);
        }
    }
}
