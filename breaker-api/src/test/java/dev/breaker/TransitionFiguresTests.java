package dev.breaker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A {@link StateTransition} carries the figures it was decided on, and
 * {@link CircuitBreaker#transitions(State, State)} counts every transition by its pair.
 */
class TransitionFiguresTests {

    private final FakeTicker ticker = new FakeTicker();
    private final List<StateTransition> seen = new CopyOnWriteArrayList<>();

    private CircuitBreaker breaker(int threshold, int probes) {
        return CircuitBreaker.builder("figures")
                .window(Windows.consecutiveFailures(threshold))
                .cooldown(Duration.ofNanos(10))
                .probes(probes)
                .slowCallThreshold(Duration.ofNanos(100))
                .maxHalfOpenDuration(Duration.ofNanos(50))
                .ticker(ticker)
                .eventExecutor(Runnable::run)
                .listener(e -> {
                    if (e instanceof StateTransition t) {
                        seen.add(t);
                    }
                })
                .build();
    }

    private String figures(int i) {
        StateTransition t = seen.get(i);
        return t.from() + "->" + t.to() + " " + t.reason() + " calls=" + t.calls() + " failureRate=" + t.failureRate()
                + " slowCallRate=" + t.slowCallRate();
    }

    @Test
    void aTripCarriesTheWindowsCountsAndTheCooldownRepeatsThem() {
        CircuitBreaker b = breaker(3, 1);
        b.tryAcquire().onSuccess(0);
        for (int i = 0; i < 3; i++) {
            b.tryAcquire().onFailure(0, null);
        }
        ticker.advance(10);
        b.tryAcquire();
        assertEquals("CLOSED->OPEN WINDOW_TRIPPED calls=3 failureRate=1.0 slowCallRate=0.0", figures(0));
        assertEquals("OPEN->HALF_OPEN COOLDOWN_ELAPSED calls=3 failureRate=1.0 slowCallRate=0.0", figures(1));
    }

    @Test
    void theEndOfAHalfOpenRoundCarriesItsProbesWithTheDecidingOne() {
        CircuitBreaker b = breaker(1, 2);
        b.tryAcquire().onFailure(0, null);
        ticker.advance(10);
        Permit p1 = b.tryAcquire();
        Permit p2 = b.tryAcquire();
        p1.onSuccess(0);
        p2.onSuccess(100); // slow: a failed probe
        assertEquals("HALF_OPEN->OPEN PROBE_FAILED calls=2 failureRate=0.5 slowCallRate=NaN", figures(2));
        ticker.advance(10);
        b.tryAcquire().onSuccess(0);
        b.tryAcquire().onSuccess(0);
        assertEquals("HALF_OPEN->CLOSED PROBES_SUCCEEDED calls=2 failureRate=0.0 slowCallRate=NaN", figures(4));
    }

    @Test
    void aBackOffCarriesTheWindowFromClosedAndTheRoundsProbesFromHalfOpen() {
        CircuitBreaker b = breaker(5, 3);
        b.tryAcquire().onSuccess(0);
        b.tryAcquire().onFailure(0, null);
        b.tryAcquire().onFailure(0, new BackOffTests.TooManyRequests(Duration.ofNanos(10)));
        // the window as it stands (a run of 1 failure): the back-off's own failure is no window outcome
        assertEquals("CLOSED->OPEN BACK_OFF calls=1 failureRate=1.0 slowCallRate=0.0", figures(0));
        ticker.advance(10);
        Permit p1 = b.tryAcquire();
        Permit p2 = b.tryAcquire();
        p1.onSuccess(0);
        p2.onFailure(0, new BackOffTests.TooManyRequests(Duration.ofNanos(10)));
        assertEquals("HALF_OPEN->OPEN BACK_OFF calls=2 failureRate=0.5 slowCallRate=NaN", figures(2));
    }

    @Test
    void aHalfOpenTimeoutCarriesTheProbesReportedBeforeIt() {
        CircuitBreaker b = breaker(1, 2);
        b.tryAcquire().onFailure(0, null);
        ticker.advance(10);
        b.tryAcquire().onSuccess(0);
        b.tryAcquire(); // never reported
        ticker.advance(50);
        b.tryAcquire(); // the round expired
        assertEquals("HALF_OPEN->OPEN HALF_OPEN_TIMEOUT calls=1 failureRate=0.0 slowCallRate=NaN", figures(2));
    }

    @Test
    void isolationAndResetCarryTheWindowAsItStands() {
        CircuitBreaker b = breaker(5, 1);
        b.tryAcquire().onFailure(0, null);
        b.tryAcquire().onFailure(0, null);
        b.isolate();
        b.reset();
        b.tryAcquire().onFailure(0, null);
        b.reset();
        assertEquals("CLOSED->ISOLATED ISOLATED calls=2 failureRate=1.0 slowCallRate=0.0", figures(0));
        assertEquals("ISOLATED->CLOSED RESET calls=2 failureRate=1.0 slowCallRate=0.0", figures(1));
        assertEquals("CLOSED->CLOSED RESET calls=1 failureRate=1.0 slowCallRate=0.0", figures(2));
    }

    @Test
    void theOldConstructorMeansNoFigures() {
        StateTransition t = new StateTransition("x", State.CLOSED, State.OPEN, 1, TransitionReason.RESET, 5);
        assertEquals(0, t.calls());
        assertEquals(0.0, t.failureRate());
        assertEquals(0.0, t.slowCallRate());
    }

    @Test
    void eventsRefuseNullPartsByName() {
        assertTrue(assertThrows(
                        NullPointerException.class,
                        () -> new StateTransition(null, State.CLOSED, State.OPEN, 1, TransitionReason.RESET, 0))
                .getMessage()
                .contains("breakerName"));
        assertTrue(assertThrows(
                        NullPointerException.class,
                        () -> new StateTransition("x", State.CLOSED, null, 1, TransitionReason.RESET, 0))
                .getMessage()
                .contains("to"));
        assertTrue(assertThrows(
                        NullPointerException.class,
                        () -> new StateTransition("x", State.CLOSED, State.OPEN, 1, null, 0))
                .getMessage()
                .contains("reason"));
        assertThrows(NullPointerException.class, () -> new LateResult(null, 1, 2));
        assertThrows(NullPointerException.class, () -> new TripSuppressed(null, 1, 1, 1));
    }

    @Test
    void transitionsAreCountedByTheirPair() {
        CircuitBreaker b = breaker(1, 1);
        assertEquals(0, b.transitions(State.CLOSED, State.OPEN), "none yet");
        b.tryAcquire().onFailure(0, null);
        ticker.advance(10);
        b.tryAcquire().onFailure(0, null);
        ticker.advance(10);
        b.tryAcquire().onSuccess(0);
        b.isolate();
        b.reset();
        b.reset();
        assertEquals(1, b.transitions(State.CLOSED, State.OPEN));
        assertEquals(2, b.transitions(State.OPEN, State.HALF_OPEN));
        assertEquals(1, b.transitions(State.HALF_OPEN, State.OPEN));
        assertEquals(1, b.transitions(State.HALF_OPEN, State.CLOSED));
        assertEquals(1, b.transitions(State.CLOSED, State.ISOLATED));
        assertEquals(1, b.transitions(State.ISOLATED, State.CLOSED));
        assertEquals(1, b.transitions(State.CLOSED, State.CLOSED));
        assertEquals(0, b.transitions(State.OPEN, State.CLOSED));
        long all = 0;
        for (State from : State.values()) {
            for (State to : State.values()) {
                all += b.transitions(from, to);
            }
        }
        assertEquals(b.metrics().generation(), all, "every generation began with one counted transition");
        assertThrows(NullPointerException.class, () -> b.transitions(null, State.OPEN));
        assertThrows(NullPointerException.class, () -> b.transitions(State.OPEN, null));
    }

    @Tag("race")
    @Test
    void racingTransitionsAreEachCountedOnce() throws Exception {
        int threads = 4;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            for (int round = 0; round < 20; round++) {
                CircuitBreaker b = CircuitBreaker.builder("race")
                        .window(Windows.consecutiveFailures(1))
                        .cooldown(Duration.ofNanos(1))
                        .ticker(ticker)
                        .build();
                CyclicBarrier start = new CyclicBarrier(threads);
                List<Future<?>> done = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    done.add(pool.submit(() -> {
                        start.await(10, TimeUnit.SECONDS);
                        ThreadLocalRandom random = ThreadLocalRandom.current();
                        for (int i = 0; i < 5_000; i++) {
                            Permit p = b.tryAcquire();
                            ticker.advance(1);
                            if (random.nextInt(100) == 0) {
                                b.reset();
                            }
                            if (p.granted()) {
                                if (random.nextBoolean()) {
                                    p.onFailure(0, null);
                                } else {
                                    p.onSuccess(0);
                                }
                            }
                        }
                        return null;
                    }));
                }
                for (Future<?> f : done) {
                    f.get(60, TimeUnit.SECONDS);
                }
                long all = 0;
                for (State from : State.values()) {
                    for (State to : State.values()) {
                        all += b.transitions(from, to);
                    }
                }
                assertEquals(b.metrics().generation(), all, "round " + round);
                assertTrue(all > 0);
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
