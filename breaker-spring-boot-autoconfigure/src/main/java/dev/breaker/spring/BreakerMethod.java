package dev.breaker.spring;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.springframework.core.BridgeMethodResolver;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * One {@link Breaker} method of one bean class, checked: its breaker's name, whether it is
 * asynchronous, and its fallback. Made once per method when the bean is made (so that a bad
 * declaration stops startup) and again, cached, by the interceptor.
 */
final class BreakerMethod {

    /**
     * Types whose outcome arrives after the method returns, by name (none of their libraries is a
     * dependency): Reactive Streams and JDK publishers (Reactor's {@code Mono} and {@code Flux}
     * among them), RxJava 2 and 3 sources, Kotlin's {@code Deferred} and {@code Flow}.
     */
    private static final java.util.Set<String> UNSUPPORTED_ASYNC = java.util.Set.of(
            "org.reactivestreams.Publisher",
            "java.util.concurrent.Flow$Publisher",
            "io.reactivex.SingleSource",
            "io.reactivex.MaybeSource",
            "io.reactivex.CompletableSource",
            "io.reactivex.ObservableSource",
            "io.reactivex.rxjava3.core.SingleSource",
            "io.reactivex.rxjava3.core.MaybeSource",
            "io.reactivex.rxjava3.core.CompletableSource",
            "io.reactivex.rxjava3.core.ObservableSource",
            "kotlinx.coroutines.Deferred",
            "kotlinx.coroutines.flow.Flow");

    final Method method;
    final String name;
    /** The method returns a {@link CompletionStage} or a {@link CompletableFuture}. */
    final boolean async;
    /** The fallback, accessible, or null. */
    final Method fallback;
    /** The type of the fallback's trailing exception parameter, or null when it takes none. */
    final Class<?> handled;

    private BreakerMethod(Method method, String name, boolean async, Method fallback, Class<?> handled) {
        this.method = method;
        this.name = name;
        this.async = async;
        this.fallback = fallback;
        this.handled = handled;
    }

    /**
     * The methods of {@code type} and its supertypes that carry {@link Breaker} (on them or on a
     * method they override), the most specific declaration of each.
     *
     * @param type the bean's own class (not a proxy's)
     * @return the methods, in no particular order
     */
    static List<Method> annotated(Class<?> type) {
        List<Method> found = new ArrayList<>();
        doWithMethods(
                type,
                m -> {
                    Method specific = specific(m, type);
                    if (found.stream().noneMatch(f -> f.equals(specific) || overrides(f, specific))) {
                        found.add(specific);
                    }
                },
                m -> !m.isBridge()
                        && !m.isSynthetic()
                        && m.getDeclaringClass() != Object.class
                        && AnnotatedElementUtils.hasAnnotation(m, Breaker.class));
        return found;
    }

    /**
     * Checks a {@link Breaker} method of a bean class and finds its fallback.
     *
     * @param declared    the method (as a proxy sees it, or found by {@link #annotated})
     * @param targetClass the bean's own class
     * @return the checked method
     * @throws BreakerDeclarationException naming the method when it cannot work as written
     */
    static BreakerMethod of(Method declared, Class<?> targetClass) {
        Method method = BridgeMethodResolver.findBridgedMethod(specific(declared, targetClass));
        Breaker breaker = AnnotatedElementUtils.findMergedAnnotation(method, Breaker.class);
        if (breaker == null) {
            throw new BreakerDeclarationException(describe(method) + " has no @Breaker annotation");
        }
        String name = breaker.value();
        if (name.isBlank()) {
            throw new BreakerDeclarationException(
                    "@Breaker on " + describe(method) + ": the breaker's name must not be blank, was '" + name + "'");
        }
        int modifiers = method.getModifiers();
        if (Modifier.isPrivate(modifiers) || Modifier.isStatic(modifiers) || Modifier.isFinal(modifiers)) {
            throw new BreakerDeclarationException("@Breaker(\"" + name + "\") on " + describe(method)
                    + ": a "
                    + (Modifier.isPrivate(modifiers) ? "private" : Modifier.isStatic(modifiers) ? "static" : "final")
                    + " method cannot be intercepted by a Spring proxy, so the breaker would never see its calls;"
                    + " make it a non-final instance method that is not private");
        }
        Class<?> returns = method.getReturnType();
        boolean async = returns == CompletionStage.class || returns == CompletableFuture.class;
        if (!async
                && (Future.class.isAssignableFrom(returns)
                        || CompletionStage.class.isAssignableFrom(returns)
                        || unsupportedAsync(returns))) {
            throw new BreakerDeclarationException(
                    "@Breaker(\"" + name + "\") on " + describe(method)
                            + ": returns " + returns.getName() + ", whose outcome arrives after the method returns;"
                            + " the breaker judges a CompletionStage or a CompletableFuture (declare one of those) or a plain value");
        }
        String fallbackName = breaker.fallbackMethod();
        if (fallbackName.isEmpty()) {
            return new BreakerMethod(method, name, async, null, null);
        }
        Class<?>[] params = method.getParameterTypes();
        List<Method> candidates = new ArrayList<>();
        List<Method> named = new ArrayList<>();
        doWithMethods(
                targetClass,
                m -> {
                    named.add(m);
                    Class<?>[] p = m.getParameterTypes();
                    boolean same = Arrays.equals(p, params);
                    boolean withThrowable = p.length == params.length + 1
                            && Arrays.equals(Arrays.copyOf(p, params.length), params)
                            && Throwable.class.isAssignableFrom(p[params.length]);
                    if ((same || withThrowable) && candidates.stream().noneMatch(c -> overrides(c, m))) {
                        candidates.add(m);
                    }
                },
                m -> m.getName().equals(fallbackName) && !m.isBridge() && !m.isSynthetic());
        String expected = fallbackName + "(" + names(params) + ") or " + fallbackName + "(" + names(params)
                + (params.length == 0 ? "" : ", ") + "Throwable or a subtype)";
        if (candidates.isEmpty()) {
            throw new BreakerDeclarationException("@Breaker(\"" + name + "\") on " + describe(method)
                    + ": no fallback method " + expected + " in " + targetClass.getName()
                    + (named.isEmpty()
                            ? ""
                            : "; found "
                                    + named.stream()
                                            .map(BreakerMethod::describe)
                                            .collect(Collectors.joining(", "))));
        }
        if (candidates.size() > 1) {
            throw new BreakerDeclarationException("@Breaker(\"" + name + "\") on " + describe(method)
                    + ": the fallback is ambiguous, "
                    + candidates.stream().map(BreakerMethod::describe).collect(Collectors.joining(" and "))
                    + " both fit; keep one");
        }
        Method fallback = candidates.get(0);
        // an async method returns a future of the interceptor's own, which any stage can complete
        boolean fits = async
                ? CompletionStage.class.isAssignableFrom(fallback.getReturnType())
                : ClassUtils.isAssignable(returns, fallback.getReturnType())
                        && (returns == void.class) == (fallback.getReturnType() == void.class);
        if (!fits) {
            throw new BreakerDeclarationException("@Breaker(\"" + name + "\") on " + describe(method)
                    + ": the fallback " + describe(fallback) + " returns "
                    + fallback.getReturnType().getName()
                    + ", which " + method.getName() + " cannot return (it returns " + returns.getName()
                    + (async ? "; an asynchronous method's fallback returns a CompletionStage" : "") + ")");
        }
        ReflectionUtils.makeAccessible(fallback);
        Class<?> handled =
                fallback.getParameterCount() > params.length ? fallback.getParameterTypes()[params.length] : null;
        return new BreakerMethod(method, name, async, fallback, handled);
    }

    /**
     * The method a call of {@code m} on an instance of {@code type} runs. For a JDK proxy class (an
     * HTTP interface client, say), the interface's method: the proxy class redeclares each one
     * {@code final}, without annotations, and Spring proxies such a bean through its interfaces.
     */
    private static Method specific(Method m, Class<?> type) {
        return Proxy.isProxyClass(type) ? m : ClassUtils.getMostSpecificMethod(m, type);
    }

    /** The methods of {@code type} and its superclasses, or of its interfaces when it is a JDK proxy class. */
    private static void doWithMethods(
            Class<?> type, ReflectionUtils.MethodCallback callback, ReflectionUtils.MethodFilter filter) {
        if (Proxy.isProxyClass(type)) {
            for (Class<?> i : type.getInterfaces()) {
                ReflectionUtils.doWithMethods(i, callback, filter);
            }
        } else {
            ReflectionUtils.doWithMethods(type, callback, filter);
        }
    }

    private static boolean overrides(Method sub, Method sup) {
        return sub.getName().equals(sup.getName()) && Arrays.equals(sub.getParameterTypes(), sup.getParameterTypes());
    }

    /**
     * Whether the type or any of its supertypes, interfaces of interfaces included, is one of
     * {@link #UNSUPPORTED_ASYNC} (Reactor's {@code Mono} reaches {@code Publisher} only through
     * {@code CorePublisher}: the interfaces a class declares are not enough).
     */
    private static boolean unsupportedAsync(Class<?> type) {
        java.util.ArrayDeque<Class<?>> toSee = new java.util.ArrayDeque<>(List.of(type));
        java.util.Set<Class<?>> seen = new java.util.HashSet<>();
        while (!toSee.isEmpty()) {
            Class<?> c = toSee.pop();
            if (!seen.add(c)) {
                continue;
            }
            if (UNSUPPORTED_ASYNC.contains(c.getName())) {
                return true;
            }
            if (c.getSuperclass() != null) {
                toSee.push(c.getSuperclass());
            }
            toSee.addAll(Arrays.asList(c.getInterfaces()));
        }
        return false;
    }

    /** Whether the fallback takes {@code failure}. */
    boolean handles(Throwable failure) {
        return fallback != null && (handled == null || handled.isInstance(failure));
    }

    /**
     * Calls the fallback on {@code target} with the call's arguments (and the failure, when it
     * takes one). What it throws reaches the caller as thrown.
     */
    Object fallback(Object target, Object[] args, Throwable failure) throws Throwable {
        Object[] withFailure = args;
        if (handled != null) {
            withFailure = Arrays.copyOf(args, args.length + 1);
            withFailure[args.length] = failure;
        }
        try {
            return fallback.invoke(Modifier.isStatic(fallback.getModifiers()) ? null : target, withFailure);
        } catch (InvocationTargetException e) {
            throw e.getCause() != null ? e.getCause() : e;
        }
    }

    static String describe(Method m) {
        return m.getDeclaringClass().getName() + "." + m.getName() + "(" + names(m.getParameterTypes()) + ")";
    }

    private static String names(Class<?>[] types) {
        return Arrays.stream(types).map(Class::getSimpleName).collect(Collectors.joining(", "));
    }

    @Override
    public String toString() {
        return "@Breaker(\"" + name + "\") " + describe(method);
    }
}
