package dev.breaker.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breaker.CircuitBreaker;
import dev.breaker.Permit;
import dev.breaker.State;
import dev.breaker.StateTransition;
import dev.breaker.TransitionReason;
import dev.breaker.Windows;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * The rejection counts are exact under races: every rejection lands in exactly one summary or is
 * still pending, whichever threads claim intervals and whichever transitions flush or retire the
 * breaker's record meanwhile.
 */
class RejectionSummaryRaceTests {

    private static final int REJECTERS = 4;
    private static final int ROUNDS = 2_000;
    private static final int PER_ROUND = 16;
    private static final long INTERVAL = 1_000;
    private static final State[] REJECTING = {State.OPEN, State.HALF_OPEN, State.ISOLATED, State.CLOSED};

    /**
     * A logger whose ticker yields before each reading: between a rejecter's lookup and its count,
     * which lets a retirement, a claim or a sweep in.
     */
    private static Slf4jEventLogger yielding(ManualTicker ticker, CapturedLog captured) {
        return Slf4jEventLogger.builder()
                .logger(captured)
                .ticker(() -> {
                    Thread.yield();
                    return ticker.read();
                })
                .rejectionSummaryInterval(Duration.ofNanos(INTERVAL))
                .build();
    }

    @Test
    void racingClaimsFlushesAndRetirementsCountEveryRejectionOnce() throws Exception {
        ManualTicker ticker = new ManualTicker(Long.MAX_VALUE - ROUNDS * INTERVAL / 2); // wraps midway
        CapturedLog captured = new CapturedLog();
        Slf4jEventLogger log = yielding(ticker, captured);
        CircuitBreaker b = CircuitBreaker.builder("race").build(); // only its name is used
        // every round: the interval is over, so the rejecters' first calls race to claim it, while a
        // transition flushes (and every third round retires the record, as a close does)
        CyclicBarrier start = new CyclicBarrier(REJECTERS + 1, () -> ticker.advance(INTERVAL));
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
        for (int t = 0; t < REJECTERS; t++) {
            State state = REJECTING[t];
            threads.add(new Thread(
                    () -> {
                        try {
                            for (int r = 0; r < ROUNDS; r++) {
                                start.await(30, TimeUnit.SECONDS);
                                for (int i = 0; i < PER_ROUND; i++) {
                                    log.onRejected(b, state);
                                }
                            }
                        } catch (Throwable e) {
                            failures.add(e);
                        }
                    },
                    "rejecter-" + t));
        }
        threads.add(new Thread(
                () -> {
                    try {
                        for (int r = 0; r < ROUNDS; r++) {
                            start.await(30, TimeUnit.SECONDS);
                            State to = r % 3 == 0 ? State.CLOSED : State.HALF_OPEN;
                            log.onEvent(new StateTransition("race", State.OPEN, to, r, TransitionReason.RESET, 0));
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                },
                "transitions"));
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join(TimeUnit.MINUTES.toMillis(2));
        }
        assertEquals(List.of(), failures);

        long made = (long) REJECTERS * ROUNDS * PER_ROUND;
        assertEquals(made, captured.summarised() + log.pendingRejections("race"));
        int summaries = captured.summaries().size();
        assertTrue(summaries <= 2 * ROUNDS, "at most one claim and one flush per round: " + summaries);
        assertTrue(log.trackedBreakers() <= 1);
    }

    /**
     * Breakers that go quiet and come back, each round another few of them: the records that
     * rejecters make run the sweeps that forget quiet ones, while other rejecters count into them
     * (a retired record's count is moved to the breaker's new one). Every rejection is in exactly
     * one summary or still pending.
     */
    @Test
    void sweepsOfQuietBreakersRacingRejectersCountEveryRejectionOnce() throws Exception {
        ManualTicker ticker = new ManualTicker(Long.MAX_VALUE - ROUNDS * INTERVAL / 2); // wraps midway
        CapturedLog captured = new CapturedLog();
        Slf4jEventLogger log = yielding(ticker, captured);
        int names = 7;
        CircuitBreaker[] breakers = new CircuitBreaker[names];
        for (int n = 0; n < names; n++) {
            breakers[n] = CircuitBreaker.builder("quiet-" + n).build(); // only their names are used
        }
        CyclicBarrier start = new CyclicBarrier(REJECTERS, () -> ticker.advance(INTERVAL));
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
        for (int t = 0; t < REJECTERS; t++) {
            int offset = t;
            threads.add(new Thread(() -> {
                try {
                    for (int r = 0; r < ROUNDS; r++) {
                        start.await(30, TimeUnit.SECONDS);
                        // each round two of the seven names: each is quiet for a few intervals, then back
                        CircuitBreaker b = breakers[(r * 2 + offset % 2) % names];
                        for (int i = 0; i < PER_ROUND; i++) {
                            log.onRejected(b, State.OPEN);
                        }
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            }));
        }
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join(TimeUnit.MINUTES.toMillis(2));
        }
        assertEquals(List.of(), failures);
        long pending = 0;
        for (CircuitBreaker b : breakers) {
            pending += log.pendingRejections(b.name());
        }
        assertEquals((long) REJECTERS * ROUNDS * PER_ROUND, captured.summarised() + pending);
        assertTrue(log.trackedBreakers() <= names);
        // then all seven go quiet, and a new breaker's first rejection runs a sweep: only it is left
        ticker.advance(3 * INTERVAL);
        log.onRejected(CircuitBreaker.builder("newcomer").build(), State.OPEN);
        assertEquals(1, log.trackedBreakers(), "the quiet ones were written and forgotten");
        assertEquals(
                (long) REJECTERS * ROUNDS * PER_ROUND + 1, captured.summarised() + log.pendingRejections("newcomer"));
    }

    @Test
    void aRealBreakerFloodedByRacingCallersWhileItOpensAndCloses() throws Exception {
        CapturedLog captured = new CapturedLog();
        Slf4jEventLogger log = Slf4jEventLogger.builder()
                .logger(captured)
                .rejectionSummaryInterval(Duration.ofMillis(1))
                .build();
        CircuitBreaker b = CircuitBreaker.builder("flood")
                .window(Windows.consecutiveFailures(1))
                .cooldown(Duration.ofDays(1))
                .listener(log)
                .observer(log)
                .eventExecutor(Runnable::run)
                .build();
        AtomicBoolean done = new AtomicBoolean();
        // the operator's rounds: callers go on until it has made some and the breaker has rejected
        // some of their calls, so the two overlap however the threads are scheduled (fresh-clone
        // CI runs saw callers finish before any isolation, and later an operator make its 300
        // rounds while no caller ran, ending closed); at most a minute
        java.util.concurrent.atomic.AtomicInteger rounds = new java.util.concurrent.atomic.AtomicInteger();
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        List<Thread> callers = new ArrayList<>();
        for (int t = 0; t < REJECTERS; t++) {
            callers.add(new Thread(() -> {
                boolean rejectedYet = false;
                for (int i = 0; i < 100_000 || rounds.get() < 300 || !rejectedYet; i++) {
                    Permit p = b.tryAcquire();
                    if (p.granted()) {
                        p.onSuccess(0);
                    }
                    if ((i & 1023) == 0) { // a read of the metrics takes the window's lock: now and then
                        rejectedYet = b.metrics().rejectedCalls() > 0 || System.nanoTime() > deadline;
                    }
                }
            }));
        }
        Thread operator = new Thread(() -> {
            for (int i = 0; !done.get(); i++) {
                switch (i % 3) {
                    case 0 -> b.tryAcquire().onFailure(0, null); // trips it, if CLOSED
                    case 1 -> b.isolate();
                    default -> b.reset();
                }
                rounds.incrementAndGet();
                Thread.onSpinWait();
            }
        });
        callers.forEach(Thread::start);
        operator.start();
        for (Thread t : callers) {
            t.join(TimeUnit.MINUTES.toMillis(2));
        }
        done.set(true);
        operator.join(TimeUnit.MINUTES.toMillis(1));

        long rejected = b.metrics().rejectedCalls();
        assertTrue(rejected > 0, "the breaker rejected calls");
        assertEquals(rejected, captured.summarised() + log.pendingRejections("flood"));
    }
}
