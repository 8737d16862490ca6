package dev.breaker.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs every call of the annotated method of a Spring bean through the breaker of the
 * {@link dev.breaker.BreakerRegistry} bean named {@link #value()}, as
 * {@link dev.breaker.CircuitBreaker#call} does for a method that returns a value, and as
 * {@link dev.breaker.CircuitBreaker#callAsync} does for one that returns a
 * {@link java.util.concurrent.CompletionStage} or {@link java.util.concurrent.CompletableFuture}
 * (the breaker judges the stage's outcome; cancelling or timing out the returned future settles
 * the permit as {@code callAsync} describes).
 *
 * <pre>{@code
 * @Service
 * class PaymentsClient {
 *     @Breaker(value = "payments", fallbackMethod = "deferred")
 *     Receipt charge(Order order) { ... }
 *
 *     Receipt deferred(Order order, CallNotPermittedException rejected) { ... }
 * }
 * }</pre>
 *
 * <p><b>The fallback</b> is a method of the same class named {@link #fallbackMethod()}, taking
 * the annotated method's parameters, optionally followed by one {@link Throwable} parameter, and
 * returning a type the annotated method may return. It gets a rejection
 * ({@link dev.breaker.CallNotPermittedException}) or the call's exception, as the breaker's own
 * fallbacks do; one whose last parameter is narrower than {@link Throwable} gets only the
 * exceptions of that type, and the others reach the caller. An {@link Error} never goes to the
 * fallback. Every fallback is checked when the bean is made, and a missing or unfit one stops the
 * application from starting, naming the method.
 *
 * <p><b>Through the proxy only.</b> Spring applies this annotation with a proxy around the bean,
 * so a call from the bean to its own method ({@code this.charge(...)}) does not pass the breaker.
 * The method must be one a proxy can intercept: not {@code private}, {@code static} or
 * {@code final}, or startup fails naming it. If no proxy is made around a bean that has such
 * methods (the application switched Spring's auto-proxying off), startup fails too, instead of
 * leaving the methods unprotected.
 *
 * <p><b>Exceptions wrapped by proxies</b> ({@link java.lang.reflect.UndeclaredThrowableException},
 * {@link java.lang.reflect.InvocationTargetException}) are unwrapped before the breaker judges
 * them, as it unwraps the wrappers of futures: the cause says what happened to the dependency.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface Breaker {

    /**
     * The breaker's name in the registry; its configuration is {@code breaker.instances.<name>.*},
     * inheriting {@code breaker.defaults.*}.
     *
     * @return the name, not blank
     */
    String value();

    /**
     * The name of the fallback method in the same class, or empty (the default) for none.
     *
     * @return the fallback method's name
     */
    String fallbackMethod() default "";
}
