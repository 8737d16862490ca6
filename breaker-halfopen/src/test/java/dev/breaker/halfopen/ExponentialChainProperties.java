package dev.breaker.halfopen;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.breaker.BreakerMetrics;
import dev.breaker.CircuitBreaker;
import dev.breaker.Permit;
import dev.breaker.State;
import dev.breaker.Windows;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.state.Action;
import net.jqwik.api.state.ActionChain;
import net.jqwik.api.state.Transformer;

/**
 * Stateful test: random chains of acquire, report (success, failure, release) on any held
 * permit, time steps and reset, run against a breaker with the exponential policy (growing
 * cooldowns, a calm period, 2 of 3 probes close, a ramp from 50%) and {@link ExponentialModel}
 * side by side, with the model's state, generation, rejections and late results checked after
 * every step. The ticker starts 60 ns before it wraps.
 */
class ExponentialChainProperties {

    static final ExponentialModel.Settings SETTINGS = new ExponentialModel.Settings(1, 3, 2, 12, 3, 2, 10, 8, 1, 20);
    private static final long START = Long.MAX_VALUE - 60;

    /** The system under test, the model and the permits both have handed out. */
    static final class Fixture {
        final AtomicLong ticker = new AtomicLong(START);
        final CircuitBreaker breaker = breaker(SETTINGS, ticker);
        final ExponentialModel model = new ExponentialModel(SETTINGS, 0);
        final List<Permit> permits = new ArrayList<>();
        final List<Long> modelGenerations = new ArrayList<>();
        long now;

        void acquire() {
            Permit p = breaker.tryAcquire();
            long g = model.acquire(now);
            assertEquals(g >= 0, p.granted(), "grant decision at " + now);
            if (p.granted()) {
                assertEquals(g, p.generation(), "permit generation");
                permits.add(p);
                modelGenerations.add(g);
            }
        }

        void report(int index, Boolean outcome) {
            if (permits.isEmpty()) {
                return;
            }
            int i = index % permits.size();
            Permit p = permits.remove(i);
            long g = modelGenerations.remove(i);
            if (outcome == null) {
                p.release();
            } else if (outcome) {
                p.onSuccess(0);
            } else {
                p.onFailure(0, null);
            }
            model.report(g, outcome, now);
        }

        void advance(long nanos) {
            ticker.addAndGet(nanos);
            now += nanos;
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
        }
    }

    /** A breaker with the consecutive window and the exponential policy of {@code s}, on {@code ticker}. */
    static CircuitBreaker breaker(ExponentialModel.Settings s, AtomicLong ticker) {
        return CircuitBreaker.builder("chain")
                .window(Windows.consecutiveFailures(s.threshold()))
                .halfOpen(ExponentialPolicy.builder()
                        .initial(Duration.ofNanos(s.initial()))
                        .multiplier(s.multiplier())
                        .max(Duration.ofNanos(s.max()))
                        .probes(s.probes())
                        .closeAfter(s.closeAfter())
                        .calmPeriod(Duration.ofNanos(s.calm()))
                        .rampUp(Duration.ofNanos(s.ramp()))
                        .rampFrom(s.rampFromHalves() / 2.0)
                        .build())
                .maxHalfOpenDuration(Duration.ofNanos(s.maxHalfOpen()))
                .ticker(ticker::get)
                .build();
    }

    @Property(tries = 500)
    void breakerFollowsModel(@ForAll("chains") ActionChain<Fixture> chain) {
        chain.withInvariant("matches the model", Fixture::matchesModel).run();
    }

    @Provide
    Arbitrary<ActionChain<Fixture>> chains() {
        return ActionChain.startWith(Fixture::new)
                .withAction(5, act(Arbitraries.just(Transformer.mutate("acquire", Fixture::acquire))))
                .withAction(
                        4,
                        act(Arbitraries.integers()
                                .between(0, 20)
                                .flatMap(i -> Arbitraries.of(1, 1, 2, 2, 3).map(o -> {
                                    Boolean outcome = o == 1 ? Boolean.TRUE : o == 2 ? Boolean.FALSE : null;
                                    return Transformer.<Fixture>mutate(
                                            "report " + (outcome == null ? "release" : outcome) + " on #" + i,
                                            f -> f.report(i, outcome));
                                }))))
                .withAction(
                        3,
                        act(Arbitraries.of(0L, 1L, 2L, 3L, 5L, 6L, 12L, 20L)
                                .map(d -> Transformer.<Fixture>mutate("advance " + d, f -> f.advance(d)))))
                .withAction(1, act(Arbitraries.just(Transformer.mutate("reset", Fixture::reset))))
                .withMaxTransformations(100);
    }

    private static Action.Independent<Fixture> act(Arbitrary<Transformer<Fixture>> transformers) {
        return () -> transformers;
    }
}
