package dev.breaker.spi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breaker.internal.Released;
import dev.breaker.internal.Totals;
import dev.breaker.internal.WindowTotals;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A {@link CombiningWindow} counting a breaker's calls for it ({@link WindowTotals}): every record
 * counted once, in its outcome's slot, whichever path it took (the lock, a buffer, the healthy
 * skip, a failed stamp), before and after the window is retired, and read without ever going back.
 */
class WindowTotalsTests {

    private static long[] calls(long fastSuccesses, long fastFailures, long slowSuccesses, long slowFailures) {
        return new long[] {fastSuccesses, fastFailures, slowSuccesses, slowFailures};
    }

    @Test
    void aLoneRecordersCallsAreCountedByOutcomeInTheWindowNotYetInTheTotals() {
        CombiningWindowTests.Plain w = new CombiningWindowTests.Plain();
        Totals totals = new Totals();
        WindowTotals.attach(w, totals);
        assertTrue(WindowTotals.countsInto(w, totals));
        w.record(false, false);
        w.record(true, false);
        w.record(true, false);
        w.record(false, true);
        w.recordAt(true, true, 123);
        assertArrayEquals(calls(1, 2, 1, 1), WindowTotals.calls(w, totals));
        assertEquals(0, totals.sum(Totals.FAST_FAILURES), "held in the window's lanes: no atomic add per call");
    }

    @Test
    void aLaneThatFillsIsHandedToTheTotalsAndNothingIsLost() {
        CombiningWindowTests.Plain w = new CombiningWindowTests.Plain();
        Totals totals = new Totals();
        WindowTotals.attach(w, totals);
        int n = 3 * 32_768 + 5; // past a lane's 2^15 three times
        for (int i = 0; i < n; i++) {
            w.record(false, false);
            if (i % 7 == 0) {
                w.record(true, true);
            }
        }
        long slowFailures = (n + 6) / 7;
        assertArrayEquals(calls(n, 0, 0, slowFailures), WindowTotals.calls(w, totals));
        assertEquals(
                3 * 32_768, totals.sum(Totals.FAST_SUCCESSES), "handed over at each 2^15, the rest still in the lane");
        assertEquals(n + slowFailures, w.counts().calls(), "and every one applied");
    }

    @Test
    void retiringMovesTheCallsOnceAndLaterCallsGoStraightToTheTotals() {
        CombiningWindowTests.Plain w = new CombiningWindowTests.Plain();
        Totals totals = new Totals();
        WindowTotals.attach(w, totals);
        w.record(false, false);
        w.record(true, false);
        WindowTotals.retire(w, totals);
        assertArrayEquals(calls(1, 1, 0, 0), WindowTotals.calls(w, totals), "read once, not twice");
        assertEquals(1, totals.sum(Totals.FAST_FAILURES));
        WindowTotals.retire(w, totals);
        assertArrayEquals(calls(1, 1, 0, 0), WindowTotals.calls(w, totals), "a second retire moves nothing");
        for (int i = 0; i < 40_000; i++) { // a straggler's records after the breaker moved on
            w.record(false, true);
        }
        assertArrayEquals(calls(1, 1, 40_000, 0), WindowTotals.calls(w, totals));
        assertEquals(40_000, totals.sum(Totals.SLOW_SUCCESSES), "each straight into the totals");
        assertEquals(40_002, w.counts().calls(), "the window still applies them");
    }

    @Test
    void aWindowCountsForOneBreakerOnly() {
        CombiningWindowTests.Plain w = new CombiningWindowTests.Plain();
        Totals first = new Totals();
        Totals second = new Totals();
        WindowTotals.attach(w, first);
        WindowTotals.attach(w, second); // a factory that hands one window to two breakers
        assertTrue(WindowTotals.countsInto(w, first));
        assertFalse(WindowTotals.countsInto(w, second));
        assertTrue(WindowTotals.countsForAnother(w, second), "so the second breaker refuses it");
        assertFalse(WindowTotals.countsForAnother(w, first));
        WindowTotals.retire(w, second); // not its window: nothing moves
        w.record(true, false);
        assertArrayEquals(calls(0, 1, 0, 0), WindowTotals.calls(w, first));
        assertArrayEquals(calls(0, 0, 0, 0), WindowTotals.calls(w, second), "the second breaker counts its own");
        Window other = new Window() {
            @Override
            public boolean record(boolean failure, boolean slow) {
                return false;
            }

            @Override
            public WindowCounts counts() {
                return new WindowCounts(0, 0, 0);
            }
        };
        WindowTotals.attach(other, first);
        assertFalse(WindowTotals.countsInto(other, first), "any other window: the breaker counts");
        assertFalse(WindowTotals.countsForAnother(other, second));
    }

    /** A factory that hands out one window: a window can count for one breaker only. */
    private static WindowFactory always(Window w) {
        return new WindowFactory() {
            @Override
            public Window create(dev.breaker.Ticker ticker) {
                return w;
            }

            @Override
            public String describe() {
                return "always-the-same";
            }
        };
    }

    @Test
    void aSecondBreakerRefusesAWindowThatCountsAnothersCallsAndTheFirstCountsOnlyItsOwn() {
        CombiningWindowTests.Plain w = new CombiningWindowTests.Plain();
        dev.breaker.CircuitBreaker first =
                dev.breaker.CircuitBreaker.builder("first").window(always(w)).build();
        IllegalStateException refused = assertThrows(
                IllegalStateException.class,
                () -> dev.breaker.CircuitBreaker.builder("second")
                        .window(always(w))
                        .build());
        assertTrue(refused.getMessage().contains("always-the-same"), refused.getMessage());
        assertTrue(refused.getMessage().contains("create() must make a new window each time"), refused.getMessage());
        first.tryAcquire().onSuccess(0);
        first.reset(); // the same window again, for the same breaker: still its own
        first.tryAcquire().onFailure(0, null);
        assertEquals(1, first.metrics().totalSuccesses());
        assertEquals(1, first.metrics().totalFailures());
    }

    @Test
    void aWindowUsedAloneCountsNothingAnywhere() {
        CombiningWindowTests.Plain w = new CombiningWindowTests.Plain();
        for (int i = 0; i < 40_000; i++) {
            w.record(i % 2 == 0, false);
        }
        Totals totals = new Totals();
        assertArrayEquals(calls(0, 0, 0, 0), WindowTotals.calls(w, totals));
        assertEquals(40_000, w.counts().calls());
    }

    @Test
    void theHealthySkipAndAFailedStampAreCountedToo() {
        Totals totals = new Totals();
        CombiningWindowTests.Plain w = healthyAfterOneSuccess(totals);
        w.record(false, false); // skipped: no lock, no write to the window
        w.record(false, false);
        assertEquals(1, w.counts().calls(), "only the first was applied");
        IllegalStateException broken = new IllegalStateException("ticker broke");
        w.stampFailure = broken;
        assertThrows(IllegalStateException.class, () -> w.record(true, false));
        assertEquals(broken, assertThrows(IllegalStateException.class, () -> w.record(true, true)));
        assertEquals(broken, assertThrows(IllegalStateException.class, () -> w.recordAt(false, true, 5)));
        w.stampFailure = null;
        assertArrayEquals(calls(3, 1, 1, 1), WindowTotals.calls(w, totals), "the calls happened: counted, not applied");
        assertEquals(1, w.counts().calls());
    }

    @Test
    void successesCountedWithoutTheLockAreInTheTotalsAndMoveOnceAtRetire() {
        Totals totals = new Totals();
        CombiningWindowTests.Plain w = healthyAfterOneSuccess(totals);
        for (int i = 0; i < 1_000; i++) {
            w.record(false, false);
        }
        assertEquals(1_000, w.countedSuccesses(), "counted, for the subclass to read under its lock");
        assertEquals(1, w.counts().calls(), "and not applied");
        assertArrayEquals(calls(1_001, 0, 0, 0), WindowTotals.calls(w, totals));
        assertEquals(0, totals.sum(Totals.FAST_SUCCESSES), "still the window's own");
        WindowTotals.retire(w, totals);
        assertEquals(1_001, totals.sum(Totals.FAST_SUCCESSES), "handed over once");
        for (int i = 0; i < 5; i++) { // stragglers after the breaker moved on: the closed count refuses them
            w.record(false, false);
        }
        assertEquals(1_000, w.countedSuccesses());
        assertEquals(
                6,
                w.counts().calls(),
                "applied instead: the window may still decide until the breaker's move lands, and must see them");
        assertArrayEquals(calls(1_006, 0, 0, 0), WindowTotals.calls(w, totals), "each counted once, in the totals");
    }

    @Test
    void aWindowRetiredBeforeItEverCountedASuccessRefusesToCountOneLater() {
        CombiningWindowTests.Plain w = new CombiningWindowTests.Plain();
        Totals totals = new Totals();
        WindowTotals.attach(w, totals);
        WindowTotals.retire(w, totals);
        w.healthy = true;
        w.record(false, false); // applied; the holder then allows counting, and finds the count closed
        w.record(false, false);
        assertEquals(0, w.countedSuccesses());
        assertEquals(2, w.counts().calls());
        assertArrayEquals(calls(2, 0, 0, 0), WindowTotals.calls(w, totals));
        assertEquals(2, totals.sum(Totals.FAST_SUCCESSES), "in the totals, where a retired window's calls go");
    }

    @Test
    void recordAndRecordAtOfferAtTheSubclassStampAndAnswerItsTrip() {
        CombiningWindowTests.Plain w = new CombiningWindowTests.Plain();
        w.stamp = 7;
        assertFalse(w.recordAt(false, false, 123));
        assertEquals(7, w.lastStamp, "by default a reading is stamped as now is");
        w.stamp = 9;
        assertFalse(w.record(true, false));
        assertEquals(9, w.lastStamp);
        w.trips = true;
        assertTrue(w.record(false, false));
        assertTrue(w.recordAt(false, false, 1));
    }

    /** A factory that makes a new window each time, and keeps them. */
    private static final class Fresh implements WindowFactory {
        final List<CombiningWindowTests.Plain> made = new ArrayList<>();

        @Override
        public Window create(dev.breaker.Ticker ticker) {
            CombiningWindowTests.Plain w = new CombiningWindowTests.Plain();
            made.add(w);
            return w;
        }

        @Override
        public String describe() {
            return "fresh";
        }
    }

    @Test
    void aBreakersTotalsKeepEveryEraAcrossResetsWithoutCountingAnyCallTwice() {
        Fresh windows = new Fresh();
        dev.breaker.CircuitBreaker b =
                dev.breaker.CircuitBreaker.builder("eras").window(windows).build();
        b.tryAcquire().onSuccess(0);
        b.tryAcquire().onFailure(0, null);
        b.reset();
        b.tryAcquire().onSuccess(0);
        b.reset();
        b.reset();
        b.tryAcquire().onSuccess(0);
        assertEquals(4, windows.made.size(), "a new window per era");
        assertEquals(3, b.metrics().totalSuccesses(), "the retired windows' calls are in the totals");
        assertEquals(1, b.metrics().totalFailures());
        windows.made.get(0).record(false, false); // a straggler into the first era's window
        assertEquals(4, b.metrics().totalSuccesses(), "counted once, in the totals");
    }

    /**
     * Threads released together record into one window (they collide, so outcomes also take the
     * buffers); a reader checks that the counts never go back, and the window is retired in the
     * middle. At rest every record is counted exactly once, in its slot.
     */
    @Tag("race") // its verdict on a mutant depends on the schedule: PIT leaves it out
    @Test
    void racingRecordersAndARetireMidwayLoseNothingAndReadsNeverGoBack() throws Exception {
        int threads = 3;
        int perThread = 30_000;
        for (int round = 0; round < 10; round++) {
            CombiningWindowTests.Plain w = new CombiningWindowTests.Plain();
            w.healthy = round % 2 == 1; // then plain successes are only counted, and the retire closes their count
            Totals totals = new Totals();
            WindowTotals.attach(w, totals);
            AtomicBoolean done = new AtomicBoolean();
            AtomicReference<String> wentBack = new AtomicReference<>();
            Thread reader = new Thread(() -> {
                long[] last = new long[4];
                boolean retired = false;
                while (!done.get()) {
                    long[] now = WindowTotals.calls(w, totals);
                    for (int o = 0; o < 4; o++) {
                        if (now[o] < last[o]) {
                            wentBack.compareAndSet(null, "slot " + o + " read " + now[o] + " after " + last[o]);
                        }
                    }
                    last = now;
                    if (!retired && now[0] > perThread) {
                        WindowTotals.retire(w, totals);
                        retired = true;
                    }
                }
            });
            reader.start();
            Released.run(threads, t -> {
                for (int i = 0; i < perThread; i++) {
                    w.record(i % 10 == 0, i % 15 == 0);
                }
            });
            done.set(true);
            reader.join();
            assertNull(wentBack.get(), "round " + round);
            long[] expected = new long[4];
            for (int i = 0; i < perThread; i++) {
                expected[(i % 10 == 0 ? 1 : 0) | (i % 15 == 0 ? 2 : 0)] += threads;
            }
            assertArrayEquals(expected, WindowTotals.calls(w, totals), "round " + round);
            assertEquals(
                    (long) threads * perThread,
                    w.counts().calls() + w.countedSuccesses(),
                    "round " + round + ": all applied or counted");
        }
    }

    /**
     * A window counting into {@code totals} whose first success was applied under the lock, after
     * which the holder says plain successes need no lock: the next ones are only counted.
     */
    private static CombiningWindowTests.Plain healthyAfterOneSuccess(Totals totals) {
        CombiningWindowTests.Plain w = new CombiningWindowTests.Plain();
        WindowTotals.attach(w, totals);
        w.healthy = true;
        w.record(false, false);
        return w;
    }
}
