package dev.breaker.halfopen;

import static dev.breaker.halfopen.Breakers.failAt;
import static dev.breaker.halfopen.Breakers.openExactly;
import static dev.breaker.halfopen.ManualTicker.SECOND;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breaker.BreakerMetrics;
import dev.breaker.CircuitBreaker;
import dev.breaker.Permit;
import dev.breaker.State;
import dev.breaker.spi.HalfOpenPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * SPEC rules 3 and 15: with {@code probes = N} and {@code closeAfter = k}, exactly N permits per
 * round, however many ask at once; the round closes at its k-th success and reopens as soon as
 * more than N - k probes failed; a released probe frees its slot.
 */
class ClosingCriteriaTests {

    private static final int THREADS = 1000;
    private static final int ROUNDS = 20;

    private final ManualTicker ticker = new ManualTicker(Long.MAX_VALUE - SECOND); // wraps at once

    /** Probes 3, close after 2; a fixed cooldown of 1 s (multiplier 1). */
    private static HalfOpenPolicy threeCloseAfterTwo() {
        return ExponentialPolicy.builder()
                .initial(Duration.ofSeconds(1))
                .multiplier(1)
                .probes(3)
                .closeAfter(2)
                .build();
    }

    /**
     * 1000 threads behind a barrier ask for a permit at the same instant, round after round:
     * exactly 3 are granted each time and 997 rejected. Rounds alternate between closing (2
     * successes) and reopening (2 failures); the third probe then reports late.
     */
    @Tag("race")
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void exactlyThreePermitsPerRoundWithAThousandThreadsAsking() throws Exception {
        CircuitBreaker b = Breakers.breaker(threeCloseAfterTwo(), ticker, 1);
        CyclicBarrier start = new CyclicBarrier(THREADS + 1);
        CyclicBarrier end = new CyclicBarrier(THREADS + 1);
        ConcurrentLinkedQueue<Permit> granted = new ConcurrentLinkedQueue<>();
        AtomicInteger rejected = new AtomicInteger();
        AtomicReference<Throwable> trouble = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < THREADS; i++) {
            Thread t = new Thread(() -> {
                try {
                    for (int r = 0; r < ROUNDS; r++) {
                        start.await();
                        Permit p = b.tryAcquire();
                        if (p.granted()) {
                            granted.add(p);
                        } else {
                            rejected.incrementAndGet();
                        }
                        end.await();
                    }
                } catch (Throwable e) {
                    trouble.compareAndSet(null, e);
                    start.reset();
                    end.reset();
                }
            });
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }
        long time = 0;
        long late = 0;
        long rejections = 0;
        failAt(b, ticker, time); // OPEN for 1 s
        for (int r = 0; r < ROUNDS; r++) {
            time += SECOND;
            ticker.at(time);
            granted.clear();
            rejected.set(0);
            start.await(30, TimeUnit.SECONDS);
            end.await(30, TimeUnit.SECONDS);
            assertEquals(3, granted.size(), "round " + r + ": exactly N permits");
            assertEquals(THREADS - 3, rejected.get(), "round " + r + ": the rest rejected");
            rejections += THREADS - 3;
            BreakerMetrics m = b.metrics();
            assertEquals(State.HALF_OPEN, m.state());
            assertEquals(3, m.probesAdmitted());
            assertEquals(rejections, m.rejectedCalls());
            List<Permit> probes = new ArrayList<>(granted);
            for (Permit p : probes) {
                assertTrue(p.isProbe());
            }
            if (r % 2 == 0) { // close on the 2nd success, the 3rd then late
                probes.get(0).onSuccess(0);
                assertEquals(State.HALF_OPEN, b.state());
                probes.get(1).onSuccess(0);
                assertEquals(State.CLOSED, b.state(), "round " + r + ": closed at the 2nd success");
                probes.get(2).onFailure(0, new IllegalStateException("late"));
                assertEquals(State.CLOSED, b.state(), "a late result decides nothing");
                failAt(b, ticker, time); // trip again: OPEN for 1 s
            } else { // reopen on the 2nd failure, the 3rd then late
                probes.get(0).onFailure(0, new IllegalStateException("down"));
                assertEquals(State.HALF_OPEN, b.state());
                probes.get(1).onFailure(0, new IllegalStateException("down"));
                assertEquals(State.OPEN, b.state(), "round " + r + ": reopened at the 2nd failure");
                probes.get(2).onSuccess(0);
                assertEquals(State.OPEN, b.state(), "a late result decides nothing");
            }
            late++;
            assertEquals(late, b.metrics().lateResults());
        }
        for (Thread t : threads) {
            t.join(TimeUnit.SECONDS.toMillis(30));
        }
        assertNull(trouble.get(), "no worker failed");
    }

    /** Probes 3, close after 2: the 2nd success closes at once, with the 3rd probe in flight; its report is late. */
    @Test
    void closesAtTheSecondSuccessWithTheThirdProbeInFlight() {
        CircuitBreaker b = Breakers.breaker(threeCloseAfterTwo(), ticker, 1);
        failAt(b, ticker, 0);
        Permit first = openExactly(b, ticker, 0, SECOND);
        Permit second = b.tryAcquire();
        Permit third = b.tryAcquire();
        assertTrue(second.granted());
        assertTrue(third.granted());
        assertFalse(b.tryAcquire().granted(), "N = 3");
        first.onSuccess(0);
        assertEquals(State.HALF_OPEN, b.state(), "one success of the two needed");
        assertEquals(1, b.metrics().probeSuccesses());
        second.onSuccess(0);
        assertEquals(State.CLOSED, b.state(), "k = 2 successes close at once");
        assertEquals(0, b.metrics().lateResults());
        assertTrue(b.tryAcquire().granted(), "CLOSED: calls pass");
        third.onFailure(0, new IllegalStateException("late"));
        assertEquals(State.CLOSED, b.state(), "the third probe's failure is late: no trip");
        assertEquals(1, b.metrics().lateResults());
        assertEquals(0, b.metrics().failedCalls(), "nor is it recorded in the new window");
        failAt(b, ticker, SECOND); // a failure of the new era trips (window of 1)
        assertEquals(State.OPEN, b.state());
    }

    /** Probes 3, close after 2: 2 failures (N - k + 1) reopen at once, whatever the third does later. */
    @Test
    void reopensAsSoonAsTwoFailuresAreReported() {
        CircuitBreaker b = Breakers.breaker(threeCloseAfterTwo(), ticker, 1);
        failAt(b, ticker, 0);
        Permit first = openExactly(b, ticker, 0, SECOND);
        Permit second = b.tryAcquire();
        Permit third = b.tryAcquire();
        first.onSuccess(0);
        ticker.at(SECOND + 10);
        second.onFailure(0, new IllegalStateException("down"));
        assertEquals(State.HALF_OPEN, b.state(), "1 success, 1 failure: 2 successes still possible");
        ticker.at(SECOND + 20);
        third.onFailure(0, new IllegalStateException("down"));
        assertEquals(State.OPEN, b.state(), "2 failures: 2 successes of 3 are out of reach");
        openExactly(b, ticker, SECOND + 20, SECOND); // a new cooldown from the deciding failure
    }

    /** Two failures first: OPEN at the second, with the third probe still in flight (late later). */
    @Test
    void twoFailuresReopenWithTheThirdProbeInFlight() {
        CircuitBreaker b = Breakers.breaker(threeCloseAfterTwo(), ticker, 1);
        failAt(b, ticker, 0);
        Permit first = openExactly(b, ticker, 0, SECOND);
        Permit second = b.tryAcquire();
        Permit third = b.tryAcquire();
        first.onFailure(0, new IllegalStateException("down"));
        assertEquals(State.HALF_OPEN, b.state());
        second.onFailure(0, new IllegalStateException("down"));
        assertEquals(State.OPEN, b.state());
        third.onSuccess(0);
        assertEquals(State.OPEN, b.state());
        assertEquals(1, b.metrics().lateResults());
    }

    /** closeAfter defaults to probes: all 3 must succeed; one failure of 3 reopens at once. */
    @Test
    void defaultCloseAfterRequiresEveryProbe() {
        HalfOpenPolicy all = ExponentialPolicy.builder()
                .initial(Duration.ofSeconds(1))
                .multiplier(1)
                .probes(3)
                .build();
        assertEquals(HalfOpenPolicy.Verdict.WAIT, all.decide(1, 2, 0));
        assertEquals(HalfOpenPolicy.Verdict.CLOSE, all.decide(1, 3, 0));
        assertEquals(HalfOpenPolicy.Verdict.OPEN, all.decide(1, 0, 1));
        CircuitBreaker b = Breakers.breaker(all, ticker, 1);
        failAt(b, ticker, 0);
        Permit first = openExactly(b, ticker, 0, SECOND);
        Permit second = b.tryAcquire();
        Permit third = b.tryAcquire();
        first.onSuccess(0);
        second.onSuccess(0);
        assertEquals(State.HALF_OPEN, b.state(), "2 of 3 do not close");
        third.onSuccess(0);
        assertEquals(State.CLOSED, b.state(), "3 of 3 close");

        failAt(b, ticker, 2 * SECOND);
        first = openExactly(b, ticker, 2 * SECOND, SECOND);
        second = b.tryAcquire();
        third = b.tryAcquire();
        first.onSuccess(0);
        second.onSuccess(0);
        third.onFailure(0, new IllegalStateException("down"));
        assertEquals(State.OPEN, b.state(), "one failure of 3 reopens");

        first = openExactly(b, ticker, 3 * SECOND, SECOND);
        second = b.tryAcquire();
        first.onFailure(0, new IllegalStateException("down"));
        assertEquals(State.OPEN, b.state(), "the first failure reopens at once, the others in flight");
        second.onSuccess(0);
        assertEquals(1, b.metrics().lateResults());
    }

    /** A released probe frees its slot, and counts neither as a success nor as a failure. */
    @Test
    void releasedProbeFreesItsSlot() {
        CircuitBreaker b = Breakers.breaker(threeCloseAfterTwo(), ticker, 1);
        failAt(b, ticker, 0);
        Permit first = openExactly(b, ticker, 0, SECOND);
        Permit second = b.tryAcquire();
        Permit third = b.tryAcquire();
        assertFalse(b.tryAcquire().granted());
        assertEquals(3, b.metrics().probesAdmitted());
        second.release();
        assertEquals(2, b.metrics().probesAdmitted());
        assertEquals(State.HALF_OPEN, b.state());
        Permit fourth = b.tryAcquire();
        assertTrue(fourth.granted(), "the released slot admits a new probe");
        assertFalse(b.tryAcquire().granted(), "but only one");
        first.onSuccess(0);
        third.release();
        assertEquals(State.HALF_OPEN, b.state(), "a release is not a success");
        assertEquals(1, b.metrics().probeSuccesses());
        Permit fifth = b.tryAcquire();
        assertTrue(fifth.granted());
        fifth.onFailure(0, new IllegalStateException("down"));
        assertEquals(State.HALF_OPEN, b.state(), "1 success, 1 failure, 1 in flight");
        fourth.onSuccess(0);
        assertEquals(State.CLOSED, b.state());
        assertEquals(0, b.metrics().lateResults(), "a release is never late");
    }
}
