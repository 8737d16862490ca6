package dev.breaker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.state.Action;
import net.jqwik.api.state.ActionChain;
import net.jqwik.api.state.Transformer;

/**
 * Stateful test: random chains of acquire, report (success, failure, release, back-off with a
 * delay below, at and over the cap, or none) on any held permit, time steps, isolate and reset, run against the breaker and {@link BreakerModel} side by side,
 * with the invariants checked after every step. The ticker starts 50 ns before it wraps.
 */
class BreakerChainProperties {

    private static final int THRESHOLD = 2;
    private static final int PROBES = 2;
    private static final long COOLDOWN = 5;
    private static final long MAX_HALF_OPEN = 12;
    private static final long BACK_OFF_MAX = 8;
    private static final long START = Long.MAX_VALUE - 50;

    /** The system under test, the model and the permits both have handed out. */
    static final class Fixture {
        final FakeTicker ticker = new FakeTicker(START);
        final CircuitBreaker breaker = CircuitBreaker.builder("chain")
                .window(Windows.consecutiveFailures(THRESHOLD))
                .cooldown(Duration.ofNanos(COOLDOWN))
                .probes(PROBES)
                .maxHalfOpenDuration(Duration.ofNanos(MAX_HALF_OPEN))
                .backOffMax(Duration.ofNanos(BACK_OFF_MAX))
                .ticker(ticker)
                .build();
        final BreakerModel model = new BreakerModel(THRESHOLD, PROBES, COOLDOWN, MAX_HALF_OPEN, BACK_OFF_MAX);
        final List<Permit> permits = new ArrayList<>();
        final List<Long> modelGenerations = new ArrayList<>();
        long now;

        void acquire() {
            Permit p = breaker.tryAcquire();
            long g = model.acquire(now);
            assertEquals(g >= 0, p.granted(), "grant decision");
            if (p.granted()) {
                permits.add(p);
                modelGenerations.add(g);
            }
        }

        void report(int index, Outcome outcome) {
            if (permits.isEmpty()) {
                return;
            }
            int i = index % permits.size();
            Permit p = permits.remove(i);
            long g = modelGenerations.remove(i);
            switch (outcome) {
                case SUCCESS -> p.onSuccess(0);
                case FAILURE -> p.onFailure(0, null);
                case IGNORED -> p.release();
            }
            model.report(g, outcome, now);
        }

        void backOff(int index, long delay) {
            if (permits.isEmpty()) {
                return;
            }
            int i = index % permits.size();
            Permit p = permits.remove(i);
            long g = modelGenerations.remove(i);
            p.onFailure(0, new BackOffTests.TooManyRequests(Duration.ofNanos(delay)));
            model.backOff(g, delay, now);
        }

        void advance(long nanos) {
            ticker.advance(nanos);
            now += nanos;
        }

        void isolate() {
            breaker.isolate();
            model.isolate(now);
        }

        void reset() {
            breaker.reset();
            model.reset(now);
        }

        void matchesModel() {
            BreakerMetrics m = breaker.metrics();
            assertEquals(model.state, m.state(), "state");
            assertEquals(model.generation, m.generation(), "generation");
            assertEquals(model.rejected, m.rejectedCalls(), "rejected");
            assertEquals(model.late, m.lateResults(), "late");
            if (model.state == State.HALF_OPEN) {
                assertEquals(model.admitted, m.probesAdmitted(), "probes admitted");
                assertEquals(model.successes, m.probeSuccesses(), "probe successes");
            }
            if (model.state == State.CLOSED) {
                assertEquals(model.run, m.failedCalls(), "failure run");
            }
        }

        void probesWithinBudget() {
            BreakerMetrics m = breaker.metrics();
            if (m.probesAdmitted() < 0 || m.probesAdmitted() > PROBES) {
                throw new AssertionError("probes admitted out of [0, " + PROBES + "]: " + m);
            }
            if (m.rejectedCalls() < 0 || m.lateResults() < 0 || m.failedCalls() < 0) {
                throw new AssertionError("negative counter: " + m);
            }
        }
    }

    @Property(tries = 300)
    void breakerFollowsModel(@ForAll("chains") ActionChain<Fixture> chain) {
        chain.withInvariant("matches the model", Fixture::matchesModel)
                .withInvariant("probe budget and counters", Fixture::probesWithinBudget)
                .run();
    }

    @Provide
    Arbitrary<ActionChain<Fixture>> chains() {
        return ActionChain.startWith(Fixture::new)
                .withAction(4, act(Arbitraries.just(Transformer.mutate("acquire", Fixture::acquire))))
                .withAction(
                        4,
                        act(Arbitraries.integers()
                                .between(0, 20)
                                .flatMap(i -> Arbitraries.of(
                                                Outcome.SUCCESS,
                                                Outcome.SUCCESS,
                                                Outcome.FAILURE,
                                                Outcome.FAILURE,
                                                Outcome.IGNORED)
                                        .map(o -> Transformer.<Fixture>mutate(
                                                "report " + o + " on #" + i, f -> f.report(i, o))))))
                .withAction(
                        1,
                        act(Arbitraries.integers()
                                .between(0, 20)
                                .flatMap(i -> Arbitraries.of(-1L, 0L, 1L, 3L, BACK_OFF_MAX, 20L)
                                        .map(d -> Transformer.<Fixture>mutate(
                                                "back off " + d + " on #" + i, f -> f.backOff(i, d))))))
                .withAction(
                        3,
                        act(Arbitraries.of(0L, 1L, COOLDOWN - 1, COOLDOWN, MAX_HALF_OPEN, 3L)
                                .map(d -> Transformer.<Fixture>mutate("advance " + d, f -> f.advance(d)))))
                .withAction(1, act(Arbitraries.just(Transformer.mutate("isolate", Fixture::isolate))))
                .withAction(1, act(Arbitraries.just(Transformer.mutate("reset", Fixture::reset))))
                .withMaxTransformations(80);
    }

    private static Action.Independent<Fixture> act(Arbitrary<Transformer<Fixture>> transformers) {
        return () -> transformers;
    }
}
