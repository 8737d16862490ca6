package dev.breaker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

/**
 * SPEC rule 10, on every path that consults the classifier (execute, async, {@code Permit.onResult}):
 * the classifier judges the cause under future and stage wrappers, and a call that ends cancelled or
 * interrupted is the caller giving up: released, no outcome, nothing late.
 */
class GivingUpTests {

    private final FakeTicker ticker = new FakeTicker();

    private CircuitBreakerBuilder builder() {
        return CircuitBreaker.builder("give-up")
                .window(Windows.consecutiveFailures(1))
                .cooldown(Duration.ofNanos(10))
                .ticker(ticker);
    }

    private CircuitBreaker halfOpen() {
        CircuitBreaker b = builder().build();
        b.tryAcquire().onFailure(0, null);
        ticker.advance(10);
        return b;
    }

    @Test
    void aCancellationOrInterruptionOnTheExecutePathReleases() {
        CircuitBreaker b = builder().build();
        assertThrows(
                CancellationException.class,
                () -> b.call(() -> {
                    throw new CancellationException();
                }));
        assertThrows(
                InterruptedException.class,
                () -> b.call(() -> {
                    throw new InterruptedException();
                }));
        ExecutionException wrapped = new ExecutionException(new InterruptedException());
        assertTrue(
                assertThrows(
                                ExecutionException.class,
                                () -> b.call(() -> {
                                    throw wrapped;
                                }))
                        == wrapped,
                "rethrown as it was");
        assertEquals(State.CLOSED, b.state(), "nothing was recorded");

        CircuitBreaker probing = halfOpen();
        assertThrows(
                CancellationException.class,
                () -> probing.get(() -> {
                    throw new CancellationException();
                }));
        assertEquals(State.HALF_OPEN, probing.state(), "the probe was released, not failed");
        assertEquals(0, probing.metrics().probesAdmitted());
    }

    @Test
    void aCallThatThrowsOnAnInterruptedThreadReleasesAndKeepsTheFlag() {
        CircuitBreaker b = builder().build();
        try {
            assertThrows(
                    IllegalStateException.class,
                    () -> b.run(() -> {
                        Thread.currentThread().interrupt(); // as a blocking read interrupted at shutdown leaves it
                        throw new IllegalStateException("stream closed");
                    }));
            assertTrue(Thread.currentThread().isInterrupted(), "the flag is kept");
            assertEquals(State.CLOSED, b.state());
            assertEquals("ok", b.get(() -> "ok"), "a call that returns is judged by its result, whatever the flag");
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void aCancellationOrInterruptionOnTheAsyncPathReleases() {
        CircuitBreaker b = builder().build();
        CompletableFuture<String> source = new CompletableFuture<>();
        CompletableFuture<String> f = b.callAsync(() -> source).toCompletableFuture();
        source.completeExceptionally(new CompletionException(new InterruptedException()));
        assertTrue(f.isCompletedExceptionally());
        b.callAsync(() -> {
            throw new CancellationException();
        });
        assertEquals(State.CLOSED, b.state());
    }

    @Test
    void aCancellationReportedOnAPermitReleases() {
        CircuitBreaker b = halfOpen();
        Permit probe = b.tryAcquire();
        probe.onResult(null, new CompletionException(new CancellationException()), 0);
        assertEquals(State.HALF_OPEN, b.state());
        assertEquals(0, b.metrics().probesAdmitted());
    }

    @Test
    void theClassifierSeesTheCauseOnEveryPath() {
        List<Class<?>> seen = new ArrayList<>();
        FailureClassifier ignoreBadInput = (r, e) -> {
            seen.add(e == null ? null : e.getClass());
            return e instanceof IllegalArgumentException
                    ? Outcome.IGNORED
                    : e != null ? Outcome.FAILURE : Outcome.SUCCESS;
        };
        CircuitBreaker b1 = builder().classifier(ignoreBadInput).build();
        CircuitBreaker b2 = builder().classifier(ignoreBadInput).build();
        CircuitBreaker b3 = builder().classifier(ignoreBadInput).build();
        CircuitBreaker b4 = builder().classifier(ignoreBadInput).build();
        assertThrows(
                ExecutionException.class,
                () -> b1.call(() -> {
                    throw new ExecutionException(new CompletionException(new IllegalArgumentException()));
                }));
        b2.tryAcquire().onResult(null, new CompletionException(new IllegalArgumentException()), 0);
        b3.callAsync(() -> {
            throw new CompletionException(new IllegalArgumentException());
        });
        CompletableFuture<String> source = new CompletableFuture<>();
        b4.callAsync(() -> source);
        source.completeExceptionally(new ExecutionException(new IllegalArgumentException()));
        assertEquals(
                List.of(
                        IllegalArgumentException.class,
                        IllegalArgumentException.class,
                        IllegalArgumentException.class,
                        IllegalArgumentException.class),
                seen);
        assertEquals(
                List.of(State.CLOSED, State.CLOSED, State.CLOSED, State.CLOSED),
                List.of(b1.state(), b2.state(), b3.state(), b4.state()));
    }

    @Test
    void theAsyncFallbackSeesTheCauseToo() {
        CircuitBreaker b = builder().build();
        IllegalStateException cause = new IllegalStateException("down");
        String answer = b.callAsync(
                        () -> {
                            throw new CompletionException(cause);
                        },
                        t -> t == cause ? "saw the cause" : "saw " + t)
                .toCompletableFuture()
                .join();
        assertEquals("saw the cause", answer);
    }
}
