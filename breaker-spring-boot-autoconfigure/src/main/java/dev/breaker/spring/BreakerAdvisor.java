package dev.breaker.spring;

import org.aopalliance.aop.Advice;
import org.springframework.aop.Pointcut;
import org.springframework.aop.support.AbstractPointcutAdvisor;
import org.springframework.aop.support.annotation.AnnotationMatchingPointcut;

/**
 * Applies {@link BreakerInterceptor} to the methods that carry {@link Breaker} (on the method or
 * on a method it overrides). Spring's auto-proxying picks it up as an infrastructure advisor, so
 * it works with or without AspectJ on the class path.
 */
public final class BreakerAdvisor extends AbstractPointcutAdvisor {

    private static final long serialVersionUID = 1L;

    private final transient Pointcut pointcut = new AnnotationMatchingPointcut(null, Breaker.class, true);
    private final transient BreakerInterceptor interceptor;

    /**
     * Advises with {@code interceptor}.
     *
     * @param interceptor the interceptor
     */
    public BreakerAdvisor(BreakerInterceptor interceptor) {
        this.interceptor = interceptor;
    }

    @Override
    public Pointcut getPointcut() {
        return pointcut;
    }

    @Override
    public Advice getAdvice() {
        return interceptor;
    }
}
