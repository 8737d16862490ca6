package dev.breaker.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Traces worked by hand in the SPEC's replay notation ({@code [t, ok]}: ask at t, report at t),
 * replayed by the tool: its counts and transitions are what the per-call outputs say.
 */
class ReplayWorkedExampleTests {

    /** The SPEC's worked examples (consecutive window, fixed cooldown, 1 probe), times in ms. */
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "2 | 10  | [0,F] [1,F] [2,T] [11,T] [12,T]   | fail fail rejected ok ok",
                "1 | 10  | [0,F] [9.999,T] [10,T]            | fail rejected ok",
                "1 | 10  | [0,F] [10,F] [15,T] [20,T]        | fail fail rejected ok",
                "2 | 10  | [0,F] [1,T] [2,F] [3,T]           | fail ok fail ok",
                "1 | 100 | [0,F] [50,T] [99,T]               | fail rejected rejected",
                "1 | 0   | [0,F] [0,T] [0,T]                 | fail ok ok",
            })
    void theSpecsWorkedExamplesCountAsTheirOutputsSay(int threshold, int cooldownMs, String calls, String outputs) {
        Summary s = Runs.one(
                Runs.notation(calls),
                Runs.config(
                        "spec.properties",
                        "window.type = consecutive",
                        "window.threshold = " + threshold,
                        "cooldown = " + cooldownMs + "ms",
                        "probes = 1"));
        assertEquals(Runs.expectedCounts(calls, outputs), Runs.counts(s));
    }

    /**
     * Worked by hand: threshold 2, cooldown 10 ms, 1 probe.
     *
     * <pre>
     * call      state before   output     why
     * [0,F]     CLOSED         fail       1 in a row
     * [1,F]     CLOSED         fail       2 in a row: OPEN at 1, until 11
     * [2,T]     OPEN           rejected   2 < 11
     * [5,F]     OPEN           rejected   5 < 11 (a failure avoided)
     * [11,F]    OPEN           fail       11 >= 11: HALF_OPEN, the probe fails: OPEN at 11, until 21
     * [20,T]    OPEN           rejected   20 < 21 (a success rejected)
     * [21,T]    OPEN           ok         HALF_OPEN, the probe succeeds: CLOSED at 21
     * [22,F]    CLOSED         fail       1 in a row (the window was reset at the close)
     * [23,T]    CLOSED         ok         the count starts over
     * </pre>
     *
     * calls 9, permitted 6, rejected 3, failures reached 4, avoided 1, successes rejected 2. Time to
     * trip: the bad spell starts at 0, the opening is at 1: 1 ms. Time to recover: the balance of
     * bad over good calls runs 1, 2, 1, 2, 3, 2, 1 up to the close at 21; its last peak is at 11,
     * so 10 ms. Not CLOSED from 1 to 21: 20 ms.
     */
    @Test
    void aTraceWorkedByHand() {
        String calls = "[0,F] [1,F] [2,T] [5,F] [11,F] [20,T] [21,T] [22,F] [23,T]";
        String outputs = "fail fail rejected rejected fail rejected ok fail ok";
        Summary s = Runs.one(
                Runs.notation(calls),
                Runs.config(
                        "hand.properties",
                        "window.type = consecutive",
                        "window.threshold = 2",
                        "cooldown = 10ms",
                        "probes = 1"));
        assertEquals(List.of(9L, 6L, 3L, 4L, 1L, 2L), Runs.counts(s));
        assertEquals(Runs.expectedCounts(calls, outputs), Runs.counts(s));
        assertEquals(
                List.of(
                        "1 CLOSED -> OPEN",
                        "11 OPEN -> HALF_OPEN",
                        "11 HALF_OPEN -> OPEN",
                        "21 OPEN -> HALF_OPEN",
                        "21 HALF_OPEN -> CLOSED"),
                Runs.transitions(s));
        assertEquals(5, s.failures());
        assertEquals(1_000_000, s.timeToTripNanos());
        assertEquals(10_000_000, s.timeToRecoverNanos());
        assertEquals(20_000_000, s.notClosedNanos());
    }

    /**
     * The SPEC's failure-rate example: a count window of 4, rate 0.5, minimum 4 calls, cooldown
     * 10 s, probes 2: ok, fail, ok, fail at 0 to 3 ms open it at 3 ms; calls before 10.003 s are
     * rejected; the calls at 10.5 s and 10.6 s are the two probes, their successes close it.
     */
    @Test
    void theSpecsFailureRateExample() {
        String csv = "time_ms,outcome\n0,success\n1,failure\n2,success\n3,failure\n5000,success\n"
                + "10500,success\n10600,success\n10700,failure\n";
        Summary s = Runs.one(
                csv,
                Runs.config(
                        "rate.properties",
                        "window.type = count",
                        "window.size = 4",
                        "window.failure-rate-threshold = 0.5",
                        "window.minimum-calls = 4",
                        "cooldown = 10s",
                        "probes = 2"));
        assertEquals(List.of(8L, 7L, 1L, 3L, 0L, 1L), Runs.counts(s));
        assertEquals(
                List.of("3 CLOSED -> OPEN", "10500 OPEN -> HALF_OPEN", "10600 HALF_OPEN -> CLOSED"),
                Runs.transitions(s));
    }

    /** An ignored call is permitted and frees its probe slot; it counts as neither a failure nor a success. */
    @Test
    void ignoredCallsAreCountedButDecideNothing() {
        String csv = "time_ms,outcome\n0,failure\n5,ignored\n10,ignored\n11,success\n";
        Summary s =
                Runs.one(csv, Runs.config("ign.properties", "window.threshold = 1", "cooldown = 10ms", "probes = 1"));
        assertEquals(List.of(4L, 3L, 1L, 1L, 0L, 0L), Runs.counts(s));
        assertEquals(
                List.of("0 CLOSED -> OPEN", "10 OPEN -> HALF_OPEN", "11 HALF_OPEN -> CLOSED"), Runs.transitions(s));
    }

    /** The duration decides slowness only: a slow success is a failed probe and trips a slow-call rate. */
    @Test
    void durationsDecideSlowness() {
        String csv = "time_ms,outcome,duration_ms\n0,success,900\n1,success,1000\n2,success,1500\n3,success,10\n";
        Summary s = Runs.one(
                csv,
                Runs.config(
                        "slow.properties",
                        "window.type = count",
                        "window.size = 2",
                        "window.minimum-calls = 2",
                        "window.slow-call-rate-threshold = 100%",
                        "slow-call-threshold = 1s",
                        "cooldown = 1ms"));
        assertEquals(List.of("2 CLOSED -> OPEN", "3 OPEN -> HALF_OPEN", "3 HALF_OPEN -> CLOSED"), Runs.transitions(s));
        assertEquals(0, s.failures());
        assertEquals(1_000_000, s.timeToTripNanos(), "the bad spell began with the first slow call, at 1 ms");
    }

    /**
     * A breaker that flaps without end keeps its first 1,000 transitions and counts the rest:
     * threshold 1, cooldown 0, every call a failure: the first opens it, each later one is a probe
     * that fails (OPEN -> HALF_OPEN -> OPEN), so 1 + 2 * 1,499 transitions.
     */
    @Test
    void aFlappingBreakerKeepsTheFirstThousandTransitionsAndCountsThemAll() {
        StringBuilder csv = new StringBuilder("time_ms,outcome\n");
        for (int t = 0; t < 1500; t++) {
            csv.append(t).append(",failure\n");
        }
        Summary s = Runs.one(csv.toString(), Runs.config("flap.properties", "window.threshold = 1", "cooldown = 0ms"));
        assertEquals(2999, s.transitionCount());
        assertEquals(Simulation.KEPT_TRANSITIONS, s.transitions().size());
        assertEquals("500 OPEN -> HALF_OPEN", Runs.transitions(s).get(999));
        assertEquals(List.of(1500L, 1500L, 0L, 1500L, 0L, 0L), Runs.counts(s));
    }
}
