package dev.breaker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.breaker.spi.HalfOpenPolicy;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A hostile reviewer's attacks on call observation: observers whose failures cannot be logged, and
 * racing calls through the shadow, ramp and back-off paths, where each call must still be observed
 * exactly once as the totals count it.
 */
class ObserverAttackTests {

    private final FakeTicker ticker = new FakeTicker();

    /** An error that cannot describe itself: whoever prints it gets another error. */
    static final class Unprintable extends Error {
        private static final long serialVersionUID = 1L;

        Unprintable() {
            super(null, null, false, false);
        }

        @Override
        public String getMessage() {
            throw new AssertionError("getMessage is poisoned");
        }
    }

    /** Throws on everything, with an exception the logger chokes on. */
    static final class Poisoned implements CallObserver {
        @Override
        public void onOutcome(CircuitBreaker breaker, Outcome outcome, boolean slow, long durationNanos) {
            throw new Unprintable();
        }

        @Override
        public void onRejected(CircuitBreaker breaker, State state) {
            throw new Unprintable();
        }

        @Override
        public void onLate(CircuitBreaker breaker, Outcome outcome) {
            throw new Unprintable();
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void anObserverWhoseFailureCannotBeLoggedCostsTheCallerNothing(int observers) {
        CircuitBreakerBuilder builder = CircuitBreaker.builder("poisoned")
                .window(Windows.consecutiveFailures(1))
                .cooldown(Duration.ofDays(1))
                .ticker(ticker);
        CallObserverTests.Counting counting = new CallObserverTests.Counting();
        builder.observer(new Poisoned()); // first: its failure is the one logged
        if (observers == 2) {
            builder.observer(counting); // through CallObservers
        }
        CircuitBreaker b = builder.build();
        assertEquals("ok", b.get(() -> "ok"), "the caller gets its result");
        Permit held = b.tryAcquire();
        assertThrows(
                IOException.class,
                () -> b.call(() -> {
                    throw new IOException("down"); // trips
                }));
        assertEquals(State.OPEN, b.state());
        assertThrows(CallNotPermittedException.class, () -> b.get(() -> "never"));
        held.onSuccess(0); // late
        if (observers == 2) {
            counting.assertMatches(b);
        }
    }

    /** Ramps for 1000 ns at half the traffic; closes on one success, reopens on one failure. */
    static final class Ramping implements HalfOpenPolicy {
        @Override
        public long cooldownNanos(int consecutiveOpens) {
            return 10;
        }

        @Override
        public int probes(int consecutiveOpens) {
            return 2;
        }

        @Override
        public Verdict decide(int consecutiveOpens, int successes, int failures) {
            return failures > 0 ? Verdict.OPEN : successes > 0 ? Verdict.CLOSE : Verdict.WAIT;
        }

        @Override
        public long rampUpNanos() {
            return 1_000;
        }

        @Override
        public double rampShare(long elapsedNanos) {
            return 0.5;
        }
    }

    @Tag("race")
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void racingCallsThroughRampsBackOffsAndShadowAreEachObservedOnce(boolean shadow) throws Exception {
        int threads = 4;
        int calls = 20_000;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            for (int round = 0; round < 5; round++) {
                CallObserverTests.Counting o = new CallObserverTests.Counting();
                CallObserverTests.Counting second = new CallObserverTests.Counting();
                CircuitBreaker b = CircuitBreaker.builder("ramping")
                        .window(Windows.consecutiveFailures(2))
                        .halfOpen(new Ramping())
                        .slowCallThreshold(Duration.ofNanos(100))
                        .shadow(shadow)
                        .trackedPermits(true)
                        .ticker(ticker)
                        .observer(o)
                        .observer(second)
                        .build();
                CyclicBarrier start = new CyclicBarrier(threads);
                List<Future<?>> done = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    done.add(pool.submit(() -> {
                        start.await(10, TimeUnit.SECONDS);
                        ThreadLocalRandom random = ThreadLocalRandom.current();
                        List<Permit> held = new ArrayList<>();
                        for (int i = 0; i < calls; i++) {
                            if (random.nextInt(20) == 0) {
                                ticker.advance(random.nextInt(30));
                            }
                            Permit p = b.tryAcquire();
                            if (!p.granted()) {
                                continue;
                            }
                            if (random.nextInt(10) == 0) {
                                held.add(p); // reported later: late, or a duplicate-free report of its round
                                continue;
                            }
                            report(p, random);
                            if (!held.isEmpty() && random.nextInt(3) == 0) {
                                report(held.remove(held.size() - 1), random);
                            }
                        }
                        for (Permit p : held) {
                            report(p, random);
                        }
                        return null;
                    }));
                }
                for (Future<?> f : done) {
                    f.get(60, TimeUnit.SECONDS);
                }
                o.assertMatches(b);
                second.assertMatches(b);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static void report(Permit p, ThreadLocalRandom random) {
        switch (random.nextInt(6)) {
            case 0 -> p.onFailure(random.nextInt(2) * 100L, null);
            case 1 -> p.release();
            case 2 -> p.onFailure(5, new BackOffTests.TooManyRequests(Duration.ofNanos(1 + random.nextInt(20))));
            case 3 -> p.onResult(null, new BackOffTests.TooManyRequests(Duration.ofNanos(7)), 3);
            default -> p.onSuccess(random.nextInt(2) * 100L);
        }
    }

    @Test
    void aLoneThrowingObserverOnARejectionStillLetsTheShadowCallThrough() {
        CircuitBreaker b = CircuitBreaker.builder("shadow")
                .window(Windows.consecutiveFailures(1))
                .cooldown(Duration.ofDays(1))
                .shadow(true)
                .ticker(ticker)
                .observer(new Poisoned())
                .build();
        b.isolate();
        assertEquals("through", b.get(() -> "through"), "a shadow breaker never rejects, observer or not");
        assertEquals(1, b.metrics().rejectedCalls());
    }
}
