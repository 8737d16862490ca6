package dev.breaker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breaker.spi.Window;
import dev.breaker.spi.WindowCounts;
import dev.breaker.spi.WindowFactory;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Races decided one way, deterministically: the ticker is read between a decision's snapshot and
 * its compare-and-set, so a ticker that acts when it is read puts another thread's transition in
 * exactly that gap. Each test is a race the concurrency tests can only hope to hit; here the loser
 * of the compare-and-set must re-read and decide on the new state.
 */
class InterleavingTests {

    private static final long COOLDOWN = 10_000_000L;

    /** A fake ticker that runs an action once, at its next reading, before answering; or fails once. */
    static final class InterleavingTicker implements Ticker {
        private final AtomicLong now = new AtomicLong(1_000);
        private final AtomicReference<Runnable> atNextRead = new AtomicReference<>();
        private volatile boolean failNext;

        @Override
        public long read() {
            if (failNext) {
                failNext = false;
                throw new FlakyTicker.TickerBroke();
            }
            Runnable action = atNextRead.getAndSet(null);
            if (action != null) {
                action.run();
            }
            return now.get();
        }

        void failNext() {
            failNext = true;
        }

        void atNextRead(Runnable action) {
            atNextRead.set(action);
        }

        void advance(long nanos) {
            now.addAndGet(nanos);
        }
    }

    private final InterleavingTicker ticker = new InterleavingTicker();

    /** A window that never trips and answers {@code counts()} through {@code counts}. */
    private static WindowFactory windowCountedBy(Supplier<WindowCounts> counts, String description) {
        return new WindowFactory() {
            @Override
            public Window create(Ticker t) {
                return new Window() {
                    @Override
                    public boolean record(boolean failure, boolean slow) {
                        return false;
                    }

                    @Override
                    public WindowCounts counts() {
                        return counts.get();
                    }
                };
            }

            @Override
            public String describe() {
                return description;
            }
        };
    }

    private CircuitBreaker openBreaker(int probes) {
        CircuitBreaker b = CircuitBreaker.builder("interleaved")
                .window(Windows.consecutiveFailures(1))
                .cooldown(Duration.ofNanos(COOLDOWN))
                .probes(probes)
                .ticker(ticker)
                .build();
        b.tryAcquire().onFailure(0, null);
        assertEquals(State.OPEN, b.state());
        ticker.advance(COOLDOWN);
        return b;
    }

    @Test
    void isolatedWhileACallerEndsTheCooldownNoProbeIsGiven() {
        CircuitBreaker b = openBreaker(1);
        ticker.atNextRead(b::isolate);
        Permit p = b.tryAcquire();
        assertFalse(p.granted(), "the cooldown ended, but the breaker was isolated first");
        assertEquals(State.ISOLATED, b.state());
        assertEquals(0, b.metrics().probesAdmitted());
    }

    @Test
    void resetWhileACallerEndsTheCooldownTheCallerGetsAClosedPermit() {
        CircuitBreaker b = openBreaker(1);
        ticker.atNextRead(b::reset);
        Permit p = b.tryAcquire();
        assertTrue(p.granted());
        assertFalse(p.isProbe(), "the breaker closed first: an ordinary CLOSED permit");
        assertSame(p, b.tryAcquire(), "the era's one shared permit");
        assertEquals(State.CLOSED, b.state());
        p.onSuccess(0);
        assertEquals(0, b.metrics().lateResults(), "a permit of the current era");
    }

    @Test
    void aBackOffIsNotLostWhenAnotherProbeIsAdmittedAtTheSameMoment() {
        CircuitBreaker b = openBreaker(2);
        Permit first = b.tryAcquire();
        assertTrue(first.isProbe());
        Permit[] second = new Permit[1];
        ticker.atNextRead(() -> second[0] = b.tryAcquire());
        first.onFailure(0, new BackOffTests.TooManyRequests(Duration.ofSeconds(3)));
        assertTrue(second[0].isProbe(), "the second probe got in while the back-off was being decided");
        assertEquals(State.OPEN, b.state(), "and the back-off still opened the breaker");
        ticker.advance(3_000_000_000L - 1);
        assertFalse(b.tryAcquire().granted(), "for the delay asked for");
    }

    @Test
    void aProbeReportedTwiceAsABackOffCountsADuplicateAndChangesNothing() {
        CircuitBreaker b = openBreaker(2);
        Permit probe = b.tryAcquire();
        probe.onSuccess(0);
        long generation = b.metrics().generation();
        probe.onFailure(0, new BackOffTests.TooManyRequests(Duration.ofSeconds(3)));
        assertEquals(1, b.metrics().duplicateReports());
        assertEquals(State.HALF_OPEN, b.state());
        assertEquals(generation, b.metrics().generation());
    }

    @Test
    void aTickerThatFailsWhileBackingOffStillOpensAndItsFailureReachesTheReporter() {
        FlakyTicker flaky = new FlakyTicker();
        CircuitBreaker b = CircuitBreaker.builder("flaky-back-off")
                .window(Windows.consecutiveFailures(5))
                .ticker(flaky)
                .build();
        Permit p = b.tryAcquire();
        flaky.failNext(1);
        assertThrows(
                FlakyTicker.TickerBroke.class,
                () -> p.onFailure(0, new BackOffTests.TooManyRequests(Duration.ofSeconds(3))));
        assertEquals(State.OPEN, b.state(), "the back-off happened; its start is the first good reading");
        flaky.advance(3_000_000_000L - 1);
        assertFalse(b.tryAcquire().granted());
    }

    @Test
    void whenTheTickerAndTheWindowBothFailIsolateThrowsTheFirstWithTheSecondSuppressed() {
        FlakyTicker flaky = new FlakyTicker();
        RuntimeException windowBug = new IllegalStateException("counts bug");
        CircuitBreaker b = CircuitBreaker.builder("both-fail")
                .window(windowCountedBy(
                        () -> {
                            throw windowBug;
                        },
                        "a window whose counts fail"))
                .ticker(flaky)
                .build();
        flaky.failNext(1);
        FlakyTicker.TickerBroke thrown = assertThrows(FlakyTicker.TickerBroke.class, b::isolate);
        assertEquals(State.ISOLATED, b.state(), "isolating works with both broken");
        assertEquals(1, thrown.getSuppressed().length);
        assertSame(windowBug, thrown.getSuppressed()[0]);
    }

    @Test
    void isolateWinsOverAResetThatLandsWhileItReadsTheCounts() {
        CircuitBreaker[] self = new CircuitBreaker[1];
        AtomicReference<Runnable> whenCounted = new AtomicReference<>();
        CircuitBreaker b = CircuitBreaker.builder("isolate-vs-reset")
                .window(windowCountedBy(
                        () -> {
                            Runnable action = whenCounted.getAndSet(null);
                            if (action != null) {
                                action.run();
                            }
                            return WindowCounts.empty();
                        },
                        "a window that lets a reset in while it is counted"))
                .ticker(ticker)
                .build();
        self[0] = b;
        whenCounted.set(() -> self[0].reset());
        b.isolate();
        assertEquals(State.ISOLATED, b.state(), "the isolation retried on the new era and took effect");
        assertEquals(2, b.metrics().generation(), "the reset, then the isolation");
    }

    @Test
    void isolatedWhileAnExpiredRoundIsReopenedTheRejectionSaysIsolated() {
        CircuitBreaker b = CircuitBreaker.builder("expired-round")
                .window(Windows.consecutiveFailures(1))
                .cooldown(Duration.ofNanos(COOLDOWN))
                .maxHalfOpenDuration(Duration.ofNanos(COOLDOWN))
                .ticker(ticker)
                .build();
        b.tryAcquire().onFailure(0, null);
        ticker.advance(COOLDOWN);
        assertTrue(b.tryAcquire().isProbe());
        ticker.advance(COOLDOWN); // the round has expired; the next request reopens it
        ticker.atNextRead(b::isolate);
        CallNotPermittedException e = assertThrows(CallNotPermittedException.class, () -> b.get(() -> 1));
        assertEquals(State.ISOLATED, e.state(), "the isolation came first: the rejection says so");
        assertEquals(State.ISOLATED, b.state());
    }

    @Test
    void isolatedWhileTheFirstGoodReadingStartsTheCooldownTheRejectionSaysIsolated() {
        CircuitBreaker b = CircuitBreaker.builder("unknown-start")
                .window(Windows.consecutiveFailures(1))
                .cooldown(Duration.ofNanos(COOLDOWN))
                .ticker(ticker)
                .build();
        Permit p = b.tryAcquire();
        ticker.failNext();
        assertThrows(FlakyTicker.TickerBroke.class, () -> p.onFailure(0, null));
        assertEquals(State.OPEN, b.state(), "opened with its start unknown");
        ticker.atNextRead(b::isolate);
        CallNotPermittedException e = assertThrows(CallNotPermittedException.class, () -> b.get(() -> 1));
        assertEquals(State.ISOLATED, e.state());
    }
}
