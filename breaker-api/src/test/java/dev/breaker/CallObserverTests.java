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
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link CallObserver}: every call reaches exactly one method once, as the running totals count
 * it; the observer runs after the breaker decided; one that throws changes nothing.
 */
class CallObserverTests {

    private static final long SLOW = 100;
    private final FakeTicker ticker = new FakeTicker();

    /** Counts what it is told, by kind, like the totals. */
    static final class Counting implements CallObserver {
        final LongAdder successes = new LongAdder();
        final LongAdder failures = new LongAdder();
        final LongAdder slowSuccesses = new LongAdder();
        final LongAdder slowFailures = new LongAdder();
        final LongAdder ignored = new LongAdder();
        final LongAdder rejected = new LongAdder();
        final LongAdder late = new LongAdder();
        final LongAdder[] rejectedIn = {new LongAdder(), new LongAdder(), new LongAdder(), new LongAdder()};

        @Override
        public void onOutcome(CircuitBreaker breaker, Outcome outcome, boolean slow, long durationNanos) {
            switch (outcome) {
                case SUCCESS -> (slow ? slowSuccesses : successes).increment();
                case FAILURE -> (slow ? slowFailures : failures).increment();
                case IGNORED -> ignored.increment();
            }
        }

        @Override
        public void onRejected(CircuitBreaker breaker, State state) {
            rejected.increment();
            rejectedIn[state.ordinal()].increment();
        }

        @Override
        public void onLate(CircuitBreaker breaker, Outcome outcome) {
            late.increment();
        }

        /** Asserts that what was observed is what the breaker's totals counted. */
        void assertMatches(CircuitBreaker b) {
            BreakerMetrics m = b.metrics();
            assertEquals(
                    List.of(
                            m.totalSuccesses() - m.totalSlowSuccesses(),
                            m.totalFailures() - m.totalSlowFailures(),
                            m.totalSlowSuccesses(),
                            m.totalSlowFailures(),
                            m.totalIgnored(),
                            m.rejectedCalls(),
                            m.lateResults()),
                    List.of(
                            successes.sum(),
                            failures.sum(),
                            slowSuccesses.sum(),
                            slowFailures.sum(),
                            ignored.sum(),
                            rejected.sum(),
                            late.sum()),
                    "fast ok, fast failed, slow ok, slow failed, ignored, rejected, late: " + m);
        }
    }

    private CircuitBreaker breaker(int threshold, int probes, CallObserver... observers) {
        CircuitBreakerBuilder b = CircuitBreaker.builder("observed")
                .window(Windows.consecutiveFailures(threshold))
                .cooldown(Duration.ofNanos(10))
                .probes(probes)
                .slowCallThreshold(Duration.ofNanos(SLOW))
                .maxHalfOpenDuration(Duration.ofNanos(50))
                .trackedPermits(true)
                .ticker(ticker);
        for (CallObserver o : observers) {
            b.observer(o);
        }
        return b.build();
    }

    @Test
    void closedOutcomesArriveWithTheirSlownessAndDuration() {
        List<String> seen = new ArrayList<>();
        CircuitBreaker b = breaker(100, 1, new CallObserver() {
            @Override
            public void onOutcome(CircuitBreaker breaker, Outcome outcome, boolean slow, long durationNanos) {
                seen.add(breaker.name() + " " + outcome + " " + slow + " " + durationNanos);
            }
        });
        b.tryAcquire().onSuccess(7);
        b.tryAcquire().onFailure(SLOW, null);
        b.tryAcquire().release();
        assertEquals(
                List.of("observed SUCCESS false 7", "observed FAILURE true 100", "observed IGNORED false 0"), seen);
    }

    @Test
    void everyKindOfCallIsObservedOnceAsTheTotalsCountIt() {
        Counting o = new Counting();
        CircuitBreaker b = breaker(1, 2, o);
        Permit held = b.tryAcquire();
        b.tryAcquire().onSuccess(SLOW);
        b.tryAcquire().release();
        b.tryAcquire().onFailure(0, null); // trips
        held.onSuccess(0); // late
        b.tryAcquire(); // rejected while OPEN
        ticker.advance(10);
        Permit p1 = b.tryAcquire();
        Permit p2 = b.tryAcquire();
        b.tryAcquire(); // rejected in HALF_OPEN: no probe left
        p1.onSuccess(0);
        p2.onFailure(0, new BackOffTests.TooManyRequests(Duration.ofNanos(5))); // a probe's back-off
        ticker.advance(5);
        b.tryAcquire().onSuccess(0);
        b.isolate();
        b.tryAcquire(); // rejected while ISOLATED
        o.assertMatches(b);
        assertEquals(1, o.rejectedIn[State.OPEN.ordinal()].sum());
        assertEquals(1, o.rejectedIn[State.HALF_OPEN.ordinal()].sum());
        assertEquals(1, o.rejectedIn[State.ISOLATED.ordinal()].sum());
        assertEquals(1, o.late.sum());
    }

    @Test
    void aShadowBreakersWouldBeRejectionsAreRejections() {
        Counting o = new Counting();
        CircuitBreaker b = CircuitBreaker.builder("shadow")
                .window(Windows.consecutiveFailures(1))
                .cooldown(Duration.ofDays(1))
                .shadow(true)
                .ticker(ticker)
                .observer(o)
                .build();
        b.tryAcquire().onFailure(0, null);
        Permit let = b.tryAcquire();
        assertTrue(let.granted(), "a shadow breaker lets the call through");
        let.onSuccess(0);
        assertEquals(1, o.rejected.sum());
        assertEquals(1, o.failures.sum());
        assertEquals(0, o.successes.sum(), "a call it would have rejected is not an outcome");
        o.assertMatches(b);
    }

    @Test
    void theObserverSeesTheStateAfterTheCallsOwnEffect() {
        List<State> states = new ArrayList<>();
        CircuitBreaker[] self = new CircuitBreaker[1];
        self[0] = breaker(1, 1, new CallObserver() {
            @Override
            public void onOutcome(CircuitBreaker breaker, Outcome outcome, boolean slow, long durationNanos) {
                states.add(breaker.state());
            }
        });
        self[0].tryAcquire().onFailure(0, null);
        assertEquals(List.of(State.OPEN), states, "the failure that trips is observed after the trip");
    }

    @Test
    void aThrowingObserverChangesNoDecisionIsLoggedOnceAndDoesNotStarveTheNext() throws Exception {
        Counting after = new Counting();
        CallObserver throwing = new CallObserver() {
            @Override
            public void onOutcome(CircuitBreaker breaker, Outcome outcome, boolean slow, long durationNanos) {
                throw new IllegalStateException("observer down");
            }

            @Override
            public void onRejected(CircuitBreaker breaker, State state) {
                throw new OutOfMemoryError("pretend");
            }
        };
        try (LogCapture log = new LogCapture()) {
            CircuitBreaker b = breaker(2, 1, throwing, after);
            assertEquals("ok", b.get(() -> "ok"));
            b.tryAcquire().onFailure(0, null);
            b.tryAcquire().onFailure(0, null);
            assertEquals(State.OPEN, b.state());
            assertThrows(CallNotPermittedException.class, () -> b.get(() -> "never"));
            after.assertMatches(b);
            String text = log.text();
            assertEquals(1, text.split("threw; its later failures are not logged", -1).length - 1, text);
            assertTrue(text.contains("observer down"), text);
        }
    }

    @Test
    void aLoneThrowingObserverIsCaughtByTheBreaker() throws Exception {
        try (LogCapture log = new LogCapture()) {
            CircuitBreaker b = breaker(1, 1, new CallObserver() {
                @Override
                public void onLate(CircuitBreaker breaker, Outcome outcome) {
                    throw new IllegalStateException("late observer down");
                }

                @Override
                public void onOutcome(CircuitBreaker breaker, Outcome outcome, boolean slow, long durationNanos) {
                    throw new IllegalStateException("outcome observer down");
                }
            });
            Permit held = b.tryAcquire();
            b.tryAcquire().onFailure(0, null);
            assertEquals(State.OPEN, b.state(), "the trip happened though the observer threw");
            held.onSuccess(0);
            assertEquals(1, b.metrics().lateResults());
            String text = log.text();
            assertEquals(1, text.split("threw; its later failures are not logged", -1).length - 1, text);
        }
    }

    /** An observer that throws from one method only. */
    private static CallObserver throwingOn(String method) {
        return new CallObserver() {
            @Override
            public void onOutcome(CircuitBreaker breaker, Outcome outcome, boolean slow, long durationNanos) {
                if (method.equals("onOutcome")) {
                    throw new IllegalStateException(method + " down");
                }
            }

            @Override
            public void onRejected(CircuitBreaker breaker, State state) {
                if (method.equals("onRejected")) {
                    throw new IllegalStateException(method + " down");
                }
            }

            @Override
            public void onLate(CircuitBreaker breaker, Outcome outcome) {
                if (method.equals("onLate")) {
                    throw new IllegalStateException(method + " down");
                }
            }
        };
    }

    /** Drives one success, one late result and one rejection through {@code b}. */
    private void everyPath(CircuitBreaker b) {
        Permit held = b.tryAcquire();
        b.tryAcquire().onSuccess(0);
        b.tryAcquire().onFailure(0, null); // trips (threshold 1)
        held.onSuccess(0); // late
        b.tryAcquire(); // rejected
    }

    @Test
    void aFailureOfAnyOneMethodIsLoggedAloneOrInAGroup() throws Exception {
        for (String method : List.of("onOutcome", "onRejected", "onLate")) {
            for (boolean grouped : new boolean[] {false, true}) {
                try (LogCapture log = new LogCapture()) {
                    CircuitBreaker b = grouped
                            ? breaker(1, 1, new Counting(), throwingOn(method))
                            : breaker(1, 1, throwingOn(method));
                    everyPath(b);
                    String text = log.text();
                    assertEquals(
                            1,
                            text.split("threw; its later failures are not logged", -1).length - 1,
                            method + (grouped ? " in a group" : " alone") + ": " + text);
                    assertTrue(text.contains(method + " down"), text);
                }
            }
        }
    }

    @Test
    void anIgnoredProbeIsObservedAsIgnoredAndARoundIsStillToDecide() {
        Counting o = new Counting();
        CircuitBreaker b = CircuitBreaker.builder("ignored probe")
                .window(Windows.consecutiveFailures(1))
                .cooldown(Duration.ofNanos(10))
                .classifier((result, failure) ->
                        failure instanceof IllegalArgumentException ? Outcome.IGNORED : Outcome.FAILURE)
                .ticker(ticker)
                .observer(o)
                .build();
        b.tryAcquire().onFailure(0, null);
        ticker.advance(10);
        Permit probe = b.tryAcquire();
        assertTrue(probe.isProbe());
        probe.onResult(null, new IllegalArgumentException("not the dependency's fault"), 0); // classified
        assertEquals(1, o.ignored.sum(), "observed as ignored");
        assertEquals(State.HALF_OPEN, b.state(), "the slot went back; the round is still to decide");
        o.assertMatches(b);
    }

    @Test
    void aProbeWhosePolicyCannotDecideIsObservedAsReleased() {
        Counting o = new Counting();
        FunctionPolicy policy = new FunctionPolicy() {
            @Override
            public Verdict decide(int consecutiveOpens, int successes, int failures) {
                if (successes + failures > 0) {
                    throw new IllegalStateException("cannot decide");
                }
                return super.decide(consecutiveOpens, successes, failures);
            }
        };
        CircuitBreaker b = CircuitBreaker.builder("undecided")
                .window(Windows.consecutiveFailures(1))
                .halfOpen(policy)
                .ticker(ticker)
                .observer(o)
                .build();
        b.tryAcquire().onFailure(0, null);
        ticker.advance(FunctionPolicy.COOLDOWN);
        Permit probe = b.tryAcquire();
        assertThrows(IllegalStateException.class, () -> probe.onSuccess(0));
        assertEquals(1, o.ignored.sum(), "the probe's slot went back: observed as released");
        o.assertMatches(b);
    }

    @Test
    void aGroupOfObserversSaysWhoIsInIt() {
        CallObserver a = new CallObserver() {
            @Override
            public String toString() {
                return "first";
            }
        };
        CallObserver b = new CallObserver() {
            @Override
            public String toString() {
                return "second";
            }
        };
        assertEquals(
                "CallObservers[first, second]", CallObservers.of(List.of(a, b)).toString());
        assertEquals(a, CallObservers.of(List.of(a)));
        assertEquals(null, CallObservers.of(List.of()));
    }

    @Test
    void registryObserversSeeBreakersMadeLater() {
        Counting o = new Counting();
        BreakerRegistry registry =
                BreakerRegistry.builder().observer(o).ticker(ticker).build();
        CircuitBreaker a = registry.breaker("a");
        a.get(() -> 1);
        CircuitBreaker later = registry.breaker("b");
        later.get(() -> 2);
        assertEquals(2, o.successes.sum());
    }

    @Test
    void nullObserversAreRefusedByName() {
        NullPointerException e = assertThrows(
                NullPointerException.class, () -> CircuitBreaker.builder("x").observer(null));
        assertTrue(e.getMessage().contains("observer"), e.getMessage());
        assertThrows(NullPointerException.class, () -> BreakerRegistry.builder().observer(null));
    }

    @Test
    void observersAreCalledInTheOrderAdded() {
        List<String> order = new CopyOnWriteArrayList<>();
        CircuitBreaker b = breaker(
                100,
                1,
                new CallObserver() {
                    @Override
                    public void onOutcome(CircuitBreaker breaker, Outcome outcome, boolean slow, long durationNanos) {
                        order.add("first");
                    }
                },
                new CallObserver() {
                    @Override
                    public void onOutcome(CircuitBreaker breaker, Outcome outcome, boolean slow, long durationNanos) {
                        order.add("second");
                    }
                });
        b.run(() -> {});
        assertEquals(List.of("first", "second"), order);
    }

    @Tag("race")
    @Test
    void underRacingThreadsEveryCallIsObservedExactlyOnce() throws Exception {
        int threads = 8;
        int calls = 20_000;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            for (int round = 0; round < 10; round++) {
                Counting o = new Counting();
                CircuitBreaker b = breaker(3, 2, o);
                CyclicBarrier start = new CyclicBarrier(threads);
                List<Future<?>> done = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    done.add(pool.submit(() -> {
                        start.await(10, TimeUnit.SECONDS);
                        ThreadLocalRandom random = ThreadLocalRandom.current();
                        for (int i = 0; i < calls; i++) {
                            Permit p = b.tryAcquire();
                            if (!p.granted()) {
                                if (random.nextInt(50) == 0) {
                                    ticker.advance(10);
                                }
                                continue;
                            }
                            switch (random.nextInt(4)) {
                                case 0 -> p.onFailure(random.nextInt(2) * SLOW, null);
                                case 1 -> p.release();
                                default -> p.onSuccess(random.nextInt(2) * SLOW);
                            }
                        }
                        return null;
                    }));
                }
                for (Future<?> f : done) {
                    f.get(60, TimeUnit.SECONDS);
                }
                o.assertMatches(b);
                long all = o.successes.sum()
                        + o.failures.sum()
                        + o.slowSuccesses.sum()
                        + o.slowFailures.sum()
                        + o.ignored.sum()
                        + o.rejected.sum()
                        + o.late.sum();
                assertEquals((long) threads * calls, all, "round " + round);
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
