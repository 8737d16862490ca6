package dev.breaker.spring;

import dev.breaker.BreakerMetrics;
import java.lang.reflect.Method;
import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.beans.factory.aot.BeanRegistrationAotContribution;
import org.springframework.beans.factory.aot.BeanRegistrationAotProcessor;
import org.springframework.beans.factory.support.RegisteredBean;

/**
 * What a native image needs beyond what Spring Boot declares itself (it declares the binding of
 * {@link BreakerProperties}): the service files through which {@code breaker-api} finds windows,
 * half-open policies and classifiers by name, the endpoint's records for JSON, and, per bean with
 * {@link Breaker} methods, their fallbacks, which the interceptor calls by reflection ({@link Fallbacks}). Registered in {@code META-INF/spring/aot.factories}.
 */
public class BreakerRuntimeHints implements RuntimeHintsRegistrar {

    /** Made by Spring's AOT processing. */
    public BreakerRuntimeHints() {}

    @Override
    public void registerHints(RuntimeHints hints, ClassLoader classLoader) {
        hints.resources().registerPattern("META-INF/services/dev.breaker.spi.*");
        for (Class<?> type :
                new Class<?>[] {BreakerReport.class, BreakersEndpoint.Breakers.class, BreakerMetrics.class}) {
            hints.reflection()
                    .registerType(
                            type, MemberCategory.INVOKE_PUBLIC_CONSTRUCTORS, MemberCategory.INVOKE_PUBLIC_METHODS);
        }
    }

    /**
     * Declares, for every bean whose class has {@link Breaker} methods, their fallbacks for
     * invocation (the annotated methods are reached through the proxy, whose hints Spring makes).
     */
    public static class Fallbacks implements BeanRegistrationAotProcessor {

        /** Made by Spring's AOT processing. */
        public Fallbacks() {}

        @Override
        public BeanRegistrationAotContribution processAheadOfTime(RegisteredBean registeredBean) {
            Class<?> type = registeredBean.getBeanClass();
            if (BreakerMethod.annotated(type).isEmpty()) {
                return null;
            }
            return (context, code) -> register(type, context.getRuntimeHints());
        }

        /**
         * Declares the fallbacks of the {@link Breaker} methods of {@code type}.
         *
         * @param type  a bean class
         * @param hints where to declare them
         * @throws BreakerDeclarationException when a declaration cannot work, as at startup
         */
        static void register(Class<?> type, RuntimeHints hints) {
            for (Method m : BreakerMethod.annotated(type)) {
                BreakerMethod checked = BreakerMethod.of(m, type);
                if (checked.fallback != null) {
                    hints.reflection().registerMethod(checked.fallback, ExecutableMode.INVOKE);
                }
            }
        }
    }
}
