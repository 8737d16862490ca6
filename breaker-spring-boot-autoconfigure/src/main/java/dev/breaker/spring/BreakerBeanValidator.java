package dev.breaker.spring;

import dev.breaker.BreakerRegistry;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.aop.framework.Advised;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.SmartInstantiationAwareBeanPostProcessor;
import org.springframework.core.Ordered;
import org.springframework.util.ClassUtils;

/**
 * Checks every bean with {@link Breaker} methods when it is made, so that a declaration that
 * cannot work stops startup instead of failing (or silently doing nothing) at the first call:
 * <ul>
 * <li>each method's fallback exists and fits, and the method can be intercepted
 *     ({@link BreakerMethod#of});
 * <li>the bean Spring hands out is a proxy advised by {@link BreakerAdvisor}: without Spring's
 *     auto-proxying ({@code spring.aop.auto=false} and no {@code @EnableAspectJAutoProxy}) the
 *     annotation would do nothing. A scoped proxy (request, session, refresh scope) passes each
 *     call to a target bean the bean factory makes; that target is the bean checked.
 * </ul>
 * Once every singleton is made, the breakers the annotations name are made in the registry, so
 * that they appear in the actuator endpoint and the metrics before their first call. A name in
 * {@code breaker.health.include} that no annotation declares and no {@code breaker.instances} key
 * configures is then logged as a warning: it is most likely misspelt, and the health contributor
 * would report it "not made yet" (so {@code UP}) for as long as no code makes a breaker of that
 * name. Only a warning, since code may make it later through the registry.
 *
 * <p>Runs after every other post-processor, so it sees the proxy the auto-proxy creator made.
 */
public final class BreakerBeanValidator
        implements SmartInstantiationAwareBeanPostProcessor, SmartInitializingSingleton, BeanFactoryAware, Ordered {

    private static final Log LOG = LogFactory.getLog(BreakerBeanValidator.class);

    private final Set<String> earlyChecked = ConcurrentHashMap.newKeySet();
    private final Set<String> names = ConcurrentHashMap.newKeySet();
    private BeanFactory beanFactory;

    /** Made by the auto-configuration. */
    public BreakerBeanValidator() {}

    @Override
    public void setBeanFactory(BeanFactory beanFactory) {
        this.beanFactory = beanFactory;
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }

    @Override
    public Object getEarlyBeanReference(Object bean, String beanName) throws BeansException {
        // a bean taken early (a circular reference) is proxied here, and handed out as it is now
        if (check(bean, beanName)) {
            earlyChecked.add(beanName);
        }
        return bean;
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) throws BeansException {
        if (beanName == null || !earlyChecked.remove(beanName)) {
            check(bean, beanName);
        }
        return bean;
    }

    /** Checks one bean; whether it has {@link Breaker} methods. */
    private boolean check(Object bean, String beanName) {
        Class<?> type = ClassUtils.getUserClass(AopUtils.getTargetClass(bean));
        List<Method> annotated = BreakerMethod.annotated(type);
        if (annotated.isEmpty()) {
            return false;
        }
        for (Method m : annotated) {
            names.add(BreakerMethod.of(m, type).name);
        }
        boolean advised = bean instanceof Advised a
                && Arrays.stream(a.getAdvisors()).anyMatch(x -> x.getAdvice() instanceof BreakerInterceptor);
        if (!advised && bean instanceof Advised a && !a.getTargetSource().isStatic()) {
            // a scoped proxy (request, session, refresh scope) or a lazy one: every call goes to a
            // target that the bean factory makes, which is proxied and checked here when it is made
            return true;
        }
        if (!advised) {
            throw new BreakerDeclarationException("bean '" + beanName + "' (" + type.getName()
                    + ") has @Breaker methods but Spring did not proxy it, so no call would pass a breaker: "
                    + annotated.stream().map(BreakerMethod::describe).sorted().collect(Collectors.joining(", "))
                    + ". Spring's auto-proxying is off (spring.aop.auto=false without @EnableAspectJAutoProxy"
                    + " or another auto-proxy creator, or spring.aop.proxy-target-class=false without AspectJ"
                    + " on the class path, for which Spring Boot makes no auto-proxy creator), or the bean is"
                    + " made before it (a BeanPostProcessor or a bean one depends on)");
        }
        return true;
    }

    @Override
    public void afterSingletonsInstantiated() {
        BreakerRegistry registry =
                beanFactory.getBeanProvider(BreakerRegistry.class).getIfAvailable();
        if (registry != null) {
            for (String name : new TreeSet<>(names)) {
                registry.breaker(name);
            }
        }
        BreakerProperties properties =
                beanFactory.getBeanProvider(BreakerProperties.class).getIfAvailable();
        if (properties != null) {
            for (String name : unknownHealthNames(properties, names)) {
                LOG.warn("breaker.health.include names the breaker '" + name + "', which no @Breaker method declares"
                        + " and no breaker.instances key configures: the 'breakers' health contributor reports it"
                        + " as not made yet (UP) until code makes a breaker of that name. Is it misspelt?");
            }
        }
    }

    /**
     * The names {@code breaker.health.include} lists that none of {@code declared} is and no
     * {@code breaker.instances.<name>.<key>} configures, in the order listed.
     *
     * @param properties the bound properties
     * @param declared   the names the {@link Breaker} annotations give
     * @return the names nothing makes or configures
     */
    static List<String> unknownHealthNames(BreakerProperties properties, Collection<String> declared) {
        List<String> unknown = new ArrayList<>();
        for (String name : properties.getHealth().getInclude()) {
            if (name == null || name.isBlank()) {
                continue; // no name to misspell (a YAML list's empty item, say)
            }
            boolean configured = properties.getInstances().keySet().stream().anyMatch(k -> k.startsWith(name + "."));
            if (!declared.contains(name) && !configured && !unknown.contains(name)) {
                unknown.add(name);
            }
        }
        return unknown;
    }
}
