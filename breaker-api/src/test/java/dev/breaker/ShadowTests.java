package dev.breaker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * SPEC rule 17: a shadow breaker decides exactly like its twin without shadow mode (same
 * transitions at the same times, same events), lets through every call the twin rejects without
 * recording it in its window, counts it as rejected and its outcome apart, and never throws
 * {@link CallNotPermittedException}.
 */
class ShadowTests {

    /** One breaker of the pair, its clock and the transitions it announced. */
    private static final class Side {
        final FakeTicker ticker = new FakeTicker(Long.MAX_VALUE - 500); // wraps during the trace
        final List<String> events = new ArrayList<>();
        final CircuitBreaker breaker;

        Side(boolean shadow) {
            breaker = CircuitBreaker.builder("twin")
                    .window(Windows.consecutiveFailures(2))
                    .cooldown(Duration.ofNanos(20))
                    .probes(2)
                    .slowCallThreshold(Duration.ofNanos(10))
                    .maxHalfOpenDuration(Duration.ofNanos(60))
                    .shadow(shadow)
                    .ticker(ticker)
                    .eventExecutor(Runnable::run)
                    .listener(e -> {
                        if (e instanceof StateTransition t) {
                            events.add(t.from() + ">" + t.to() + "@" + t.generation() + ":" + t.reason() + ":"
                                    + t.atNanos());
                        }
                    })
                    .build();
        }
    }

    /** A step of a trace: what a caller does. */
    private record Step(int kind, int index, long value) {}

    @Property(tries = 300)
    void aShadowDecidesExactlyLikeItsTwin(@ForAll("traces") List<Step> trace) {
        Side plain = new Side(false);
        Side shadow = new Side(true);
        List<Permit[]> held = new ArrayList<>();
        long spared = 0;
        long wouldHaveRejected = 0;
        for (Step step : trace) {
            switch (step.kind()) {
                case 0 -> { // a request
                    Permit p = plain.breaker.tryAcquire();
                    Permit s = shadow.breaker.tryAcquire();
                    assertTrue(s.granted(), "a shadow lets every call through");
                    if (p.granted()) {
                        assertEquals(p.generation(), s.generation());
                        assertEquals(p.isProbe(), s.isProbe());
                    } else {
                        assertEquals(-1, s.generation(), "a call the twin rejected belongs to no generation");
                    }
                    held.add(new Permit[] {p, s});
                }
                case 1, 2, 3 -> { // a report: success, failure, release (value: duration)
                    if (held.isEmpty()) {
                        break;
                    }
                    Permit[] pair = held.remove(step.index() % held.size());
                    for (Permit p : pair) {
                        if (!p.granted()) {
                            continue;
                        }
                        switch (step.kind()) {
                            case 1 -> p.onSuccess(step.value());
                            case 2 -> p.onFailure(step.value(), null);
                            default -> p.release();
                        }
                    }
                    if (!pair[0].granted() && step.kind() != 3) {
                        wouldHaveRejected += step.kind() == 1 ? 1 : 0;
                        spared += step.kind() == 2 ? 1 : 0;
                    }
                }
                case 4 -> {
                    plain.ticker.advance(step.value());
                    shadow.ticker.advance(step.value());
                }
                case 5 -> {
                    plain.breaker.isolate();
                    shadow.breaker.isolate();
                }
                default -> {
                    plain.breaker.reset();
                    shadow.breaker.reset();
                }
            }
            BreakerMetrics m = plain.breaker.metrics();
            BreakerMetrics n = shadow.breaker.metrics();
            assertEquals(m.state(), n.state());
            assertEquals(m.generation(), n.generation());
            assertEquals(m.rejectedCalls(), n.rejectedCalls(), "the calls it let through count as rejected");
            assertEquals(m.lateResults(), n.lateResults());
            assertEquals(m.bufferedCalls(), n.bufferedCalls(), "their outcomes are not in the window");
            assertEquals(m.failedCalls(), n.failedCalls());
            assertEquals(m.probesAdmitted(), n.probesAdmitted());
            assertEquals(m.probeSuccesses(), n.probeSuccesses());
            assertEquals(m.totalSuccesses(), n.totalSuccesses());
            assertEquals(m.totalFailures(), n.totalFailures());
            assertEquals(m.totalIgnored(), n.totalIgnored());
            assertEquals(plain.events, shadow.events, "same transitions at the same times");
            assertEquals(wouldHaveRejected, n.shadowSuccesses());
            assertEquals(spared, n.shadowFailures());
            assertEquals(0, m.shadowSuccesses() + m.shadowFailures());
        }
    }

    @Provide
    Arbitrary<List<Step>> traces() {
        Arbitrary<Step> step = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(5, Arbitraries.just(new Step(0, 0, 0))),
                net.jqwik.api.Tuple.of(
                        6,
                        net.jqwik.api.Combinators.combine(
                                        Arbitraries.integers().between(1, 3),
                                        Arbitraries.integers().between(0, 50),
                                        Arbitraries.of(0L, 5L, 10L, 30L))
                                .as((k, i, d) -> new Step(k, i, d))),
                net.jqwik.api.Tuple.of(
                        3, Arbitraries.of(1L, 5L, 19L, 20L, 30L, 60L).map(d -> new Step(4, 0, d))),
                net.jqwik.api.Tuple.of(1, Arbitraries.just(new Step(5, 0, 0))),
                net.jqwik.api.Tuple.of(1, Arbitraries.just(new Step(6, 0, 0))));
        return step.list().ofMaxSize(80);
    }

    @Test
    void itNeverThrowsCallNotPermittedNotEvenIsolatedAndCountsWhatItSpared() throws Exception {
        CircuitBreaker b = CircuitBreaker.builder("shadow").shadow(true).build();
        assertTrue(b.config().shadow());
        b.isolate();
        assertEquals("answer", b.get(() -> "answer"));
        assertEquals(
                "down",
                b.call(
                        () -> {
                            throw new java.io.IOException("down");
                        },
                        e -> e.getMessage()));
        assertEquals(
                "async",
                b.callAsync(() -> CompletableFuture.completedFuture("async"))
                        .toCompletableFuture()
                        .get());
        Permit p = b.tryAcquire();
        assertTrue(p.granted());
        assertFalse(p.isProbe());
        assertEquals("Permit[shadow: would have been rejected]", p.toString());
        p.release(); // no outcome: counted nowhere but as rejected
        BreakerMetrics m = b.metrics();
        assertEquals(State.ISOLATED, m.state());
        assertEquals(4, m.rejectedCalls());
        assertEquals(2, m.shadowSuccesses());
        assertEquals(1, m.shadowFailures());
        assertEquals(0, m.totalSuccesses() + m.totalFailures() + m.totalIgnored());
    }

    @Test
    void aBackOffOnACallItWouldHaveRejectedDecidesNothing() {
        CircuitBreaker b = CircuitBreaker.builder("shadow")
                .window(Windows.consecutiveFailures(1))
                .shadow(true)
                .build();
        b.tryAcquire().onFailure(0, null);
        assertEquals(State.OPEN, b.state());
        long generation = b.metrics().generation();
        b.tryAcquire().onFailure(0, new BackOffTests.TooManyRequests(Duration.ofSeconds(1)));
        assertEquals(generation, b.metrics().generation());
        assertEquals(1, b.metrics().shadowFailures());
    }

    @Test
    void shadowIsPartOfTheConfigValue() {
        CircuitBreakerConfig off = CircuitBreakerConfig.builder().build();
        CircuitBreakerConfig on = CircuitBreakerConfig.builder(off).shadow(true).build();
        assertFalse(off.shadow());
        assertTrue(on.shadow());
        assertFalse(off.equals(on));
        assertTrue(on.toString().contains("shadow=true"), on.toString());
        assertFalse(off.toString().contains("shadow"), off.toString());
        assertTrue(CircuitBreakerConfig.builder(on).build().shadow(), "kept when building from it");
    }
}
