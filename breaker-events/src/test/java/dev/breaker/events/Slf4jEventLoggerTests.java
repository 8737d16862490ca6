package dev.breaker.events;

import static dev.breaker.events.ManualTicker.MILLI;
import static dev.breaker.events.ManualTicker.SECOND;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breaker.CircuitBreaker;
import dev.breaker.LateResult;
import dev.breaker.Permit;
import dev.breaker.State;
import dev.breaker.StateTransition;
import dev.breaker.TransitionReason;
import dev.breaker.TripSuppressed;
import dev.breaker.Windows;
import dev.breaker.events.CapturedLog.Line;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.event.Level;

/** What {@link Slf4jEventLogger} writes, line by line, driven by real breakers on a manual ticker. */
class Slf4jEventLoggerTests {

    private final ManualTicker ticker = new ManualTicker(0);
    private final CapturedLog captured = new CapturedLog();
    private final Slf4jEventLogger log =
            Slf4jEventLogger.builder().logger(captured).ticker(ticker).build();

    /** Two failures in a row trip it; a cooldown of an hour; one probe; events delivered on the caller. */
    private CircuitBreaker breaker(String name) {
        return CircuitBreaker.builder(name)
                .window(Windows.consecutiveFailures(2))
                .cooldown(Duration.ofHours(1))
                .probes(1)
                .ticker(ticker)
                .listener(log)
                .observer(log)
                .eventExecutor(Runnable::run)
                .build();
    }

    private static void trip(CircuitBreaker b) {
        b.tryAcquire().onFailure(0, new RuntimeException("down"));
        b.tryAcquire().onFailure(0, new RuntimeException("down"));
        assertEquals(State.OPEN, b.state());
    }

    private static void reject(CircuitBreaker b, int times) {
        for (int i = 0; i < times; i++) {
            assertFalse(b.tryAcquire().granted());
        }
    }

    @Test
    void aTripIsOneWarnLineWithTheFiguresItWasDecidedOn() {
        CircuitBreaker b = breaker("payments");
        trip(b);
        assertEquals(
                List.of(new Line(
                        Level.WARN,
                        "breaker 'payments' CLOSED -> OPEN (WINDOW_TRIPPED, generation 1): 2 calls,"
                                + " failure rate 100.0%, slow-call rate 0.0%")),
                captured.lines());
    }

    @Test
    void recoveryIsInfoAndTheHalfOpenRoundsSlowCallRateIsNotMeasured() {
        CircuitBreaker b = breaker("payments");
        trip(b);
        captured.clear();
        ticker.advance(Duration.ofHours(1).toNanos());
        Permit probe = b.tryAcquire();
        assertTrue(probe.isProbe());
        probe.onSuccess(0);
        assertEquals(
                List.of(
                        new Line(
                                Level.INFO,
                                "breaker 'payments' OPEN -> HALF_OPEN (COOLDOWN_ELAPSED, generation 2): 2 calls,"
                                        + " failure rate 100.0%, slow-call rate 0.0%"),
                        new Line(
                                Level.INFO,
                                "breaker 'payments' HALF_OPEN -> CLOSED (PROBES_SUCCEEDED, generation 3): 1 call,"
                                        + " failure rate 0.0%, slow-call rate not measured")),
                captured.lines());
    }

    @Test
    void aFailedProbeIsWarnBecauseTheBreakerOpensAgain() {
        CircuitBreaker b = breaker("payments");
        trip(b);
        ticker.advance(Duration.ofHours(1).toNanos());
        captured.clear();
        b.tryAcquire().onFailure(0, new RuntimeException("still down"));
        List<Line> lines = captured.lines();
        assertEquals(Level.WARN, lines.get(lines.size() - 1).level());
        assertEquals(
                "breaker 'payments' HALF_OPEN -> OPEN (PROBE_FAILED, generation 3): 1 call, failure rate 100.0%,"
                        + " slow-call rate not measured",
                lines.get(lines.size() - 1).text());
    }

    @Test
    void isolationAndResetAreInfo() {
        CircuitBreaker b = breaker("payments");
        b.isolate();
        b.reset();
        assertEquals(
                List.of(
                        new Line(
                                Level.INFO,
                                "breaker 'payments' CLOSED -> ISOLATED (ISOLATED, generation 1): 0 calls,"
                                        + " failure rate 0.0%, slow-call rate 0.0%"),
                        new Line(
                                Level.INFO,
                                "breaker 'payments' ISOLATED -> CLOSED (RESET, generation 2): 0 calls,"
                                        + " failure rate 0.0%, slow-call rate 0.0%")),
                captured.lines());
    }

    @Test
    void ratesArePercentagesWithOneDecimalAndNotMeasuredInWords() {
        log.onEvent(new StateTransition(
                "rates", State.CLOSED, State.OPEN, 7, TransitionReason.WINDOW_TRIPPED, 0, 3, 2 / 3.0, 1 / 3.0));
        log.onEvent(new StateTransition(
                "rates", State.HALF_OPEN, State.CLOSED, 8, TransitionReason.PROBES_SUCCEEDED, 0, 1, 0.0, Double.NaN));
        assertEquals(
                List.of(
                        "breaker 'rates' CLOSED -> OPEN (WINDOW_TRIPPED, generation 7): 3 calls, failure rate 66.7%,"
                                + " slow-call rate 33.3%",
                        "breaker 'rates' HALF_OPEN -> CLOSED (PROBES_SUCCEEDED, generation 8): 1 call,"
                                + " failure rate 0.0%, slow-call rate not measured"),
                captured.texts());
        assertFalse(String.join("\n", captured.texts()).contains("NaN"));
        assertEquals("0.5%", Slf4jEventLogger.percent(0.005));
        assertEquals("100.0%", Slf4jEventLogger.percent(1));
        assertEquals("not measured", Slf4jEventLogger.percent(Double.NaN));
    }

    @Test
    void spansAreWrittenForPeople() {
        assertEquals("0 ms", Slf4jEventLogger.span(-5));
        assertEquals("0 ms", Slf4jEventLogger.span(999_999));
        assertEquals("999 ms", Slf4jEventLogger.span(SECOND - 1));
        assertEquals("1.0 s", Slf4jEventLogger.span(SECOND));
        assertEquals("99.9 s", Slf4jEventLogger.span(99_940 * MILLI));
        assertEquals("1.7 min", Slf4jEventLogger.span(100 * SECOND));
        assertEquals("1.7 h", Slf4jEventLogger.span(6000 * SECOND));
    }

    @Test
    void aSuppressedTripIsWarn() {
        log.onEvent(new TripSuppressed("payments", 4, 2, 2));
        assertEquals(
                List.of(new Line(
                        Level.WARN,
                        "breaker 'payments' trip suppressed (generation 4): the open-share cap is full, 2 of at most 2"
                                + " breakers not CLOSED; it stays CLOSED")),
                captured.lines());
    }

    @Test
    void aLateResultIsDebugAndSilentAboveDebug() {
        CircuitBreaker b = breaker("payments");
        Permit early = b.tryAcquire();
        trip(b);
        captured.clear();
        early.onSuccess(0);
        assertEquals(
                List.of(new Line(
                        Level.DEBUG,
                        "breaker 'payments' late result: a permit of generation 0 reported in generation 1;"
                                + " it decided nothing")),
                captured.lines());

        CapturedLog infoOnly = new CapturedLog(Level.INFO);
        Slf4jEventLogger quiet = Slf4jEventLogger.builder().logger(infoOnly).build();
        quiet.onEvent(new LateResult("payments", 0, 1));
        assertEquals(List.of(), infoOnly.lines());
    }

    @Test
    void rejectionsAreSummarisedAtMostOncePerIntervalByTheThreadThatClaimsIt() {
        CircuitBreaker b = breaker("payments");
        trip(b);
        captured.clear();
        ticker.set(SECOND);
        reject(b, 5); // the first starts the breaker's interval: it ends at 11 s
        ticker.set(11 * SECOND - 1);
        reject(b, 1);
        assertEquals(List.of(), captured.lines(), "no line before the interval ends");
        assertEquals(6, log.pendingRejections("payments"));

        ticker.set(11 * SECOND);
        reject(b, 1); // claims: writes the six before it, and counts itself in the next interval
        assertEquals(
                List.of(new Line(Level.INFO, "breaker 'payments' rejected 6 calls in the last 10.0 s (state OPEN)")),
                captured.lines());
        assertEquals(1, log.pendingRejections("payments"));

        ticker.set(15 * SECOND);
        reject(b, 2);
        ticker.set(21 * SECOND - 1);
        reject(b, 1);
        assertEquals(1, captured.lines().size(), "the next interval ends at 21 s");
        ticker.set(25 * SECOND);
        reject(b, 1);
        assertEquals(
                new Line(Level.INFO, "breaker 'payments' rejected 4 calls in the last 14.0 s (state OPEN)"),
                captured.lines().get(1));
        assertEquals(1, log.pendingRejections("payments"));
        assertEquals(b.metrics().rejectedCalls(), captured.summarised() + log.pendingRejections("payments"));
    }

    @Test
    void aTransitionWritesThePendingRejectionsBeforeItsOwnLine() {
        CircuitBreaker b = breaker("payments");
        trip(b);
        captured.clear();
        ticker.set(SECOND);
        reject(b, 7);
        ticker.set(3 * SECOND);
        b.isolate();
        assertEquals(
                List.of(
                        new Line(Level.INFO, "breaker 'payments' rejected 7 calls in the last 2.0 s (state OPEN)"),
                        new Line(
                                Level.INFO,
                                "breaker 'payments' OPEN -> ISOLATED (ISOLATED, generation 2): 2 calls,"
                                        + " failure rate 100.0%, slow-call rate 0.0%")),
                captured.lines());
        assertEquals(0, log.pendingRejections("payments"));
        long written = captured.summarised();

        captured.clear();
        ticker.set(4 * SECOND);
        reject(b, 1);
        ticker.set(5 * SECOND);
        b.reset();
        assertEquals(
                List.of(
                        new Line(Level.INFO, "breaker 'payments' rejected 1 call in the last 2.0 s (state ISOLATED)"),
                        new Line(
                                Level.INFO,
                                "breaker 'payments' ISOLATED -> CLOSED (RESET, generation 3): 2 calls,"
                                        + " failure rate 100.0%, slow-call rate 0.0%")),
                captured.lines());
        assertEquals(0, log.trackedBreakers(), "a breaker that closed is forgotten");
        assertEquals(b.metrics().rejectedCalls(), written + captured.summarised(), "every rejection written");
    }

    /**
     * A breaker removed from its registry while OPEN (or evicted, or one whose ramp shed calls and
     * then closed) never has a transition to tell the logger: its record is written and forgotten
     * by the sweep a later new record runs, once it saw no rejection for a whole interval after
     * its own ended.
     */
    @Test
    void aBreakerThatWentQuietWithoutATransitionIsWrittenAndForgotten() {
        CircuitBreaker gone = breaker("gone");
        trip(gone);
        reject(gone, 2);
        assertEquals(1, log.trackedBreakers());
        ticker.advance(20 * SECOND);
        CircuitBreaker other = breaker("other");
        trip(other);
        captured.clear();
        reject(other, 1);
        assertEquals(List.of("breaker 'gone' rejected 2 calls in the last 20.0 s (state OPEN)"), captured.texts());
        assertEquals(1, log.trackedBreakers(), "only the breaker still rejecting");
        assertEquals(0, log.pendingRejections("gone"));
        assertEquals(1, log.pendingRejections("other"));
        reject(gone, 1);
        assertEquals(1, log.pendingRejections("gone"), "rejecting again, it is tracked again");
    }

    /**
     * When the sweep runs and what it forgets, to the nanosecond: a sweep at most once per
     * interval (the first one an interval after the first record), run by a thread that makes a
     * record, forgets each record whose interval ended at least an interval ago, and writes it
     * with the span since its interval began.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(longs = {100, -1000}) // a ticker's origin is arbitrary
    void theSweepRunsOncePerIntervalAndForgetsWhatWasQuietForAWholeInterval(long seconds) {
        long t0 = seconds * SECOND;
        ticker.set(t0);
        reject("v"); // the first record: the first sweep is due at t0 + 10 s
        ticker.set(t0 + 9 * SECOND);
        reject("x"); // not due: no sweep
        ticker.set(t0 + 10 * SECOND);
        reject("b"); // due: v's interval ended just now, kept; the next sweep at t0 + 20 s
        ticker.set(t0 + 11 * SECOND);
        reject("y"); // not due
        assertEquals(4, log.trackedBreakers());
        ticker.set(t0 + 21 * SECOND);
        reject("c"); // due: v ended 11 s ago, forgotten; x 2 s ago, kept; the next sweep at t0 + 31 s
        assertEquals(List.of("breaker 'v' rejected 1 call in the last 21.0 s (state OPEN)"), captured.texts());
        assertEquals(0, log.pendingRejections("v"));
        ticker.set(t0 + 30 * SECOND + SECOND / 2);
        reject("d"); // not due, though x has been quiet for 11.5 s: kept until the next sweep
        assertEquals(1, log.pendingRejections("x"));
        ticker.set(t0 + 31 * SECOND);
        reject("e"); // due: x (12 s), b (11 s) and y (exactly one interval after its own ended) forgotten
        assertEquals(
                List.of(
                        "breaker 'b' rejected 1 call in the last 21.0 s (state OPEN)",
                        "breaker 'v' rejected 1 call in the last 21.0 s (state OPEN)",
                        "breaker 'x' rejected 1 call in the last 22.0 s (state OPEN)",
                        "breaker 'y' rejected 1 call in the last 20.0 s (state OPEN)"),
                captured.texts().stream().sorted().toList());
        assertEquals(3, log.trackedBreakers(), "c, d and e");
    }

    private void reject(String name) {
        log.onRejected(CircuitBreaker.builder(name).build(), State.OPEN);
    }

    /** Breakers that come and go (one per host, say) leave only the recent ones behind. */
    @Test
    void breakersThatComeAndGoLeaveOnlyTheRecentOnesBehind() {
        long rejected = 0;
        for (int i = 0; i < 200; i++) {
            CircuitBreaker b = breaker("host-" + i);
            trip(b);
            reject(b, 3);
            rejected += 3;
            ticker.advance(5 * SECOND);
            assertTrue(
                    log.trackedBreakers() <= 6, "at most the last few intervals' breakers: " + log.trackedBreakers());
        }
        long pending = 0;
        for (int i = 0; i < 200; i++) {
            pending += log.pendingRejections("host-" + i);
        }
        assertEquals(rejected, captured.summarised() + pending, "every rejection written or pending, once");
    }

    @Test
    void aBurstThatEndsWithTheCooldownIsWrittenAtTheProbe() {
        CircuitBreaker b = breaker("payments");
        trip(b);
        captured.clear();
        reject(b, 3);
        ticker.advance(Duration.ofHours(1).toNanos());
        b.tryAcquire(); // the probe: OPEN -> HALF_OPEN
        assertEquals(
                List.of(
                        "breaker 'payments' rejected 3 calls in the last 60.0 min (state OPEN)",
                        "breaker 'payments' OPEN -> HALF_OPEN (COOLDOWN_ELAPSED, generation 2): 2 calls,"
                                + " failure rate 100.0%, slow-call rate 0.0%"),
                captured.texts());
    }

    @Test
    void aClaimAfterAQuietSpellWritesNothingAndStartsANewInterval() {
        CircuitBreaker b = breaker("payments");
        b.isolate();
        captured.clear();
        reject(b, 1);
        ticker.set(10 * SECOND);
        reject(b, 1); // claims the first interval: one rejection
        ticker.set(10 * SECOND + 1);
        b.tryAcquire(); // nothing changes state, the claimant's own one waits
        assertEquals(
                List.of("breaker 'payments' rejected 1 call in the last 10.0 s (state ISOLATED)"), captured.texts());
        log.onEvent(new StateTransition("payments", State.ISOLATED, State.ISOLATED, 9, TransitionReason.ISOLATED, 0));
        captured.clear(); // that flush wrote the two waiting; nothing is pending now

        ticker.set(Duration.ofMinutes(5).toNanos());
        reject(b, 1); // long after the flush's interval ended: a claim with nothing to say
        assertEquals(List.of(), captured.lines());
        ticker.advance(10 * SECOND - 1);
        reject(b, 1);
        assertEquals(List.of(), captured.lines(), "the claim began a new interval");
        ticker.advance(1);
        reject(b, 1);
        assertEquals(
                List.of("breaker 'payments' rejected 2 calls in the last 10.0 s (state ISOLATED)"), captured.texts());
    }

    @Test
    void rejectionsInSeveralStatesAreCountedApart() {
        CircuitBreaker b = breaker("mixed");
        for (int i = 0; i < 3; i++) {
            log.onRejected(b, State.OPEN);
        }
        log.onRejected(b, State.HALF_OPEN);
        log.onRejected(b, State.HALF_OPEN);
        log.onRejected(b, State.CLOSED); // shed by a ramp-up
        ticker.set(10 * SECOND);
        log.onRejected(b, State.ISOLATED);
        assertEquals(
                List.of("breaker 'mixed' rejected 6 calls in the last 10.0 s (CLOSED 1, OPEN 3, HALF_OPEN 2)"),
                captured.texts());
        assertEquals(1, log.pendingRejections("mixed"));
    }

    @Test
    void breakersAreSummarisedApart() {
        CircuitBreaker a = breaker("a");
        CircuitBreaker b = breaker("b");
        trip(a);
        trip(b);
        captured.clear();
        reject(a, 2);
        ticker.set(5 * SECOND);
        reject(b, 3);
        ticker.set(10 * SECOND);
        reject(a, 1);
        reject(b, 1);
        assertEquals(List.of("breaker 'a' rejected 2 calls in the last 10.0 s (state OPEN)"), captured.texts());
        ticker.set(15 * SECOND);
        reject(b, 1);
        assertEquals(
                List.of(
                        "breaker 'a' rejected 2 calls in the last 10.0 s (state OPEN)",
                        "breaker 'b' rejected 4 calls in the last 10.0 s (state OPEN)"),
                captured.texts());
        assertEquals(1, log.pendingRejections("a"));
        assertEquals(1, log.pendingRejections("b"));
    }

    @Test
    void aFloodOfRejectionsWritesOneLinePerIntervalNotOnePerCall() {
        Slf4jEventLogger fast = Slf4jEventLogger.builder()
                .logger(captured)
                .ticker(ticker)
                .rejectionSummaryInterval(Duration.ofMillis(10))
                .build();
        CircuitBreaker b = CircuitBreaker.builder("flood")
                .window(Windows.consecutiveFailures(1))
                .cooldown(Duration.ofDays(1))
                .ticker(ticker)
                .listener(fast)
                .observer(fast)
                .eventExecutor(Runnable::run)
                .build();
        b.tryAcquire().onFailure(0, null);
        captured.clear();
        for (int i = 1; i <= 100_000; i++) {
            ticker.set(i * 1_000L); // one rejection per microsecond: 100 ms in all
            b.tryAcquire();
        }
        List<String> lines = captured.texts();
        assertEquals(9, lines.size(), "one per 10 ms after the first: " + lines);
        for (String line : lines) {
            assertEquals("breaker 'flood' rejected 10000 calls in the last 10 ms (state OPEN)", line);
        }
        assertEquals(10_000, fast.pendingRejections("flood"));
        assertEquals(100_000, b.metrics().rejectedCalls());
    }

    @Test
    void aFloodOnTheSystemTickerWithTheDefaultIntervalWritesAHandful() {
        Slf4jEventLogger real = Slf4jEventLogger.builder().logger(captured).build();
        CircuitBreaker b = CircuitBreaker.builder("flood")
                .window(Windows.consecutiveFailures(1))
                .cooldown(Duration.ofDays(1))
                .listener(real)
                .observer(real)
                .eventExecutor(Runnable::run)
                .build();
        b.tryAcquire().onFailure(0, null);
        for (int i = 0; i < 100_000; i++) {
            b.tryAcquire();
        }
        assertTrue(captured.lines().size() <= 3, "a handful: " + captured.lines());
        assertEquals(100_000, captured.summarised() + real.pendingRejections("flood"));
    }

    @Test
    void aDisabledLevelWritesNothingButStillEmptiesTheCounts() {
        CapturedLog errorsOnly = new CapturedLog(Level.ERROR);
        Slf4jEventLogger quiet =
                Slf4jEventLogger.builder().logger(errorsOnly).ticker(ticker).build();
        CircuitBreaker b = breaker("quiet");
        for (int i = 0; i < 10; i++) {
            quiet.onRejected(b, State.OPEN);
        }
        ticker.set(10 * SECOND);
        quiet.onRejected(b, State.OPEN);
        quiet.onEvent(new StateTransition("quiet", State.CLOSED, State.OPEN, 1, TransitionReason.WINDOW_TRIPPED, 0));
        quiet.onEvent(new TripSuppressed("quiet", 1, 1, 1));
        assertEquals(List.of(), errorsOnly.lines());
        assertEquals(0, quiet.pendingRejections("quiet"));
    }

    @Test
    void nullsAreRefusedWithTheirNames() {
        CircuitBreaker b = breaker("nulls");
        assertEquals(
                "event",
                assertThrows(NullPointerException.class, () -> log.onEvent(null))
                        .getMessage());
        assertThrows(NullPointerException.class, () -> log.onRejected(null, State.OPEN));
        assertThrows(NullPointerException.class, () -> log.onRejected(b, null));
        assertEquals(0, log.trackedBreakers(), "a refused rejection leaves nothing behind");
    }

    @Test
    void namesTheLoggerAndTheInterval() {
        assertEquals("Slf4jEventLogger[logger=captured, rejectionSummaryInterval=PT10S]", log.toString());
        assertEquals(
                "Slf4jEventLogger[logger=dev.breaker.events, rejectionSummaryInterval=PT10S]",
                Slf4jEventLogger.create().toString());
    }
}
