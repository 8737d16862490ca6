package dev.breaker.spring;

import dev.breaker.BreakerListener;
import dev.breaker.BreakerRegistry;
import dev.breaker.CallObserver;
import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;

/**
 * The breakers of a Spring Boot application: one {@link BreakerRegistry} built from the
 * {@code breaker.*} configuration ({@link BreakerProperties}) with every {@link BreakerListener}
 * and {@link CallObserver} bean attached, and the {@link Breaker} annotation. Each bean gives way
 * to the application's own ({@code @ConditionalOnMissingBean}).
 */
@AutoConfiguration
@EnableConfigurationProperties(BreakerProperties.class)
public class BreakerAutoConfiguration {

    /** Made by Spring Boot. */
    public BreakerAutoConfiguration() {}

    /**
     * The registry, from the {@code breaker.*} configuration as the properties format of
     * {@code breaker-api} reads it.
     *
     * @param properties  the bound configuration
     * @param environment where the keys came from, for the error message
     * @param listeners   every listener bean, attached to every breaker
     * @param observers   every call observer bean, attached to every breaker
     * @return the registry
     * @throws BreakerConfigurationException naming the key, the value and what is allowed, when the
     *                                       configuration is refused
     */
    @Bean
    @ConditionalOnMissingBean
    public BreakerRegistry breakerRegistry(
            BreakerProperties properties,
            Environment environment,
            ObjectProvider<BreakerListener> listeners,
            ObjectProvider<CallObserver> observers) {
        Map<String, String> keys = properties.toProperties(environment);
        BreakerRegistry.Builder builder;
        try {
            builder = BreakerRegistry.builder(keys);
        } catch (IllegalArgumentException refused) {
            String key = BreakerConfigurationException.keyOf(keys, refused);
            throw new BreakerConfigurationException(
                    key, key == null ? null : keys.get(key), origin(environment, key), refused);
        }
        listeners.orderedStream().forEach(builder::listener);
        observers.orderedStream().forEach(builder::observer);
        return builder.build();
    }

    /** Where Spring found {@code key} (a file and line), or null. */
    static String origin(Environment environment, String key) {
        if (key == null) {
            return null;
        }
        try {
            ConfigurationPropertyName name = ConfigurationPropertyName.adapt(key, '.');
            for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
                ConfigurationProperty property = source.getConfigurationProperty(name);
                if (property != null && property.getOrigin() != null) {
                    return property.getOrigin().toString();
                }
            }
        } catch (RuntimeException unknown) {
            // the origin only adds to the message
        }
        return null;
    }

    /**
     * The advisor that applies {@link Breaker}, an infrastructure bean so that Spring's
     * auto-proxying applies it with or without AspectJ.
     *
     * @param registry the registry, looked up at the first call
     * @return the advisor
     */
    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    @ConditionalOnMissingBean
    public static BreakerAdvisor breakerAdvisor(ObjectProvider<BreakerRegistry> registry) {
        return new BreakerAdvisor(new BreakerInterceptor(registry));
    }

    /**
     * Checks every {@link Breaker} method when its bean is made.
     *
     * @return the checker
     */
    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    public static BreakerBeanValidator breakerBeanValidator() {
        return new BreakerBeanValidator();
    }
}
