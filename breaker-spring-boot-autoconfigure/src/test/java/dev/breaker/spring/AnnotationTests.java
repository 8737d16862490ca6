package dev.breaker.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.breaker.BreakerRegistry;
import dev.breaker.CallNotPermittedException;
import dev.breaker.CircuitBreaker;
import dev.breaker.State;
import java.io.IOException;
import java.lang.reflect.Proxy;
import java.lang.reflect.UndeclaredThrowableException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.springframework.aop.support.AopUtils;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Scope;
import org.springframework.context.annotation.ScopedProxyMode;

/**
 * {@link Breaker} on bean methods: calls pass the breaker, rejections and failures reach the
 * fallback, async methods use the breaker's async path, wrapped exceptions are judged by their
 * cause, and every declaration that cannot work stops startup naming the method.
 */
class AnnotationTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, BreakerAutoConfiguration.class))
            .withPropertyValues("breaker.defaults.window.threshold=2", "breaker.defaults.cooldown=1h");

    /** A dependency that fails while {@code down} is set. */
    static class Flaky {
        volatile boolean down;
        final List<Throwable> fallbackSaw = new CopyOnWriteArrayList<>();
        volatile CompletableFuture<String> pending;

        @Breaker(value = "flaky", fallbackMethod = "cached")
        public String get(String key) throws IOException {
            if (down) {
                throw new IOException("down");
            }
            return "fresh " + key;
        }

        String cached(String key, Exception e) {
            fallbackSaw.add(e);
            return "cached " + key;
        }

        @Breaker("plain")
        public String plain() throws IOException {
            throw new IOException("no fallback");
        }

        @Breaker(value = "rejectionsOnly", fallbackMethod = "busy")
        public String rejectionsOnly() {
            throw new IllegalStateException("a failure, not a rejection");
        }

        String busy(CallNotPermittedException e) {
            return "busy";
        }

        @Breaker(value = "async", fallbackMethod = "asyncFallback")
        public CompletableFuture<String> async(boolean fail) {
            return fail
                    ? CompletableFuture.failedFuture(new IOException("async down"))
                    : CompletableFuture.completedFuture("ok");
        }

        CompletionStage<String> asyncFallback(boolean fail, Throwable t) {
            fallbackSaw.add(t);
            return CompletableFuture.completedFuture("async fallback");
        }

        @Breaker("hanging")
        public CompletableFuture<String> hanging() {
            pending = new CompletableFuture<>();
            return pending;
        }

        @Breaker(value = "hangingWithFallback", fallbackMethod = "hangingFallback")
        public CompletionStage<String> hangingWithFallback() {
            pending = new CompletableFuture<>();
            return pending;
        }

        CompletionStage<String> hangingFallback(Throwable t) {
            fallbackSaw.add(t);
            return CompletableFuture.completedFuture("late fallback");
        }

        @Breaker("wrapped")
        public String wrapped(Exception cause) {
            throw new UndeclaredThrowableException(cause);
        }
    }

    private ApplicationContextRunner withFlaky() {
        return runner.withBean(Flaky.class);
    }

    @Test
    void callsPassTheBreakerAndRejectionsAndFailuresReachTheFallback() {
        withFlaky().run(context -> {
            Flaky flaky = context.getBean(Flaky.class);
            assertThat(AopUtils.isAopProxy(flaky)).isTrue();
            CircuitBreaker breaker = context.getBean(BreakerRegistry.class).breaker("flaky");
            Flaky target = (Flaky) org.springframework.aop.framework.AopProxyUtils.getSingletonTarget(flaky);
            assertThat(flaky.get("a")).isEqualTo("fresh a");
            target.down = true; // the proxy's own fields are not the bean's
            assertThat(flaky.get("b")).isEqualTo("cached b");
            assertThat(flaky.get("c")).isEqualTo("cached c");
            assertThat(breaker.state()).isEqualTo(State.OPEN);
            target.down = false;
            assertThat(flaky.get("d")).isEqualTo("cached d"); // rejected: the dependency is not called
            assertThat(target.fallbackSaw).hasSize(3);
            assertThat(target.fallbackSaw.get(0))
                    .isInstanceOf(IOException.class)
                    .hasMessage("down");
            assertThat(target.fallbackSaw.get(2)).isInstanceOf(CallNotPermittedException.class);
            assertThat(breaker.metrics().totalSuccesses()).isEqualTo(1);
            assertThat(breaker.metrics().totalFailures()).isEqualTo(2);
            assertThat(breaker.metrics().rejectedCalls()).isEqualTo(1);
        });
    }

    @Test
    void withoutAFallbackTheCallerGetsTheExceptionOrTheRejection() {
        withFlaky().run(context -> {
            Flaky flaky = context.getBean(Flaky.class);
            assertThatThrownBy(flaky::plain).isInstanceOf(IOException.class);
            assertThatThrownBy(flaky::plain).isInstanceOf(IOException.class);
            assertThatThrownBy(flaky::plain)
                    .isInstanceOf(CallNotPermittedException.class)
                    .hasMessageContaining("plain");
        });
    }

    @Test
    void aFallbackThatTakesANarrowerExceptionGetsOnlyThoseAndTheRestReachTheCaller() {
        withFlaky().run(context -> {
            Flaky flaky = context.getBean(Flaky.class);
            assertThatThrownBy(flaky::rejectionsOnly).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(flaky::rejectionsOnly).isInstanceOf(IllegalStateException.class);
            assertThat(flaky.rejectionsOnly()).isEqualTo("busy");
        });
    }

    @Test
    void asyncMethodsUseTheAsyncPathAndTheirFallbackGetsTheCause() throws Exception {
        withFlaky().run(context -> {
            Flaky flaky = context.getBean(Flaky.class);
            Flaky target = (Flaky) org.springframework.aop.framework.AopProxyUtils.getSingletonTarget(flaky);
            CircuitBreaker breaker = context.getBean(BreakerRegistry.class).breaker("async");
            assertThat(flaky.async(false).get()).isEqualTo("ok");
            assertThat(flaky.async(true).get()).isEqualTo("async fallback");
            assertThat(flaky.async(true).get()).isEqualTo("async fallback");
            assertThat(breaker.state()).isEqualTo(State.OPEN);
            assertThat(flaky.async(false).get()).isEqualTo("async fallback");
            assertThat(target.fallbackSaw.get(0))
                    .isInstanceOf(IOException.class)
                    .hasMessage("async down");
            assertThat(target.fallbackSaw.get(2)).isInstanceOf(CallNotPermittedException.class);
        });
    }

    @Test
    void cancellingTheReturnedFutureReleasesThePermitAndATimeoutIsAFailure() {
        withFlaky().run(context -> {
            Flaky flaky = context.getBean(Flaky.class);
            Flaky target = (Flaky) org.springframework.aop.framework.AopProxyUtils.getSingletonTarget(flaky);
            CircuitBreaker hanging = context.getBean(BreakerRegistry.class).breaker("hanging");
            CompletableFuture<String> call = flaky.hanging();
            call.cancel(true);
            assertThat(target.pending).isCancelled(); // the call's own stage is cancelled too
            assertThat(hanging.metrics().totalIgnored()).isEqualTo(1);
            assertThat(hanging.metrics().totalFailures()).isZero();
            ExecutionException timedOut = org.junit.jupiter.api.Assertions.assertThrows(
                    ExecutionException.class,
                    () -> flaky.hanging().orTimeout(10, TimeUnit.MILLISECONDS).get());
            assertThat(timedOut).hasCauseInstanceOf(TimeoutException.class);
            eventually(() -> hanging.metrics().totalFailures(), 1);

            CircuitBreaker withFallback = context.getBean(BreakerRegistry.class).breaker("hangingWithFallback");
            CompletableFuture<String> second = flaky.hangingWithFallback().toCompletableFuture();
            second.cancel(true);
            assertThat(withFallback.metrics().totalIgnored()).isEqualTo(1);
            assertThat(target.pending).isCancelled();
            String value = flaky.hangingWithFallback()
                    .toCompletableFuture()
                    .orTimeout(10, TimeUnit.MILLISECONDS)
                    .exceptionally(t -> "timed out: " + t.getClass().getSimpleName())
                    .get();
            assertThat(value).isEqualTo("timed out: TimeoutException");
            eventually(() -> withFallback.metrics().totalFailures(), 1);
        });
    }

    /**
     * Waits up to 10 s for a count the breaker records on the thread that completes a stage: that
     * thread may wake a caller's {@code get()} before it runs the breaker's callback (a
     * {@code CompletableFuture} runs its dependents last-in first-out), so the count can trail the
     * caller by a moment. Failed once in CI with 0 for 1 (2026-12-01).
     */
    private static void eventually(java.util.function.LongSupplier count, long expected) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (count.getAsLong() != expected && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertThat(count.getAsLong()).isEqualTo(expected);
    }

    @Test
    void anExceptionWrappedByAProxyIsJudgedByItsCause() {
        runner.withBean(Flaky.class)
                .withPropertyValues(
                        "breaker.instances.wrapped.classifier.type=exceptions",
                        "breaker.instances.wrapped.classifier.record-exceptions=java.io.IOException")
                .run(context -> {
                    Flaky flaky = context.getBean(Flaky.class);
                    CircuitBreaker breaker =
                            context.getBean(BreakerRegistry.class).breaker("wrapped");
                    assertThatThrownBy(() -> flaky.wrapped(new IOException("io")))
                            .isInstanceOf(UndeclaredThrowableException.class)
                            .cause()
                            .isInstanceOf(IOException.class);
                    assertThat(breaker.metrics().totalFailures())
                            .as("a recorded IOException")
                            .isEqualTo(1);
                    assertThatThrownBy(() -> flaky.wrapped(new IllegalStateException("answered")))
                            .isInstanceOf(IllegalStateException.class);
                    assertThat(breaker.metrics().totalSuccesses())
                            .as("an unrecorded exception")
                            .isEqualTo(1);
                    assertThatThrownBy(() -> flaky.wrapped(new InterruptedException()))
                            .isInstanceOf(UndeclaredThrowableException.class);
                    assertThat(breaker.metrics().totalIgnored())
                            .as("the caller gave up")
                            .isEqualTo(1);
                    Thread.interrupted(); // the flag the breaker kept
                });
    }

    @Test
    void theBreakersTheAnnotationsNameAreMadeAtStartup() {
        withFlaky()
                .run(context -> assertThat(
                                context.getBean(BreakerRegistry.class).breakers())
                        .extracting(CircuitBreaker::name)
                        .contains("flaky", "plain", "async", "hanging", "wrapped"));
    }

    static class MissingFallback {
        @Breaker(value = "x", fallbackMethod = "nowhere")
        public String call(String a, int b) {
            return a;
        }

        String nowhere(String a) {
            return a;
        }
    }

    static class WrongReturn {
        @Breaker(value = "x", fallbackMethod = "other")
        public String call() {
            return "";
        }

        Integer other(Throwable t) {
            return 1;
        }
    }

    static class Ambiguous {
        @Breaker(value = "x", fallbackMethod = "other")
        public String call() {
            return "";
        }

        String other() {
            return "";
        }

        String other(Exception e) {
            return "";
        }
    }

    static class FinalMethod {
        @Breaker("x")
        public final String call() {
            return "";
        }
    }

    static class FutureReturn {
        @Breaker("x")
        public java.util.concurrent.Future<String> call() {
            return CompletableFuture.completedFuture("");
        }
    }

    /** As Reactor's CorePublisher: a Publisher only through another interface. */
    interface CorePublisherLike<T> extends java.util.concurrent.Flow.Publisher<T> {}

    /** As Reactor's Mono: declares only the interface above. */
    static final class MonoLike<T> implements CorePublisherLike<T> {
        @Override
        public void subscribe(java.util.concurrent.Flow.Subscriber<? super T> subscriber) {}
    }

    static class PublisherThroughAnotherInterface {
        @Breaker("x")
        public MonoLike<String> call() {
            return new MonoLike<>();
        }
    }

    static class BlankName {
        @Breaker(" ")
        public String call() {
            return "";
        }
    }

    @Test
    void aMissingFallbackStopsStartupNamingTheMethodAndWhatFits() {
        runner.withBean(MissingFallback.class)
                .run(context -> assertThat(context.getStartupFailure())
                        .rootCause()
                        .isInstanceOf(BreakerDeclarationException.class)
                        .hasMessage(
                                "@Breaker(\"x\") on dev.breaker.spring.AnnotationTests$MissingFallback.call(String, int):"
                                        + " no fallback method nowhere(String, int) or nowhere(String, int, Throwable or a subtype)"
                                        + " in dev.breaker.spring.AnnotationTests$MissingFallback; found"
                                        + " dev.breaker.spring.AnnotationTests$MissingFallback.nowhere(String)"));
    }

    @Test
    void unfitDeclarationsStopStartupNamingTheMethod() {
        runner.withBean(WrongReturn.class)
                .run(context -> assertThat(context.getStartupFailure())
                        .rootCause()
                        .hasMessageContaining("AnnotationTests$WrongReturn.call()")
                        .hasMessageContaining(
                                "returns java.lang.Integer, which call cannot return (it returns java.lang.String)"));
        runner.withBean(Ambiguous.class)
                .run(context -> assertThat(context.getStartupFailure())
                        .rootCause()
                        .hasMessageContaining("AnnotationTests$Ambiguous.call()")
                        .hasMessageContaining("the fallback is ambiguous"));
        runner.withBean(FinalMethod.class)
                .run(context -> assertThat(context.getStartupFailure())
                        .rootCause()
                        .hasMessageContaining("AnnotationTests$FinalMethod.call()")
                        .hasMessageContaining("a final method cannot be intercepted"));
        runner.withBean(FutureReturn.class)
                .run(context -> assertThat(context.getStartupFailure())
                        .rootCause()
                        .hasMessageContaining("AnnotationTests$FutureReturn.call()")
                        .hasMessageContaining("returns java.util.concurrent.Future"));
        runner.withBean(PublisherThroughAnotherInterface.class)
                .run(context -> assertThat(context.getStartupFailure())
                        .rootCause()
                        .hasMessageContaining("AnnotationTests$PublisherThroughAnotherInterface.call()")
                        .hasMessageContaining("returns dev.breaker.spring.AnnotationTests$MonoLike")
                        .hasMessageContaining("whose outcome arrives after the method returns"));
        runner.withBean(BlankName.class)
                .run(context -> assertThat(context.getStartupFailure())
                        .rootCause()
                        .hasMessageContaining("AnnotationTests$BlankName.call()")
                        .hasMessageContaining("the breaker's name must not be blank"));
    }

    @Test
    void jdkProxiesAskedForWithoutAspectJStopStartupNamingThatSetting() {
        // without AspectJ, Spring Boot makes its auto-proxy creator only for class proxies: asking for
        // JDK proxies leaves every bean unproxied, and the message must say which setting did it
        withFlaky()
                .withPropertyValues("spring.aop.proxy-target-class=false")
                .run(context -> assertThat(context.getStartupFailure())
                        .rootCause()
                        .isInstanceOf(BreakerDeclarationException.class)
                        .hasMessageContaining("Spring did not proxy it")
                        .hasMessageContaining("spring.aop.proxy-target-class=false"));
    }

    @Test
    void withoutAutoProxyingStartupFailsInsteadOfLeavingTheMethodsUnprotected() {
        withFlaky()
                .withPropertyValues("spring.aop.auto=false")
                .run(context -> assertThat(context.getStartupFailure())
                        .rootCause()
                        .isInstanceOf(BreakerDeclarationException.class)
                        .hasMessageContaining("bean 'annotationTests.Flaky' (dev.breaker.spring.AnnotationTests$Flaky)")
                        .hasMessageContaining("Spring did not proxy it")
                        .hasMessageContaining("AnnotationTests$Flaky.get(String)")
                        .hasMessageContaining("spring.aop.auto=false"));
    }

    /** A bean in a scope other than singleton, behind a scoped proxy (request, session, refresh scope). */
    public static class Scoped {
        @Breaker("scoped")
        public String get() {
            return "scoped";
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class ScopedConfiguration {
        @Bean
        @Scope(value = "prototype", proxyMode = ScopedProxyMode.TARGET_CLASS)
        Scoped scoped() {
            return new Scoped();
        }
    }

    @Test
    void aBeanBehindAScopedProxyStartsAndItsCallsPassTheBreaker() {
        // the scoped proxy hands each call to a target bean, which is proxied (and checked) when made
        runner.withUserConfiguration(ScopedConfiguration.class).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(Scoped.class).get()).isEqualTo("scoped");
            assertThat(context.getBean(BreakerRegistry.class)
                            .breaker("scoped")
                            .metrics()
                            .totalSuccesses())
                    .isEqualTo(1);
        });
    }

    /** An interface implemented by a JDK proxy, as HTTP interface clients ({@code @HttpExchange}) are. */
    public interface Client {
        @Breaker(value = "client", fallbackMethod = "offline")
        String get(String key);

        default String offline(String key, IllegalStateException e) {
            return "offline " + key;
        }
    }

    private static Client jdkProxyClient(boolean[] down) {
        return (Client) Proxy.newProxyInstance(
                Client.class.getClassLoader(), new Class<?>[] {Client.class}, (proxy, method, args) -> {
                    if (method.isDefault()) {
                        return java.lang.reflect.InvocationHandler.invokeDefault(proxy, method, args);
                    }
                    return switch (method.getName()) {
                        case "get" -> {
                            if (down[0]) {
                                throw new IllegalStateException("down");
                            }
                            yield "got " + args[0];
                        }
                        case "hashCode" -> System.identityHashCode(proxy);
                        case "equals" -> proxy == args[0];
                        default -> "client";
                    };
                });
    }

    @Test
    void aBeanThatIsAJdkProxyOfAnAnnotatedInterfaceStartsAndItsCallsPassTheBreaker() {
        boolean[] down = {false};
        runner.withBean(Client.class, () -> jdkProxyClient(down)).run(context -> {
            assertThat(context).hasNotFailed();
            Client client = context.getBean(Client.class);
            CircuitBreaker breaker = context.getBean(BreakerRegistry.class).breaker("client");
            assertThat(client.get("a")).isEqualTo("got a");
            down[0] = true;
            assertThat(client.get("b")).isEqualTo("offline b");
            assertThat(breaker.metrics().totalSuccesses()).isEqualTo(1);
            assertThat(breaker.metrics().totalFailures()).isEqualTo(1);
        });
    }

    @Test
    void anAsyncFallbackIsNotCalledOnceTheCallerHasCancelledOrTimedOut() {
        withFlaky().run(context -> {
            Flaky flaky = context.getBean(Flaky.class);
            Flaky target = (Flaky) org.springframework.aop.framework.AopProxyUtils.getSingletonTarget(flaky);
            flaky.hangingWithFallback().toCompletableFuture().cancel(true);
            flaky.hangingWithFallback()
                    .toCompletableFuture()
                    .orTimeout(1, TimeUnit.MILLISECONDS)
                    .handle((v, t) -> v)
                    .get();
            assertThat(target.fallbackSaw)
                    .as("nobody waits for the fallback's answer")
                    .isEmpty();
        });
    }
}
