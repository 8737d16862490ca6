package dev.breaker;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breaker.spi.HalfOpenPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A hostile review of the half-open change (SPEC rules 1 to 6, 14 to 16 and 19): rounds per
 * consecutive opening, the count carried across CLOSED eras, the calm period and the ramp-up, with
 * policies and tickers that misbehave and races forced deterministically. Written by a hostile
 * review: four of these failed on the code they were written against and were fixed (the round
 * after a back-off judged as opening 0; a failing policy at a carried trip falling back to the
 * first cooldown; a broken ticker during the ramp shedding every call; and, in the policy module,
 * truncated cooldowns and refused percentages); the others are attacks the code withstood.
 */
class HalfOpenAttackTests {

    private static final long COOLDOWN = 10;
    private static final IllegalStateException DOWN = new IllegalStateException("down");

    private final FakeTicker ticker = new FakeTicker(Long.MAX_VALUE - 100); // wraps during most tests
    private final FunctionPolicy policy = new FunctionPolicy();

    private CircuitBreakerBuilder builder(HalfOpenPolicy p, Ticker t) {
        return CircuitBreaker.builder("attack")
                .window(Windows.consecutiveFailures(1))
                .halfOpen(p)
                .maxHalfOpenDuration(Duration.ofDays(1))
                .ticker(t);
    }

    private CircuitBreaker breaker() {
        return builder(policy, ticker).build();
    }

    /** Trips, waits out the cooldown of opening 1, and closes with one successful probe. */
    private static void tripAndRecover(CircuitBreaker b, Runnable waitCooldown) {
        b.tryAcquire().onFailure(0, DOWN);
        assertEquals(State.OPEN, b.state());
        waitCooldown.run();
        Permit probe = b.tryAcquire();
        assertTrue(probe.isProbe());
        probe.onSuccess(0);
        assertEquals(State.CLOSED, b.state());
    }

    // ================================================================ defects

    /**
     * Rule 19 and the SPI: "consecutiveOpens at least 1" for probes and decide. A back-off from a
     * breaker that never opened leaves the count at 0, and the round after it is asked about
     * opening 0. A policy that checks its argument (as the SPI allows it to) then throws from
     * decide, every probe report throws to the caller and gives its slot back, and the round
     * cannot close until maxHalfOpenDuration (here a day; 60 s by default) has passed. Same root
     * cause as CooldownRuleTests.roundAfterABackOffIsAskedAboutWithACountOfAtLeastOne on
     * halfopen-rules; this shows what it costs.
     */
    @Test
    void aRoundAfterABackOffFromAFreshBreakerWedgesAPolicyThatChecksItsArgument() {
        FunctionPolicy strict = new FunctionPolicy() {
            @Override
            public int probes(int consecutiveOpens) {
                check(consecutiveOpens);
                return 1;
            }

            @Override
            public Verdict decide(int consecutiveOpens, int successes, int failures) {
                check(consecutiveOpens);
                return super.decide(consecutiveOpens, successes, failures);
            }

            private void check(int k) {
                if (k < 1) {
                    throw new IllegalArgumentException("consecutiveOpens must be >= 1, was " + k);
                }
            }
        };
        CircuitBreaker b = builder(strict, ticker).build();
        b.tryAcquire().onFailure(0, new BackOffTests.TooManyRequests(Duration.ofNanos(5)));
        assertEquals(State.OPEN, b.state());
        ticker.advance(5);
        Permit probe = b.tryAcquire();
        assertTrue(probe.isProbe());
        assertDoesNotThrow(() -> probe.onSuccess(0), "the probe's caller gets the policy's exception");
        assertEquals(State.CLOSED, b.state(), "the dependency answered: the round closes");
    }

    /**
     * Rule 14 measures the calm period from the moment the breaker entered CLOSED. A ticker that
     * fails once, at the close, leaves that moment unknown; without a ramp nothing reads the clock
     * until the next trip, which then cannot tell how long the era lasted. It carries the count
     * (DECISIONS: a broken clock never shortens a cooldown), so that one trip is a second
     * consecutive opening however long the era was; the close after it is measured again.
     */
    @Test
    void aTickerThatFailsAtTheCloseCarriesTheCountToTheNextTripOnly() {
        FlakyTicker flaky = new FlakyTicker();
        policy.calm = 50;
        CircuitBreaker b = builder(policy, flaky).build();
        b.tryAcquire().onFailure(0, DOWN); // opening 1
        flaky.advance(COOLDOWN);
        Permit probe = b.tryAcquire();
        assertTrue(probe.isProbe());
        flaky.failNext(1);
        assertThrows(FlakyTicker.TickerBroke.class, () -> probe.onSuccess(0));
        assertEquals(State.CLOSED, b.state());
        flaky.advance(50_000_000); // the ticker works again; CLOSED for a million calm periods
        b.tryAcquire().onFailure(0, DOWN); // the era's start is unknown: opening 2, cooldown 20
        flaky.advance(2 * COOLDOWN - 1);
        assertFalse(b.tryAcquire().granted(), "opening 2: the count was carried");
        flaky.advance(1);
        b.tryAcquire().onSuccess(0); // closes, the ticker working: measured again
        flaky.advance(50);
        b.tryAcquire().onFailure(0, DOWN);
        flaky.advance(COOLDOWN);
        assertTrue(b.tryAcquire().isProbe(), "a measured calm period: opening 1 again");
    }

    /**
     * DECISIONS (jitter row): a policy that fails "keeps the last good cooldown"; the javadoc of
     * cooldownFor: "it gets fallback (the last good cooldown)". A trip within the calm period is
     * opening 3 of a breaker whose last cooldown was 20; the policy fails there, and the trip
     * falls back to the cooldown of opening 1 drawn at build time (10): the flapping dependency
     * gets half the wait it got last time, a shorter cooldown than any the schedule allows.
     */
    @Test
    void aFailingPolicyAtATripWithinTheCalmPeriodFallsBackToTheFirstCooldownNotTheLastGoodOne() throws Exception {
        policy.calm = 1_000;
        policy.cooldown = k -> {
            if (k == 3) {
                throw new IllegalStateException("no cooldown for opening 3");
            }
            return (int) (COOLDOWN * k);
        };
        CircuitBreaker b = breaker();
        b.tryAcquire().onFailure(0, DOWN); // opening 1: 10
        ticker.advance(10);
        b.tryAcquire().onFailure(0, DOWN); // the probe fails: opening 2, 20
        ticker.advance(20);
        b.tryAcquire().onSuccess(0); // CLOSED, carrying 2 openings
        assertEquals(State.CLOSED, b.state());
        try (LogCapture log = new LogCapture()) {
            b.tryAcquire().onFailure(0, DOWN); // within the calm period: opening 3, the policy fails
            assertTrue(log.text().contains("failed on opening 3"), log.text());
        }
        ticker.advance(19);
        assertFalse(b.tryAcquire().granted(), "the last good cooldown was 20; the breaker waited 10");
    }

    /**
     * Rule 16: during the ramp a request is admitted, or "rejected like OPEN rejections
     * (CallNotPermittedException naming state CLOSED, counted as rejected)"; DECISIONS: "a broken
     * policy must not shed traffic". A ticker that breaks after the close makes the CLOSED breaker
     * answer every call with the ticker's exception instead: not admitted, not a rejection, not
     * counted; and since only a good reading can end the ramp, a ticker that stays broken keeps a
     * CLOSED breaker from ever making a call. Before the change a CLOSED breaker never read the
     * ticker to admit a call.
     */
    @Test
    void aTickerThatBreaksDuringTheRampShedsEveryCallOfAClosedBreaker() {
        FlakyTicker flaky = new FlakyTicker();
        policy.ramp = 100;
        policy.share = e -> 0.5;
        CircuitBreaker b = builder(policy, flaky).build();
        tripAndRecover(b, () -> flaky.advance(COOLDOWN));
        flaky.advance(1_000); // the ramp is long over, but nobody has read the ticker since
        flaky.failForever();
        AtomicInteger made = new AtomicInteger();
        for (int i = 0; i < 10; i++) {
            try {
                b.get(made::incrementAndGet);
            } catch (CallNotPermittedException rejected) {
                // a rejection would be fine
            } catch (FlakyTicker.TickerBroke broke) {
                // what happens
            }
        }
        assertEquals(State.CLOSED, b.state());
        assertTrue(
                made.get() > 0 || b.metrics().rejectedCalls() == 10,
                "CLOSED, 10 calls: made " + made.get() + ", rejected "
                        + b.metrics().rejectedCalls());
    }

    // ================================================================ attacks the code withstood

    /**
     * Rule 16 under 16 threads and a moving clock: every request adds its share, and the admitted
     * count is exactly the integer part of the sum (shares chosen as multiples of 1/1024, which
     * the credit holds exactly, so the known rounding defect of Ramp.admit stays out of it).
     * Every other request is a counted rejection; nothing is a transition.
     */
    @Test
    void sixteenThreadsOnARampAreAdmittedExactlyAsTheSumOfTheirShares() throws Exception {
        AtomicLong sharesIn1024ths = new AtomicLong();
        policy.ramp = 1_000_000;
        policy.share = e -> {
            long units = 1 + ThreadLocalRandom.current().nextLong(1024); // 1/1024 .. 1
            sharesIn1024ths.addAndGet(units);
            return units / 1024.0;
        };
        CircuitBreaker b = breaker();
        tripAndRecover(b, () -> ticker.advance(COOLDOWN));
        long generation = b.metrics().generation();
        policy.sharesAsked.set(0);
        int threads = 16;
        int perThread = 20_000;
        AtomicLong admitted = new AtomicLong();
        runTogether(threads, () -> {
            for (int i = 0; i < perThread; i++) {
                if (i % 16 == 0) {
                    ticker.advance(1); // 20 000 ns in all: the ramp (1 ms) never ends
                }
                Permit p = b.tryAcquire();
                if (p.granted()) {
                    admitted.incrementAndGet();
                    p.onSuccess(0);
                } else {
                    assertSame(RejectedPermit.RAMPING, p);
                }
            }
        });
        long requests = (long) threads * perThread;
        assertEquals(requests, policy.sharesAsked.get(), "every request of the ramp asked for its share");
        assertEquals(sharesIn1024ths.get() / 1024, admitted.get(), "admitted = floor(sum of shares)");
        assertEquals(requests - admitted.get(), b.metrics().rejectedCalls());
        assertEquals(State.CLOSED, b.state());
        assertEquals(generation, b.metrics().generation(), "shedding is not a transition");
    }

    /**
     * A back-off reported by a ramp-admitted call, whose compare-and-set loses to the ramp's end
     * (same generation, not a transition): it tries again and opens for the delay, with its own
     * reason, one generation on, not counted as late.
     */
    @Test
    void aBackOffThatLosesItsCompareAndSetToTheRampsEndStillOpens() {
        InterleavingTests.InterleavingTicker clock = new InterleavingTests.InterleavingTicker();
        List<StateTransition> events = new CopyOnWriteArrayList<>();
        policy.ramp = 100;
        CircuitBreaker b = builder(policy, clock)
                .eventExecutor(Runnable::run)
                .listener(e -> {
                    if (e instanceof StateTransition t) {
                        events.add(t);
                    }
                })
                .build();
        tripAndRecover(b, () -> clock.advance(COOLDOWN));
        Permit p = b.tryAcquire(); // share 1: admitted during the ramp
        assertTrue(p.granted());
        long generation = b.metrics().generation();
        clock.atNextRead(() -> {
            clock.advance(100);
            assertTrue(b.tryAcquire().granted()); // ends the ramp: same era, a new snapshot
        });
        p.onFailure(0, new BackOffTests.TooManyRequests(Duration.ofNanos(7)));
        assertEquals(State.OPEN, b.state());
        assertEquals(generation + 1, b.metrics().generation());
        assertEquals(0, b.metrics().lateResults());
        StateTransition last = events.get(events.size() - 1);
        assertEquals(TransitionReason.BACK_OFF, last.reason());
        assertEquals(generation + 1, last.generation());
        clock.advance(6);
        assertFalse(b.tryAcquire().granted(), "open for exactly the delay");
        clock.advance(1);
        assertTrue(b.tryAcquire().isProbe());
    }

    /**
     * A request whose ramp share is asked while a trip lands (the policy's rampShare is the gap)
     * and whose policy then answers nonsense: the broken-ramp swap loses to the trip, nothing is
     * logged about the ramp, and the request is rejected as OPEN, not admitted into a dead era.
     */
    @Test
    void aBrokenShareAnsweredWhileATripLandsIsRejectedAsOpen() throws Exception {
        policy.ramp = 1_000;
        CircuitBreaker b = breaker();
        tripAndRecover(b, () -> ticker.advance(COOLDOWN));
        Permit held = b.tryAcquire(); // share 1.0: admitted
        assertTrue(held.granted());
        long generation = b.metrics().generation();
        policy.share = e -> {
            held.onFailure(0, DOWN); // the trip, between the share's question and its answer
            return Double.NaN;
        };
        try (LogCapture log = new LogCapture()) {
            Permit p = b.tryAcquire();
            assertSame(RejectedPermit.OPEN, p);
            assertFalse(log.text().contains("rampShare"), log.text());
        }
        assertEquals(State.OPEN, b.state());
        assertEquals(generation + 1, b.metrics().generation());
    }

    /**
     * Eight threads acquire, report (success, failure, release), move the clock, isolate and reset
     * a breaker whose rounds close into a ramp and whose trips carry the count; one listener
     * hears every transition once, in generation order, each leaving the state the one before
     * entered, and none for a ramp's end.
     */
    @Test
    void transitionsThroughRampsAndRacesArriveOnceInGenerationOrder() throws Exception {
        Queue<StateTransition> heard = new ConcurrentLinkedQueue<>();
        policy.ramp = 20;
        policy.calm = 30;
        policy.share = e -> 0.5;
        policy.probes = k -> 2;
        CircuitBreaker b = builder(policy, ticker)
                .maxHalfOpenDuration(Duration.ofNanos(50))
                .eventBacklog(CircuitBreakerBuilder.MAX_EVENT_BACKLOG)
                .listener(e -> {
                    if (e instanceof StateTransition t) {
                        heard.add(t);
                    }
                })
                .build();
        runTogether(8, () -> {
            ThreadLocalRandom r = ThreadLocalRandom.current();
            for (int i = 0; i < 20_000; i++) {
                int dice = r.nextInt(10_000);
                if (dice == 0) {
                    b.reset();
                } else if (dice == 1) {
                    b.isolate();
                } else if (dice < 2_000) {
                    ticker.advance(1);
                } else {
                    Permit p = b.tryAcquire();
                    if (p.granted()) {
                        int outcome = r.nextInt(10);
                        if (outcome == 0) {
                            p.onFailure(0, DOWN);
                        } else if (outcome == 1) {
                            p.release();
                        } else {
                            p.onSuccess(0);
                        }
                    }
                }
            }
        });
        long generation = b.metrics().generation();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (heard.size() < generation && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertEquals(0, b.metrics().droppedEvents());
        List<StateTransition> events = new ArrayList<>(heard);
        assertEquals(generation, events.size(), "one event per transition");
        State state = State.CLOSED;
        for (int i = 0; i < events.size(); i++) {
            StateTransition t = events.get(i);
            assertEquals(i + 1, t.generation(), "generation order at " + i);
            assertEquals(state, t.from(), "event " + t + " leaves the state the one before entered");
            if (t.from() == t.to()) {
                assertEquals(TransitionReason.RESET, t.reason(), "only a reset leaves a state for itself: " + t);
            }
            state = t.to();
        }
        assertEquals(b.state(), state);
        assertTrue(events.stream().anyMatch(t -> t.reason() == TransitionReason.PROBES_SUCCEEDED), "rounds closed");
    }

    /** An async call shed by the ramp: the supplier is not run, the stage fails as CLOSED or takes the fallback. */
    @Test
    void anAsyncCallShedByTheRampIsNotMadeAndIsCountedAsRejected() throws Exception {
        policy.ramp = 1_000;
        policy.share = e -> 0.25;
        CircuitBreaker b = breaker();
        tripAndRecover(b, () -> ticker.advance(COOLDOWN));
        AtomicInteger made = new AtomicInteger();
        Supplier<CompletableFuture<String>> call = () -> {
            made.incrementAndGet();
            return CompletableFuture.completedFuture("made");
        };
        for (int i = 0; i < 3; i++) {
            ExecutionException e = assertThrows(
                    ExecutionException.class,
                    () -> b.callAsync(call).toCompletableFuture().get(1, TimeUnit.SECONDS));
            CallNotPermittedException shed = assertInstanceOf(CallNotPermittedException.class, e.getCause());
            assertEquals(State.CLOSED, shed.state());
            assertEquals(1_000, shed.retryAfterNanos());
        }
        assertEquals(0, made.get());
        assertEquals("made", b.callAsync(call).toCompletableFuture().get(1, TimeUnit.SECONDS), "the 4th: 4 x 0.25");
        for (int i = 0; i < 3; i++) {
            assertEquals(
                    "fallback",
                    b.callAsync(call, t -> t instanceof CallNotPermittedException ? "fallback" : "other")
                            .toCompletableFuture()
                            .get(1, TimeUnit.SECONDS));
        }
        assertEquals(1, made.get());
        assertEquals(6, b.metrics().rejectedCalls());
    }

    /** trackedPermits with a ramp: an admitted permit is one of its own and a second report on it is caught. */
    @Test
    void trackedPermitsStayTrackedDuringTheRamp() {
        policy.ramp = 1_000;
        policy.share = e -> 0.5;
        CircuitBreaker b = builder(policy, ticker).trackedPermits(true).build();
        tripAndRecover(b, () -> ticker.advance(COOLDOWN));
        assertSame(RejectedPermit.RAMPING, b.tryAcquire());
        Permit first = b.tryAcquire();
        assertSame(RejectedPermit.RAMPING, b.tryAcquire());
        Permit second = b.tryAcquire();
        assertTrue(first.granted() && second.granted());
        assertNotSame(first, second);
        first.onSuccess(0);
        first.onSuccess(0);
        assertEquals(1, b.metrics().duplicateReports());
        assertEquals(State.CLOSED, b.state());
    }

    /**
     * trackedPermits after the ramp: still a permit per call once the ramp has ended, also when
     * the ticker failed at the close (the ramp then starts at the first good reading); without
     * trackedPermits, the one shared permit of the era, during the ramp and after it.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void permitsKeepTheirKindAfterTheRampEvenOneStartedLate(boolean tracked) {
        policy.ramp = 1_000;
        policy.share = e -> 0.5;
        FlakyTicker flaky = new FlakyTicker();
        CircuitBreaker b = builder(policy, flaky).trackedPermits(tracked).build();
        b.tryAcquire().onFailure(0, DOWN);
        flaky.advance(COOLDOWN);
        Permit probe = b.tryAcquire();
        flaky.failNext(1);
        assertThrows(FlakyTicker.TickerBroke.class, () -> probe.onSuccess(0)); // closes, the moment unknown
        assertEquals(State.CLOSED, b.state());
        Permit during = admitted(b);
        assertEquals(tracked, during != admitted(b), "during the ramp");
        flaky.advance(1_000);
        assertTrue(b.tryAcquire().granted(), "the ramp is over"); // this call ends it
        Permit after = b.tryAcquire();
        assertEquals(tracked, after != b.tryAcquire(), "after the ramp");
        assertEquals(!tracked, after == during, "one shared permit per era, ramp or not");
        after.onSuccess(0);
        after.onSuccess(0);
        assertEquals(tracked ? 1 : 0, b.metrics().duplicateReports());
    }

    /** The first permit the ramp admits, past those it sheds. */
    private static Permit admitted(CircuitBreaker b) {
        for (int i = 0; i < 10; i++) {
            Permit p = b.tryAcquire();
            if (p.granted()) {
                return p;
            }
        }
        throw new AssertionError("the ramp admitted none of 10 calls");
    }

    /** A policy whose probes(k) answers differently at every call: the round grants what it answered at the round's start. */
    @Test
    void aRoundGrantsWhatProbesAnsweredWhenItBegan() {
        AtomicInteger asked = new AtomicInteger();
        policy.probes = k -> asked.incrementAndGet(); // build: 1, 2; round start: 3; then 4, 5, ...
        CircuitBreaker b = breaker();
        b.tryAcquire().onFailure(0, DOWN);
        ticker.advance(COOLDOWN);
        int granted = 0;
        for (int i = 0; i < 50; i++) {
            if (b.tryAcquire().granted()) {
                granted++;
            }
        }
        assertEquals(3, granted);
        assertEquals(3, asked.get(), "asked once per round, not per request");
    }

    /** A policy that answers WAIT forever cannot wedge a round: it fails after maxHalfOpenDuration, as one more opening. */
    @Test
    void aPolicyThatNeverDecidesIsFailedAfterTheMaximumHalfOpenDuration() {
        FunctionPolicy undecided = new FunctionPolicy() {
            @Override
            public Verdict decide(int consecutiveOpens, int successes, int failures) {
                return Verdict.WAIT;
            }
        };
        CircuitBreaker b = builder(undecided, ticker)
                .maxHalfOpenDuration(Duration.ofNanos(100))
                .build();
        b.tryAcquire().onFailure(0, DOWN);
        ticker.advance(COOLDOWN);
        b.tryAcquire().onSuccess(0);
        assertEquals(State.HALF_OPEN, b.state());
        assertSame(RejectedPermit.HALF_OPEN, b.tryAcquire(), "every probe reported, still undecided");
        ticker.advance(100);
        assertSame(RejectedPermit.OPEN, b.tryAcquire(), "the round timed out");
        ticker.advance(2 * COOLDOWN - 1);
        assertFalse(b.tryAcquire().granted(), "opening 2: cooldown 20");
        ticker.advance(1);
        assertTrue(b.tryAcquire().isProbe());
    }

    /** A 200-year ramp on a ticker that wraps: the shed call says the rest of the ramp, readably, and the end comes exactly. */
    @Test
    void aTwoHundredYearRampOnAWrappingTicker() {
        long ramp = Duration.ofDays(365L * 200).toNanos();
        List<Long> outside = new CopyOnWriteArrayList<>();
        policy.ramp = ramp;
        policy.share = e -> {
            if (e < 0 || e >= ramp) {
                outside.add(e); // an assertion here would be caught by the breaker as a broken policy
            }
            return 0.5;
        };
        CircuitBreaker b = breaker();
        tripAndRecover(b, () -> ticker.advance(COOLDOWN));
        CallNotPermittedException shed = assertThrows(CallNotPermittedException.class, () -> b.get(() -> "x"));
        assertEquals(ramp, shed.retryAfterNanos());
        assertTrue(shed.getMessage().contains("every call admitted again in 73000 d 0 h"), shed.getMessage());
        ticker.advance(ramp - 1); // wraps
        b.tryAcquire();
        int asked = policy.sharesAsked.get();
        ticker.advance(1);
        for (int i = 0; i < 5; i++) {
            assertTrue(b.tryAcquire().granted());
        }
        assertEquals(asked, policy.sharesAsked.get(), "over: the policy is not asked");
        assertEquals(List.of(), outside, "shares asked outside [0, ramp)");
    }

    /** A ramp of 1 ns: one request at the close is judged by its share, the next nanosecond is unrestricted. */
    @Test
    void aOneNanosecondRampEndsAfterOneNanosecond() {
        policy.ramp = 1;
        policy.share = e -> 0.5;
        CircuitBreaker b = breaker();
        tripAndRecover(b, () -> ticker.advance(COOLDOWN));
        long generation = b.metrics().generation();
        assertSame(RejectedPermit.RAMPING, b.tryAcquire());
        ticker.advance(1);
        for (int i = 0; i < 5; i++) {
            assertTrue(b.tryAcquire().granted());
        }
        assertEquals(1, policy.sharesAsked.get());
        assertEquals(generation, b.metrics().generation());
    }

    /** A ticker that steps back during the ramp: the share is asked at 0, never at a negative elapsed time. */
    @Test
    void aTickerSteppingBackDuringTheRampAsksTheShareAtZero() {
        List<Long> asked = new CopyOnWriteArrayList<>();
        policy.ramp = 100;
        policy.share = e -> {
            asked.add(e);
            return 1.0;
        };
        CircuitBreaker b = breaker();
        tripAndRecover(b, () -> ticker.advance(COOLDOWN));
        ticker.advance(40);
        assertTrue(b.tryAcquire().granted());
        ticker.advance(-1_000);
        assertTrue(b.tryAcquire().granted());
        assertEquals(List.of(40L, 0L), asked);
    }

    /** The calm period's boundary across the ticker's wrap: calm - 1 carries the count, exactly calm starts it over. */
    @Test
    void theCalmPeriodsBoundaryHoldsAcrossTheWrap() {
        policy.calm = 50;
        for (long closedFor : new long[] {49, 50}) {
            FakeTicker t = new FakeTicker(Long.MAX_VALUE - 30);
            CircuitBreaker b = builder(policy, t).build();
            tripAndRecover(b, () -> t.advance(COOLDOWN)); // closes at MAX - 20
            t.advance(closedFor); // wraps
            b.tryAcquire().onFailure(0, DOWN);
            t.advance(COOLDOWN);
            assertEquals(closedFor >= 50, b.tryAcquire().isProbe(), "closed for " + closedFor);
        }
    }

    /** Isolated during a ramp: rejections say ISOLATED, not CLOSED; a reset after it does not ramp. */
    @Test
    void isolatingARampingBreakerAndResettingItEndsTheRamp() {
        policy.ramp = 1_000;
        policy.share = e -> 0.1;
        CircuitBreaker b = breaker();
        tripAndRecover(b, () -> ticker.advance(COOLDOWN));
        assertSame(RejectedPermit.RAMPING, b.tryAcquire());
        b.isolate();
        CallNotPermittedException e = assertThrows(CallNotPermittedException.class, () -> b.get(() -> "x"));
        assertEquals(State.ISOLATED, e.state());
        assertEquals(-1, e.retryAfterNanos());
        b.reset();
        int asked = policy.sharesAsked.get();
        for (int i = 0; i < 10; i++) {
            assertTrue(b.tryAcquire().granted());
        }
        assertEquals(asked, policy.sharesAsked.get());
    }

    private static void runTogether(int threads, ThrowingRunnable work) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CyclicBarrier start = new CyclicBarrier(threads);
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                done.add(pool.submit(() -> {
                    start.await(10, TimeUnit.SECONDS);
                    work.run();
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @FunctionalInterface
    private interface ThrowingRunnable {
        void run() throws Exception;
    }
}
