package dev.breaker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/**
 * The default methods of {@link CircuitBreaker}, as another implementation gets them: a decorator
 * that forwards every abstract method to a real breaker and inherits the fallback variants.
 * The fallback sees the call's exception or the rejection; a success never reaches it.
 */
class DefaultMethodsTests {

    private final CircuitBreaker real = CircuitBreaker.builder("decorated")
            .window(Windows.consecutiveFailures(1))
            .cooldown(Duration.ofMinutes(1))
            .build();

    /** Forwards abstract methods to {@link #real}; runs the interface's own default methods. */
    private final CircuitBreaker decorator = (CircuitBreaker) Proxy.newProxyInstance(
            CircuitBreaker.class.getClassLoader(), new Class<?>[] {CircuitBreaker.class}, forwardingTo(real));

    private static InvocationHandler forwardingTo(CircuitBreaker target) {
        return (proxy, method, args) -> {
            if (method.isDefault()) {
                return InvocationHandler.invokeDefault(proxy, method, args);
            }
            try {
                return method.invoke(target, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        };
    }

    @Test
    void callWithAFallbackReturnsTheCallsValueAndMapsItsException() {
        assertEquals("value", decorator.call(() -> "value", e -> "fallback"));
        IOException down = new IOException("down");
        List<Exception> seen = new ArrayList<>();
        assertEquals(
                "fallback",
                decorator.call(
                        () -> {
                            throw down;
                        },
                        e -> {
                            seen.add(e);
                            return "fallback";
                        }));
        assertSame(down, seen.get(0));
        assertEquals(
                "rejected",
                decorator.call(() -> "value", e -> e instanceof CallNotPermittedException ? "rejected" : "?"));
    }

    @Test
    void getWithAFallbackReturnsTheCallsValueAndMapsItsException() {
        assertEquals(Integer.valueOf(7), decorator.get(() -> 7, e -> -1));
        assertEquals(
                Integer.valueOf(-1),
                decorator.get(
                        () -> {
                            throw new IllegalStateException("down");
                        },
                        e -> -1));
        assertEquals(
                Integer.valueOf(-2), decorator.get(() -> 7, e -> e instanceof CallNotPermittedException ? -2 : -3));
    }

    @Test
    void runWithAFallbackRunsTheCallAndHandsOverItsException() {
        List<String> log = new ArrayList<>();
        decorator.run(() -> log.add("ran"), e -> log.add("fallback"));
        assertEquals(List.of("ran"), log);
        decorator.run(
                () -> {
                    throw new IllegalStateException("down");
                },
                e -> log.add("fallback: " + e.getMessage()));
        assertEquals(List.of("ran", "fallback: down"), log);
        decorator.run(() -> log.add("not run"), e -> log.add(e.getClass().getSimpleName()));
        assertEquals(List.of("ran", "fallback: down", "CallNotPermittedException"), log);
    }

    @Test
    void callAsyncWithAFallbackKeepsTheValueAndShowsTheFallbackTheCause() {
        assertEquals(
                "value",
                decorator
                        .callAsync(() -> CompletableFuture.completedFuture("value"), t -> "fallback")
                        .toCompletableFuture()
                        .join());
        IOException down = new IOException("down");
        List<Throwable> seen = new ArrayList<>();
        String answer = decorator
                .callAsync(() -> CompletableFuture.<String>failedFuture(down), t -> {
                    seen.add(t);
                    return "fallback";
                })
                .toCompletableFuture()
                .join();
        assertEquals("fallback", answer);
        assertSame(down, seen.get(0), "the cause, not a CompletionException around it");
        assertInstanceOf(
                CallNotPermittedException.class,
                decorator
                        .callAsync(() -> CompletableFuture.completedFuture("value"), t -> t)
                        .toCompletableFuture()
                        .join());
    }

    @Test
    void callAsyncWithAFallbackUnwrapsOnlyACompletionExceptionThatHasACause() {
        IOException withACause = new IOException("down", new IllegalStateException("root"));
        CompletionException withoutACause = new CompletionException("no cause", null);
        for (Throwable failure : List.of(withACause, withoutACause)) {
            Throwable[] seen = new Throwable[1];
            decorator.reset();
            decorator
                    .callAsync(() -> CompletableFuture.<String>failedFuture(failure), t -> {
                        seen[0] = t;
                        return "fallback";
                    })
                    .toCompletableFuture()
                    .join();
            assertSame(failure, seen[0], "shown as it is: " + failure);
        }
    }

    @Test
    void theFallbackVariantsRefuseNullsByName() {
        assertEquals(
                "fallback",
                assertThrows(NullPointerException.class, () -> decorator.get(() -> 1, null))
                        .getMessage());
        assertEquals(
                "runnable",
                assertThrows(NullPointerException.class, () -> decorator.run(null, e -> {}))
                        .getMessage());
    }
}
