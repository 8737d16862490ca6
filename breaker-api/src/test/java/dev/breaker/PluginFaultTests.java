package dev.breaker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breaker.spi.HalfOpenPolicy;
import dev.breaker.spi.WindowCounts;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Issue 8, points 8 to 13 and 17: a ticker, a policy or a report that misbehaves cannot leak a
 * permit, lose a trip, hide the dependency's exception or change the breaker's state.
 */
class PluginFaultTests {

    private static final long COOLDOWN = 10_000_000L;

    private final FlakyTicker ticker = new FlakyTicker();

    private CircuitBreakerBuilder builder() {
        return CircuitBreaker.builder("plugins")
                .window(Windows.consecutiveFailures(1))
                .cooldown(Duration.ofNanos(COOLDOWN))
                .ticker(ticker);
    }

    private static void halfOpen(CircuitBreaker b, FlakyTicker ticker) {
        b.tryAcquire().onFailure(0, null);
        ticker.advance(COOLDOWN);
    }

    // ---------------------------------------------------------------- 8: a ticker that throws

    @Test
    void theDependencysExceptionWinsAndTheProbeIsSettledWhenTheTickerFailsAtTheEnd() {
        CircuitBreaker b = builder().slowCallThreshold(Duration.ofSeconds(1)).build();
        halfOpen(b, ticker);
        IOException down = new IOException("down");
        IOException seen = assertThrows(
                IOException.class,
                () -> b.call(() -> {
                    ticker.failNext(2); // the end-of-call reading, and the reopening's
                    throw down;
                }));
        assertSame(down, seen, "the dependency's exception, not the ticker's");
        assertInstanceOf(FlakyTicker.TickerBroke.class, seen.getSuppressed()[0]);
        assertEquals(State.OPEN, b.state(), "the probe's failure was recorded");
        assertEquals(0, b.metrics().duplicateReports());
    }

    @Test
    void aProbeReportWhoseTickerFailsIsRecordedOnceSoARetryIsATrueDuplicate() {
        CircuitBreaker b = builder().build();
        halfOpen(b, ticker);
        Permit probe = b.tryAcquire();
        ticker.failNext(1);
        assertThrows(FlakyTicker.TickerBroke.class, () -> probe.onSuccess(0));
        assertEquals(State.CLOSED, b.state(), "the success closed the round although the ticker failed");
        probe.onSuccess(0);
        assertEquals(1, b.metrics().duplicateReports());
    }

    @Test
    void aTripIsNotLostWhenTheTickerFailsAndTheCooldownStartsAtTheFirstGoodReading() {
        List<StateTransition> events = new java.util.concurrent.CopyOnWriteArrayList<>();
        CircuitBreaker b = builder()
                .eventExecutor(Runnable::run)
                .listener(e -> {
                    if (e instanceof StateTransition t) {
                        events.add(t);
                    }
                })
                .build();
        ticker.advance(1_000);
        Permit p = b.tryAcquire();
        ticker.failNext(1);
        assertThrows(FlakyTicker.TickerBroke.class, () -> p.onFailure(0, null));
        assertEquals(State.OPEN, b.state(), "the trip happened");
        ticker.advance(COOLDOWN * 5); // time passes while nobody can tell
        CallNotPermittedException first = assertThrows(CallNotPermittedException.class, () -> b.run(() -> {}));
        assertEquals(COOLDOWN, first.retryAfterNanos(), "the whole cooldown starts at the first good reading");
        ticker.advance(COOLDOWN - 1);
        assertFalse(b.tryAcquire().granted());
        ticker.advance(1);
        assertTrue(b.tryAcquire().granted());
        assertEquals(2, events.size());
        assertEquals(State.OPEN, events.get(0).to());
    }

    @Test
    void aTickerThatFailsBeforeTheCallGivesTheProbeBackAndMakesNoCall() {
        CircuitBreaker b = builder().slowCallThreshold(Duration.ofSeconds(1)).build();
        halfOpen(b, ticker);
        ticker.failAfter(1, 1); // the permit decision reads well, the call's start time does not
        boolean[] called = {false};
        assertThrows(FlakyTicker.TickerBroke.class, () -> b.run(() -> called[0] = true));
        assertFalse(called[0]);
        assertEquals(0, b.metrics().probesAdmitted());
    }

    @Test
    void aTickerFailingWhileDecidingAPermitChangesNothing() {
        CircuitBreaker b = builder().build();
        b.tryAcquire().onFailure(0, null);
        long rejected = b.metrics().rejectedCalls();
        ticker.failNext(1);
        assertThrows(FlakyTicker.TickerBroke.class, b::tryAcquire);
        assertEquals(State.OPEN, b.state());
        assertEquals(rejected, b.metrics().rejectedCalls());
    }

    @Test
    void isolateAndResetWorkWithABrokenTickerThenSayItBroke() {
        CircuitBreaker b = builder().build();
        ticker.failForever();
        assertThrows(FlakyTicker.TickerBroke.class, b::isolate);
        assertEquals(State.ISOLATED, b.state());
        assertThrows(FlakyTicker.TickerBroke.class, b::reset);
        assertEquals(State.CLOSED, b.state());
        assertEquals(2, b.metrics().generation());
    }

    // ---------------------------------------------------------------- 9: nothing is slow without a threshold

    @Test
    void withoutAThresholdNoDurationIsSlow() {
        RecordingWindow.Factory windows = new RecordingWindow.Factory(Integer.MAX_VALUE);
        CircuitBreaker b =
                CircuitBreaker.builder("unslow").window(windows).ticker(ticker).build();
        b.tryAcquire().onSuccess(Long.MAX_VALUE);
        b.tryAcquire().onFailure(Long.MAX_VALUE, null);
        assertEquals(
                List.of(new RecordingWindow.Call(false, false), new RecordingWindow.Call(true, false)),
                windows.current().calls);
    }

    @Test
    void withAThresholdTheBoundaryIsSlow() {
        RecordingWindow.Factory windows = new RecordingWindow.Factory(Integer.MAX_VALUE);
        CircuitBreaker b = CircuitBreaker.builder("slow")
                .window(windows)
                .slowCallThreshold(Duration.ofNanos(100))
                .ticker(ticker)
                .build();
        b.tryAcquire().onSuccess(99);
        b.tryAcquire().onSuccess(100);
        assertEquals(
                List.of(new RecordingWindow.Call(false, false), new RecordingWindow.Call(false, true)),
                windows.current().calls);
    }

    // ---------------------------------------------------------------- 10: retry-after never overflows

    @Test
    void retryAfterNeverOverflowsWithTheLongestDurationsAndATickerThatStepsBack() {
        FakeTicker clock = new FakeTicker(0);
        Duration longest = Duration.ofNanos(Long.MAX_VALUE);
        CircuitBreaker open = CircuitBreaker.builder("long")
                .window(Windows.consecutiveFailures(1))
                .cooldown(longest)
                .ticker(clock)
                .build();
        open.tryAcquire().onFailure(0, null);
        clock.set(-1_000); // stepped back
        CallNotPermittedException e = assertThrows(CallNotPermittedException.class, () -> open.run(() -> {}));
        assertEquals(Long.MAX_VALUE, e.retryAfterNanos());
        assertTrue(e.getMessage().endsWith("next probe allowed in 106751 d 23 h"), e.getMessage());

        CircuitBreaker half = CircuitBreaker.builder("long-round")
                .window(Windows.consecutiveFailures(1))
                .cooldown(Duration.ZERO)
                .maxHalfOpenDuration(longest)
                .ticker(clock)
                .build();
        clock.set(0);
        half.tryAcquire().onFailure(0, null);
        assertTrue(half.tryAcquire().granted());
        clock.set(-5);
        CallNotPermittedException h = assertThrows(CallNotPermittedException.class, () -> half.run(() -> {}));
        assertEquals(State.HALF_OPEN, h.state());
        assertEquals(Long.MAX_VALUE, h.retryAfterNanos());
    }

    @Test
    void onlyIsolationSaysOnlyResetHelps() {
        CircuitBreaker b = builder().build();
        b.isolate();
        CallNotPermittedException e = assertThrows(CallNotPermittedException.class, () -> b.run(() -> {}));
        assertEquals(-1, e.retryAfterNanos());
        assertTrue(
                e.getMessage().endsWith("is ISOLATED and does not permit calls; only reset() closes it"),
                e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new CallNotPermittedException("x", State.OPEN, -2, false));
    }

    // ---------------------------------------------------------------- 11: null checks first

    @Test
    void everyOverloadChecksItsArgumentsBeforeAnything() {
        CircuitBreaker b = builder().build();
        halfOpen(b, ticker); // a probe would be taken by any call that got through
        Function<Throwable, String> fallback = t -> "fallback";
        nullNamed("fallback", () -> b.call(() -> "ok", null));
        nullNamed("fallback", () -> b.get(() -> "ok", null));
        nullNamed("fallback", () -> b.run(() -> {}, null));
        nullNamed("fallback", () -> b.callAsync(() -> CompletableFuture.completedFuture("ok"), null));
        nullNamed("callable", () -> b.call(null, e -> "fallback"));
        nullNamed("supplier", () -> b.get(null, e -> "fallback"));
        nullNamed("runnable", () -> b.run(null, e -> {}));
        nullNamed("supplier", () -> b.callAsync(null, fallback));
        nullNamed("callable", () -> b.call(null));
        nullNamed("supplier", () -> b.get(null));
        nullNamed("runnable", () -> b.run(null));
        nullNamed("supplier", () -> b.callAsync(null));
        assertEquals(State.OPEN, b.state(), "no request reached the breaker");
        assertEquals(0, b.metrics().rejectedCalls());
    }

    private static void nullNamed(String name, Executable action) {
        assertEquals(name, assertThrows(NullPointerException.class, action).getMessage());
    }

    // ---------------------------------------------------------------- 12: a release is never late

    @Test
    void aReleaseAfterTheGenerationEndedIsNotLate() {
        CircuitBreaker b = builder().build();
        Permit closed = b.tryAcquire();
        b.reset();
        closed.release();
        halfOpen(b, ticker);
        Permit probe = b.tryAcquire();
        b.reset();
        probe.release();
        assertEquals(0, b.metrics().lateResults());
        Permit stale = b.tryAcquire();
        b.reset();
        stale.onSuccess(0);
        assertEquals(1, b.metrics().lateResults(), "an outcome still is");
    }

    // ---------------------------------------------------------------- 13: SPI answers are checked

    private record Policy(int probes, long cooldown, Function<Integer, HalfOpenPolicy.Verdict> verdict)
            implements HalfOpenPolicy {
        @Override
        public long cooldownNanos(int consecutiveOpens) {
            return cooldown;
        }

        @Override
        public int probes(int consecutiveOpens) {
            return probes;
        }

        @Override
        public Verdict decide(int consecutiveOpens, int successes, int failures) {
            return verdict.apply(successes);
        }
    }

    @Test
    void aPolicyWithoutProbesOrWithANegativeCooldownIsRefusedAtBuildTime() {
        IllegalArgumentException none = assertThrows(
                IllegalArgumentException.class,
                () -> CircuitBreaker.builder("p")
                        .halfOpen(new Policy(0, 0, s -> HalfOpenPolicy.Verdict.CLOSE))
                        .build());
        assertTrue(none.getMessage().endsWith("probes(1) must be >= 1, was 0"), none.getMessage());
        IllegalArgumentException negative = assertThrows(
                IllegalArgumentException.class,
                () -> CircuitBreaker.builder("p")
                        .halfOpen(new Policy(1, -1, s -> HalfOpenPolicy.Verdict.CLOSE))
                        .build());
        assertTrue(negative.getMessage().endsWith("cooldownNanos(1) must be >= 0, was -1"), negative.getMessage());
    }

    @Test
    void aPolicyThatAnswersNullOrThrowsGivesTheProbeBackBeforeItsFailurePropagates() {
        CircuitBreaker nullVerdict = CircuitBreaker.builder("p")
                .window(Windows.consecutiveFailures(1))
                .halfOpen(new Policy(1, 0, s -> null))
                .ticker(ticker)
                .build();
        nullVerdict.tryAcquire().onFailure(0, null);
        Permit probe = nullVerdict.tryAcquire();
        assertTrue(probe.isProbe());
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> probe.onSuccess(0));
        assertTrue(e.getMessage().contains("returned null from decide(1, 1, 0)"), e.getMessage());
        assertEquals(0, nullVerdict.metrics().probesAdmitted(), "the slot came back");
        assertTrue(nullVerdict.tryAcquire().granted(), "and admits a new probe");

        CircuitBreaker throwing = CircuitBreaker.builder("p")
                .window(Windows.consecutiveFailures(1))
                .halfOpen(new Policy(1, 0, s -> {
                    throw new ArithmeticException("policy bug");
                }))
                .ticker(ticker)
                .build();
        throwing.tryAcquire().onFailure(0, null);
        IOException down = new IOException("down");
        IOException seen = assertThrows(
                IOException.class,
                () -> throwing.call(() -> {
                    throw down;
                }));
        assertInstanceOf(ArithmeticException.class, seen.getSuppressed()[0]);
        assertEquals(0, throwing.metrics().probesAdmitted());
    }

    @Test
    void aClassifierThatAnswersNullReleasesAndNamesItself() {
        FailureClassifier nulls = new FailureClassifier() {
            @Override
            public Outcome classify(Object result, Throwable failure) {
                return null;
            }

            @Override
            public String toString() {
                return "nulls";
            }
        };
        CircuitBreaker b = builder().classifier(nulls).build();
        halfOpen(b, ticker);
        Permit probe = b.tryAcquire();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> probe.onResult("x", null, 0));
        assertTrue(e.getMessage().startsWith("classifier nulls returned null"), e.getMessage());
        assertEquals(0, b.metrics().probesAdmitted());
    }

    // ---------------------------------------------------------------- 17: metrics while not CLOSED

    @Test
    void whileNotClosedTheMetricsShowTheEraThatEndedEvenIfItsWindowAgesOut() {
        RecordingWindow.Factory windows = new RecordingWindow.Factory(2);
        CircuitBreaker b = CircuitBreaker.builder("frozen")
                .window(windows)
                .cooldown(Duration.ofNanos(COOLDOWN))
                .ticker(ticker)
                .build();
        b.tryAcquire().onSuccess(0);
        b.tryAcquire().onFailure(0, null);
        b.tryAcquire().onFailure(0, null);
        assertEquals(State.OPEN, b.state());
        windows.current().counts = WindowCounts.empty(); // as a time window's counts fall once it ages out
        BreakerMetrics m = b.metrics();
        assertEquals(3, m.bufferedCalls());
        assertEquals(2, m.failedCalls());
        ticker.advance(COOLDOWN);
        assertTrue(b.tryAcquire().granted());
        assertEquals(3, b.metrics().bufferedCalls(), "HALF_OPEN too");
        b.isolate();
        assertEquals(3, b.metrics().bufferedCalls(), "and ISOLATED from there");
        b.reset();
        assertEquals(0, b.metrics().bufferedCalls(), "a fresh era after reset");
        b.tryAcquire().onSuccess(0);
        b.isolate();
        windows.current().counts = WindowCounts.empty();
        assertEquals(1, b.metrics().bufferedCalls(), "isolating from CLOSED keeps the era's counts");
    }

    // ---------------------------------------------------------------- relatives: other plugin answers

    @Test
    void aWindowFactoryThatAnswersNullIsRefusedAtBuildAndCannotWedgeAClosingRound() {
        IllegalStateException atBuild = assertThrows(
                IllegalStateException.class,
                () -> CircuitBreaker.builder("w").window(new NullAfter(0)).build());
        assertTrue(atBuild.getMessage().contains("returned null from create()"), atBuild.getMessage());

        CircuitBreaker b = CircuitBreaker.builder("w")
                .window(new NullAfter(1))
                .cooldown(Duration.ZERO)
                .ticker(ticker)
                .build();
        b.tryAcquire().onFailure(0, null);
        Permit probe = b.tryAcquire();
        assertThrows(IllegalStateException.class, () -> probe.onSuccess(0));
        assertEquals(State.HALF_OPEN, b.state(), "it cannot close without a window");
        assertEquals(0, b.metrics().probesAdmitted(), "but the probe's slot came back");
        assertThrows(IllegalStateException.class, b::reset);
        assertEquals(State.HALF_OPEN, b.state(), "a reset that cannot make a window changes nothing");
    }

    /** Makes {@code good} windows, then answers null. */
    private static final class NullAfter implements dev.breaker.spi.WindowFactory {
        private int good;

        NullAfter(int good) {
            this.good = good;
        }

        @Override
        public dev.breaker.spi.Window create(Ticker t) {
            return good-- > 0 ? Windows.consecutiveFailures(1).create(t) : null;
        }

        @Override
        public String describe() {
            return "null-after";
        }
    }

    @Test
    void pluginsWhoseToStringThrowsStillBuildAndPrint() {
        HalfOpenPolicy rude = new Policy(1, 0, s -> HalfOpenPolicy.Verdict.CLOSE);
        CircuitBreaker b = CircuitBreaker.builder("rude")
                .halfOpen(new HalfOpenPolicy() {
                    @Override
                    public int probes(int consecutiveOpens) {
                        return 1;
                    }

                    @Override
                    public long cooldownNanos(int consecutiveOpens) {
                        return 0;
                    }

                    @Override
                    public Verdict decide(int consecutiveOpens, int successes, int failures) {
                        return rude.decide(consecutiveOpens, successes, failures);
                    }

                    @Override
                    public String toString() {
                        throw new IllegalStateException("toString bug");
                    }
                })
                .ticker(ticker)
                .build();
        assertTrue(b.toString().startsWith("CircuitBreaker[rude, CLOSED, generation 0, consecutive"), b.toString());
    }

    // ---------------------------------------------------------------- found by review: checked and Error failures

    @SuppressWarnings("unchecked")
    private static <E extends Throwable> void sneaky(Throwable e) throws E {
        throw (E) e;
    }

    @Test
    void aClassifierThatThrowsACheckedExceptionStillGivesTheProbeBack() {
        FailureClassifier sneakyClassifier = (r, e) -> {
            sneaky(new IOException("classifier"));
            return Outcome.SUCCESS;
        };
        CircuitBreaker b = builder().classifier(sneakyClassifier).build();
        halfOpen(b, ticker);
        assertThrows(IOException.class, () -> b.get(() -> "x"));
        assertEquals(0, b.metrics().probesAdmitted());
        assertTrue(b.tryAcquire().granted());
    }

    /** A breaker that trips at the first failure, with {@code policy} for its half-open rounds. */
    private CircuitBreaker policyBreaker(String name, HalfOpenPolicy policy) {
        return CircuitBreaker.builder(name)
                .window(Windows.consecutiveFailures(1))
                .halfOpen(policy)
                .ticker(ticker)
                .build();
    }

    private static final class BreakablePolicy implements HalfOpenPolicy {
        volatile boolean broken;
        private final long[] cooldowns;

        BreakablePolicy(long... cooldowns) {
            this.cooldowns = cooldowns;
        }

        @Override
        public int probes(int consecutiveOpens) {
            return 1;
        }

        @Override
        public long cooldownNanos(int opens) {
            if (broken) {
                throw new AssertionError("policy bug");
            }
            return cooldowns[Math.min(opens, cooldowns.length) - 1];
        }

        @Override
        public Verdict decide(int consecutiveOpens, int successes, int failures) {
            return failures > 0 ? Verdict.OPEN : successes >= 1 ? Verdict.CLOSE : Verdict.WAIT;
        }
    }

    @Test
    void aPolicyThatThrowsAnErrorCannotLoseATripOrWedgeARound() {
        BreakablePolicy policy = new BreakablePolicy(10);
        CircuitBreaker b = CircuitBreaker.builder("p")
                .window(Windows.consecutiveFailures(1))
                .halfOpen(policy)
                .maxHalfOpenDuration(Duration.ofNanos(100))
                .ticker(ticker)
                .build();
        policy.broken = true;
        assertThrows(
                IllegalStateException.class,
                () -> b.run(() -> {
                    throw new IllegalStateException("dependency down");
                }));
        assertEquals(State.OPEN, b.state(), "the decided trip happened, with the first cooldown");
        ticker.advance(10);
        Permit probe = b.tryAcquire();
        assertTrue(probe.isProbe());
        probe.onFailure(0, null);
        assertEquals(State.OPEN, b.state(), "the failed probe reopened it");
        ticker.advance(10);
        assertTrue(b.tryAcquire().granted());
        ticker.advance(1_000); // the round expires
        assertFalse(b.tryAcquire().granted());
        assertEquals(State.OPEN, b.state(), "the timeout reopened it; nothing threw");
    }

    @Test
    void aPolicyThatFailsOnAReopeningKeepsTheLastGoodCooldownNotTheFirst() {
        BreakablePolicy policy = new BreakablePolicy(10, 40);
        CircuitBreaker b = policyBreaker("p", policy);
        b.tryAcquire().onFailure(0, null);
        ticker.advance(10);
        b.tryAcquire().onFailure(0, null); // reopened with the second cooldown, 40
        ticker.advance(40);
        Permit probe = b.tryAcquire();
        policy.broken = true;
        probe.onFailure(0, null);
        ticker.advance(39);
        assertFalse(b.tryAcquire().granted(), "the last good cooldown (40) holds, not the first (10)");
        ticker.advance(1);
        assertTrue(b.tryAcquire().granted());
    }

    @Test
    void aPolicyThatFailsAfterACooldownOfZeroKeepsZero() {
        BreakablePolicy policy = new BreakablePolicy(10, 0);
        CircuitBreaker b = policyBreaker("p", policy);
        b.tryAcquire().onFailure(0, null);
        ticker.advance(10);
        b.tryAcquire().onFailure(0, null); // reopened with the second cooldown, 0
        Permit probe = b.tryAcquire();
        assertTrue(probe.isProbe(), "a cooldown of 0: half-open at once");
        policy.broken = true;
        probe.onFailure(0, null);
        assertEquals(State.OPEN, b.state());
        assertTrue(b.tryAcquire().isProbe(), "the last good cooldown was 0, not the first (10)");
    }

    @Test
    void aNestedBreakersRejectionCarriesAPluginFailureAlong() {
        CircuitBreaker inner = CircuitBreaker.builder("inner").ticker(ticker).build();
        inner.isolate();
        CircuitBreaker outer =
                builder().slowCallThreshold(Duration.ofSeconds(1)).build();
        ticker.failAfter(1, 1); // the outer breaker's end-of-call reading
        CallNotPermittedException e =
                assertThrows(CallNotPermittedException.class, () -> outer.run(() -> inner.run(() -> {})));
        assertInstanceOf(FlakyTicker.TickerBroke.class, e.getSuppressed()[0]);
    }

    @Test
    void aPolicyThatFailsIsLoggedWithTheOpeningAndTheCooldownUsedInstead() throws Exception {
        BreakablePolicy policy = new BreakablePolicy(10, 40);
        CircuitBreaker b = policyBreaker("policy-log", policy);
        b.tryAcquire().onFailure(0, null);
        ticker.advance(10);
        Permit probe = b.tryAcquire();
        policy.broken = true;
        try (LogCapture log = new LogCapture()) {
            probe.onFailure(0, null);
            String text = log.text();
            assertTrue(
                    text.contains(
                            "breaker 'policy-log': half-open policy failed on opening 2; using the cooldown 10 ns"),
                    text);
        }
    }
}
