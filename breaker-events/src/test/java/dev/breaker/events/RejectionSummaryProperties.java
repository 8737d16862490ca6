package dev.breaker.events;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.breaker.CircuitBreaker;
import dev.breaker.State;
import dev.breaker.StateTransition;
import dev.breaker.TransitionReason;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Random sequences of rejections (in any state), time steps and transitions, against a model of the
 * summary rules: an interval begins with a breaker's first rejection; the first rejection at or
 * after its end claims it, writes what came before it (nothing if nothing did) and begins the next;
 * a transition writes what is pending and begins a new interval; a transition to CLOSED forgets the
 * breaker. Every summary line is predicted exactly, and after every step the rejections written plus
 * those pending are all the rejections made.
 */
class RejectionSummaryProperties {

    private static final long INTERVAL = 1_000;
    private static final State[] STATES = State.values();

    sealed interface Step permits Reject, Advance, Transition {}

    record Reject(State state) implements Step {}

    record Advance(long nanos) implements Step {}

    record Transition(State from, State to) implements Step {}

    @Provide
    Arbitrary<List<Step>> steps() {
        Arbitrary<State> state = Arbitraries.of(STATES);
        Arbitrary<Step> reject = state.map(Reject::new);
        Arbitrary<Step> advance = Arbitraries.longs().between(0, 3 * INTERVAL).map(Advance::new);
        Arbitrary<Step> transition = state.flatMap(from -> state.map(to -> new Transition(from, to)));
        return Arbitraries.frequencyOf(
                        net.jqwik.api.Tuple.of(6, reject),
                        net.jqwik.api.Tuple.of(3, advance),
                        net.jqwik.api.Tuple.of(1, transition))
                .list()
                .ofMaxSize(200);
    }

    @Property(tries = 300)
    void summariesAreThoseTheRulesPredictAndNoRejectionIsLost(@ForAll("steps") List<Step> steps, @ForAll long start) {
        ManualTicker ticker = new ManualTicker(start);
        CapturedLog captured = new CapturedLog();
        Slf4jEventLogger log = Slf4jEventLogger.builder()
                .logger(captured)
                .ticker(ticker)
                .rejectionSummaryInterval(Duration.ofNanos(INTERVAL))
                .build();
        CircuitBreaker b = CircuitBreaker.builder("p").build();

        boolean tracked = false;
        long due = 0;
        long[] pending = new long[STATES.length];
        long made = 0;
        List<String> expected = new ArrayList<>();
        for (Step step : steps) {
            long now = ticker.read();
            if (step instanceof Advance a) {
                ticker.advance(a.nanos());
            } else if (step instanceof Reject r) {
                if (!tracked) {
                    tracked = true;
                    due = now + INTERVAL;
                } else if (now - due >= 0) {
                    summary(pending, now - (due - INTERVAL), expected);
                    due = now + INTERVAL;
                }
                pending[r.state().ordinal()]++;
                made++;
                log.onRejected(b, r.state());
            } else if (step instanceof Transition t) {
                if (tracked) {
                    summary(pending, now - (due - INTERVAL), expected);
                    due = now + INTERVAL;
                    tracked = t.to() != State.CLOSED;
                }
                log.onEvent(new StateTransition("p", t.from(), t.to(), 1, TransitionReason.RESET, now));
            }
            assertEquals(
                    expected,
                    captured.summaries().stream().map(CapturedLog.Line::text).toList());
            assertEquals(made, captured.summarised() + log.pendingRejections("p"));
            assertEquals(tracked ? 1 : 0, log.trackedBreakers());
        }
    }

    /** The line the model expects for what is pending, if anything; empties it. */
    private static void summary(long[] pending, long span, List<String> expected) {
        long total = 0;
        List<String> parts = new ArrayList<>();
        for (int s = 0; s < STATES.length; s++) {
            if (pending[s] != 0) {
                total += pending[s];
                parts.add(STATES[s] + " " + pending[s]);
            }
        }
        if (total == 0) {
            return;
        }
        String states = parts.size() == 1 ? "state " + parts.get(0).split(" ")[0] : String.join(", ", parts);
        expected.add("breaker 'p' rejected " + total + (total == 1 ? " call" : " calls") + " in the last "
                + Slf4jEventLogger.span(span) + " (" + states + ")");
        java.util.Arrays.fill(pending, 0);
    }
}
