package dev.breaker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The same jar on the plain class path (a separate Surefire execution with the module path off):
 * no descriptor is in force, so the providers must come from {@code META-INF/services}.
 */
@Tag("class-path")
class ClassPathLayoutTests {

    @Test
    void runsOnTheClassPath() {
        assertFalse(CircuitBreaker.class.getModule().isNamed(), "expected the unnamed module");
    }

    @Test
    void providersAreFoundThroughServiceFiles() {
        FakeTicker ticker = new FakeTicker();
        CircuitBreaker b = CircuitBreaker.builder("classpath")
                .window(Windows.named("consecutive", Map.of("threshold", "2")))
                .halfOpen(HalfOpenPolicies.named("fixed", Map.of("cooldown", "PT0.01S")))
                .classifier(FailureClassifier.named("default", Map.of()))
                .ticker(ticker)
                .build();
        b.tryAcquire().onFailure(0, null);
        b.tryAcquire().onFailure(0, null);
        assertEquals(State.OPEN, b.state());
        ticker.advance(Duration.ofMillis(10).toNanos());
        b.tryAcquire().onSuccess(0);
        assertEquals(State.CLOSED, b.state());
    }

    @Test
    void theExceptionsClassifierIsFoundAndLoadsClassesOnTheClassPathToo() {
        FailureClassifier c = FailureClassifier.named(
                "exceptions",
                Map.of(
                        "recordExceptions", "java.io.IOException",
                        "ignoreExceptions", "dev.breaker.ClassifierBuilderTests$Boom"));
        assertEquals(
                FailureClassifier.builder()
                        .recordExceptions(java.io.IOException.class)
                        .ignoreExceptions(ClassifierBuilderTests.Boom.class)
                        .build(),
                c);
        assertEquals(Outcome.IGNORED, c.classify(null, new ClassifierBuilderTests.BigBoom("ignored")));
        assertEquals(Outcome.SUCCESS, c.classify(null, new IllegalStateException("not recorded")));
    }
}
