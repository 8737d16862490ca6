package dev.breaker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** {@link BreakerRegistry}: one breaker per name, its config, its listeners, watchers, removal, bad names. */
class RegistryTests {

    private final FakeTicker ticker = new FakeTicker();
    private final CircuitBreakerConfig defaults = CircuitBreakerConfig.builder()
            .window(Windows.consecutiveFailures(2))
            .cooldown(Duration.ofSeconds(5))
            .build();
    private final CircuitBreakerConfig payments = CircuitBreakerConfig.builder()
            .window(Windows.consecutiveFailures(1))
            .cooldown(Duration.ofSeconds(30))
            .probes(3)
            .build();

    private BreakerRegistry registry(BreakerListener... listeners) {
        BreakerRegistry.Builder b = BreakerRegistry.builder()
                .defaults(defaults)
                .config("payments", payments)
                .ticker(ticker);
        for (BreakerListener l : listeners) {
            b.listener(l);
        }
        return b.build();
    }

    @Test
    void oneBreakerPerNameMadeFromItsConfigOrTheDefaults() {
        BreakerRegistry r = registry();
        CircuitBreaker p = r.breaker("payments");
        assertSame(p, r.breaker("payments"));
        assertEquals("payments", p.name());
        assertEquals(payments, p.config());
        CircuitBreaker other = r.breaker("inventory");
        assertEquals(defaults, other.config());
        assertEquals(defaults, r.configFor("anything"));
        assertEquals(payments, r.configFor("payments"));
        assertEquals(Set.of(p, other), new HashSet<>(r.breakers()));
        assertTrue(r.find("payments").isPresent());
        assertFalse(r.find("never").isPresent(), "find makes nothing");
        assertEquals(2, r.breakers().size());
    }

    @Test
    void breakersReadTheRegistrysTicker() {
        BreakerRegistry r = registry();
        CircuitBreaker p = r.breaker("payments");
        p.tryAcquire().onFailure(0, new IllegalStateException("down"));
        assertEquals(State.OPEN, p.state());
        ticker.advance(Duration.ofSeconds(30).toNanos() - 1);
        assertFalse(p.tryAcquire().granted());
        ticker.advance(1);
        assertTrue(p.tryAcquire().isProbe());
    }

    @Test
    void registryListenersHearEveryBreakerAlsoThoseMadeLater() {
        List<String> heard = Collections.synchronizedList(new ArrayList<>());
        BreakerRegistry r = registry(e -> heard.add(((StateTransition) e).breakerName()));
        r.breaker("payments").tryAcquire().onFailure(0, null);
        CircuitBreaker later = r.breaker("later");
        later.tryAcquire().onFailure(0, null);
        later.tryAcquire().onFailure(0, null);
        assertEquals(List.of("payments", "later"), heard);
    }

    @Test
    void removedBreakersKeepWorkingForTheirHoldersAndTheNameGetsANewOne() {
        BreakerRegistry r = registry();
        CircuitBreaker old = r.breaker("payments");
        assertTrue(r.remove("payments"));
        assertFalse(r.remove("payments"));
        assertFalse(r.find("payments").isPresent());
        assertTrue(old.tryAcquire().granted(), "still works for whoever holds it");
        CircuitBreaker fresh = r.breaker("payments");
        assertNotSame(old, fresh);
        assertEquals(payments, fresh.config());
    }

    @Test
    void watchersHearOfExistingAddedAndRemovedBreakersUntilClosed() throws Exception {
        BreakerRegistry r = registry();
        CircuitBreaker first = r.breaker("first");
        List<String> seen = new ArrayList<>();
        AutoCloseable watching = r.watch(new SeenWatcher(seen));
        r.breaker("second");
        r.breaker("second");
        r.remove("first");
        r.remove("first");
        watching.close();
        r.breaker("third");
        assertEquals(List.of("+first", "+second", "-first"), seen);
        assertEquals("first", first.name());
    }

    @Tag("race")
    @Test
    void racingThreadsGetOneBreakerPerNameAndWatchersHearOfItOnce() throws Exception {
        int threads = 8;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            for (int round = 0; round < 200; round++) {
                BreakerRegistry r = registry();
                AtomicInteger added = new AtomicInteger();
                r.watch(new BreakerRegistry.Watcher() {
                    @Override
                    public void added(CircuitBreaker breaker) {
                        added.incrementAndGet();
                    }

                    @Override
                    public void removed(CircuitBreaker breaker) {}
                });
                CyclicBarrier start = new CyclicBarrier(threads);
                List<Future<CircuitBreaker>> got = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    got.add(pool.submit(() -> {
                        start.await(10, TimeUnit.SECONDS);
                        return r.breaker("contended");
                    }));
                }
                Set<CircuitBreaker> distinct = Collections.newSetFromMap(new java.util.IdentityHashMap<>());
                for (Future<CircuitBreaker> f : got) {
                    distinct.add(f.get(10, TimeUnit.SECONDS));
                }
                assertEquals(1, distinct.size(), "round " + round);
                assertEquals(1, added.get(), "round " + round);
                assertSame(distinct.iterator().next(), r.breaker("contended"));
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void badNamesAndNullsAreRefusedByName() {
        BreakerRegistry r = registry();
        assertEquals(
                "name",
                assertThrows(NullPointerException.class, () -> r.breaker(null)).getMessage());
        assertEquals(
                "name must contain a visible character, was '  '",
                assertThrows(IllegalArgumentException.class, () -> r.breaker("  "))
                        .getMessage());
        assertThrows(IllegalArgumentException.class, () -> r.find(""));
        assertThrows(IllegalArgumentException.class, () -> r.remove("\n"));
        assertThrows(IllegalArgumentException.class, () -> r.configFor(" "));
        assertTrue(r.breakers().isEmpty(), "nothing made by a refused name");
        BreakerRegistry.Builder b = BreakerRegistry.builder();
        assertThrows(NullPointerException.class, () -> b.defaults(null));
        assertThrows(NullPointerException.class, () -> b.config("x", null));
        assertThrows(IllegalArgumentException.class, () -> b.config(" ", defaults));
        assertThrows(NullPointerException.class, () -> b.listener(null));
        assertThrows(NullPointerException.class, () -> b.ticker(null));
        assertThrows(NullPointerException.class, () -> r.watch(null));
    }

    @Test
    void aBuilderChangedAfterBuildDoesNotChangeTheRegistry() {
        BreakerRegistry.Builder b = BreakerRegistry.builder().defaults(defaults);
        BreakerRegistry r = b.build();
        b.config("late", payments);
        assertEquals(defaults, r.breaker("late").config());
        assertEquals("BreakerRegistry[1 breakers, 0 named configs]", r.toString());
    }

    // ---------------------------------------------------------------- idle eviction

    private BreakerRegistry evicting(List<String> seen) {
        return evicting(seen, BreakerRegistry.builder());
    }

    /** A registry from {@code b} that evicts after 100 ns, its watcher writing to {@code seen}. */
    private BreakerRegistry evicting(List<String> seen, BreakerRegistry.Builder b) {
        BreakerRegistry r = b.defaults(defaults)
                .ticker(ticker)
                .evictIdleAfter(Duration.ofNanos(100))
                .build();
        r.watch(new SeenWatcher(seen));
        return r;
    }

    @Test
    void aClosedBreakerWhoseTotalsStoodStillForTheIdleTimeIsEvicted() {
        List<String> seen = new ArrayList<>();
        BreakerRegistry r = evicting(seen);
        CircuitBreaker idle = r.breaker("idle");
        CircuitBreaker busy = r.breaker("busy");
        assertEquals(0, r.evictIdle(), "first sight: nothing is idle yet");
        ticker.advance(99);
        busy.tryAcquire().onSuccess(0);
        assertEquals(0, r.evictIdle(), "99 ns: not yet");
        ticker.advance(1);
        busy.tryAcquire().release(); // a release moves the totals too
        assertEquals(1, r.evictIdle());
        assertEquals(List.of("+idle", "+busy", "-idle"), seen);
        assertFalse(r.find("idle").isPresent());
        assertTrue(r.find("busy").isPresent(), "it was used between the sweeps");
        assertTrue(idle.tryAcquire().granted(), "an evicted breaker still works for its holder");
        assertNotSame(idle, r.breaker("idle"), "the name gets a new breaker");
    }

    @Test
    void onlyClosedBreakersAreEvicted() {
        List<String> seen = new ArrayList<>();
        BreakerRegistry r = evicting(seen);
        CircuitBreaker open = r.breaker("open");
        open.tryAcquire().onFailure(0, null);
        open.tryAcquire().onFailure(0, null);
        assertEquals(State.OPEN, open.state());
        r.evictIdle();
        ticker.advance(1_000);
        assertEquals(0, r.evictIdle(), "OPEN and idle: kept");
        CircuitBreaker isolated = r.breaker("isolated");
        isolated.isolate();
        r.evictIdle();
        ticker.advance(1_000);
        r.evictIdle();
        assertTrue(r.find("open").isPresent());
        assertTrue(r.find("isolated").isPresent());
        open.reset(); // CLOSED from here; a reset counts no call
        r.evictIdle(); // first seen CLOSED
        ticker.advance(100);
        assertEquals(1, r.evictIdle());
        assertFalse(r.find("open").isPresent());
    }

    /**
     * A tripped breaker of a host nobody calls any more is evicted once its cooldown is over and
     * it has stood still for the idle time, and gives its open-share place back (SPEC rule 18):
     * otherwise it would stay OPEN, unasked, for good, and the cap would suppress the trips of
     * the hosts still called.
     */
    @Test
    void aTrippedBreakerNobodyCallsGivesItsPlaceBackOnceItsCooldownIsOver() {
        List<String> seen = new ArrayList<>();
        BreakerRegistry r = evicting(seen, BreakerRegistry.builder().maxOpenShare(0.5));
        CircuitBreaker gone = r.breaker("gone");
        CircuitBreaker live = r.breaker("live");
        for (int i = 0; i < 2; i++) {
            gone.tryAcquire().onFailure(0, null);
        }
        assertEquals(State.OPEN, gone.state(), "the one place of 2 breakers at 50%");
        for (int i = 0; i < 2; i++) {
            live.tryAcquire().onFailure(0, null);
        }
        assertEquals(State.CLOSED, live.state(), "the cap is full: the trip is suppressed");
        r.evictIdle();
        ticker.advance(1_000);
        live.tryAcquire().release(); // live is called (a released call is counted too): it moves, and stays
        assertEquals(0, r.evictIdle(), "gone is still cooling down: kept");
        ticker.advance(Duration.ofSeconds(5).toNanos());
        assertEquals(State.OPEN, gone.state(), "nobody asked: still OPEN");
        live.tryAcquire().release();
        // it stood still since the sweep before (5 s ago, more than the idle time), and now no
        // longer protects anyone: evicted
        assertEquals(1, r.evictIdle());
        assertFalse(r.find("gone").isPresent());
        assertTrue(r.find("live").isPresent());
        live.tryAcquire().onFailure(0, null);
        assertEquals(State.OPEN, live.state(), "the place came back: live trips on its next failure");
    }

    /**
     * A HALF_OPEN breaker is kept however long it stands still: its probe may be out (granting it
     * moved no total), and a fresh CLOSED breaker in its place would let every caller through to
     * a host that may still be down.
     */
    @Test
    void aHalfOpenBreakerIsKeptWhileItsProbeIsOut() {
        List<String> seen = new ArrayList<>();
        BreakerRegistry r = evicting(seen);
        CircuitBreaker b = r.breaker("b");
        b.tryAcquire().onFailure(0, null);
        b.tryAcquire().onFailure(0, null);
        ticker.advance(Duration.ofSeconds(5).toNanos());
        r.evictIdle(); // OPEN, its cooldown over, nobody asking: idle from here
        assertTrue(b.tryAcquire().granted(), "a probe, whose call has not ended");
        assertEquals(State.HALF_OPEN, b.state());
        ticker.advance(1_000);
        assertEquals(0, r.evictIdle(), "HALF_OPEN: kept");
        assertEquals(List.of("+b"), seen);
    }

    @Test
    void askingForANewNameSweepsAtMostOncePerIdleTime() {
        List<String> seen = new ArrayList<>();
        BreakerRegistry r = evicting(seen);
        r.breaker("a"); // sweeps: first sight of a
        ticker.advance(100);
        r.breaker("b"); // 100 ns later: the sweep finds a idle
        assertEquals(List.of("+a", "+b", "-a"), seen, "b is announced, then the sweep its making ran removes a");
        seen.clear();
        r.breaker("a"); // a new a; no sweep within 100 ns of the last
        ticker.advance(50);
        r.breaker("c");
        assertEquals(List.of("+a", "+c"), seen, "no sweep within the idle time");
    }

    @Test
    void anAskedSweepRestartsTheIdleTimeBeforeANewNameSweepsAgain() {
        List<String> seen = new ArrayList<>();
        BreakerRegistry r = evicting(seen);
        r.breaker("a"); // sweeps at 0: first sight of a
        ticker.advance(50);
        assertEquals(0, r.evictIdle(), "asked at 50: a idle for 50 ns only");
        ticker.advance(50);
        r.breaker("b"); // 100 ns after a's first sight, but 50 after the last sweep: no sweep
        assertEquals(List.of("+a", "+b"), seen);
        ticker.advance(50);
        r.breaker("c"); // 100 ns after the asked sweep: this one sweeps
        assertEquals(List.of("+a", "+b", "+c", "-a"), seen);
    }

    @Test
    void aSweepOnAnotherThreadAfterOneHereStillSweeps() throws Exception {
        List<String> seen = new ArrayList<>();
        BreakerRegistry r = evicting(seen);
        r.breaker("a");
        assertEquals(0, r.evictIdle());
        ticker.advance(100);
        java.util.concurrent.FutureTask<Integer> other = new java.util.concurrent.FutureTask<>(r::evictIdle);
        Thread t = new Thread(other, "other sweeper");
        t.start();
        assertEquals(1, other.get(10, java.util.concurrent.TimeUnit.SECONDS), "the sweep's lock was let go");
    }

    @Test
    void evictedBreakersNoLongerCountTowardTheOpenShareLimit() {
        BreakerRegistry r = BreakerRegistry.builder()
                .defaults(CircuitBreakerConfig.builder()
                        .window(Windows.consecutiveFailures(1))
                        .build())
                .ticker(ticker)
                .maxOpenShare(0.5)
                .evictIdleAfter(Duration.ofNanos(100))
                .build();
        CircuitBreaker a = r.breaker("a");
        CircuitBreaker b = r.breaker("b");
        CircuitBreaker c = r.breaker("c");
        CircuitBreaker d = r.breaker("d"); // four under the cap: two may be open
        assertEquals(0, r.evictIdle(), "first sight of all four");
        c.tryAcquire().onSuccess(0);
        d.tryAcquire().onSuccess(0);
        ticker.advance(100);
        c.tryAcquire().onSuccess(0);
        d.tryAcquire().onSuccess(0);
        assertEquals(2, r.evictIdle(), "a and b stood still");
        assertFalse(r.find("a").isPresent());
        assertFalse(r.find("b").isPresent());
        c.tryAcquire().onFailure(0, null);
        assertEquals(State.OPEN, c.state(), "two left under the cap: one may be open");
        d.tryAcquire().onFailure(0, null);
        assertEquals(State.CLOSED, d.state(), "the second trip is suppressed: the evicted count no more");
        assertTrue(a.tryAcquire().granted() && b.tryAcquire().granted(), "they still work for their holders");
    }

    @Test
    void aBrokenTickerSkipsTheSweepOfANewNameButNotAnAskedOne() {
        FlakyTicker flaky = new FlakyTicker();
        BreakerRegistry r = BreakerRegistry.builder()
                .ticker(flaky)
                .evictIdleAfter(Duration.ofNanos(100))
                .build();
        flaky.failAfter(1, 1); // the breaker's own reading is good, the sweep's fails
        CircuitBreaker made = r.breaker("made");
        assertSame(made, r.breaker("made"), "made and kept despite the failed sweep");
        flaky.failNext(1);
        assertThrows(FlakyTicker.TickerBroke.class, r::evictIdle);
    }

    @Test
    void withoutEvictionNothingIsEvictedAndBadIdleTimesAreRefused() {
        BreakerRegistry r = registry();
        r.breaker("x");
        ticker.advance(Long.MAX_VALUE / 2);
        assertEquals(0, r.evictIdle());
        ticker.advance(Long.MAX_VALUE / 2);
        assertEquals(0, r.evictIdle(), "asked again, long after: still nothing");
        assertTrue(r.find("x").isPresent());
        BreakerRegistry.Builder b = BreakerRegistry.builder();
        assertEquals(
                "evictIdleAfter must be > 0, was PT0S",
                assertThrows(IllegalArgumentException.class, () -> b.evictIdleAfter(Duration.ZERO))
                        .getMessage());
        assertThrows(IllegalArgumentException.class, () -> b.evictIdleAfter(Duration.ofSeconds(-1)));
        assertThrows(NullPointerException.class, () -> b.evictIdleAfter(null));
    }

    @Test
    void aBuilderFromPropertiesTakesListenersAndATicker() {
        List<String> heard = new ArrayList<>();
        BreakerRegistry r = BreakerRegistry.builder(
                        java.util.Map.of("breaker.defaults.window.threshold", "1", "breaker.defaults.cooldown", "10ns"))
                .ticker(ticker)
                .listener(e -> heard.add(e.breakerName()))
                .build();
        CircuitBreaker b = r.breaker("from-properties");
        b.tryAcquire().onFailure(0, null);
        assertEquals(List.of("from-properties"), heard);
        ticker.advance(10);
        assertTrue(b.tryAcquire().isProbe(), "the registry's ticker");
    }

    @Test
    void aWatcherThatThrowsIsLoggedAndChangesNothing() throws Exception {
        BreakerRegistry r = registry();
        r.breaker("existing");
        List<String> seen = new ArrayList<>();
        BreakerRegistry.Watcher rude = new BreakerRegistry.Watcher() {
            @Override
            public void added(CircuitBreaker breaker) {
                throw new IllegalStateException("watcher bug on " + breaker.name());
            }

            @Override
            public void removed(CircuitBreaker breaker) {
                throw new IllegalStateException("watcher bug");
            }

            @Override
            public String toString() {
                return "rude";
            }
        };
        try (LogCapture log = new LogCapture()) {
            r.watch(rude); // told of "existing": throws, logged
            r.watch(new SeenWatcher(seen));
            CircuitBreaker made = r.breaker("new");
            assertSame(made, r.breaker("new"), "made and kept despite the watcher");
            assertTrue(r.remove("new"));
            assertFalse(r.find("new").isPresent());
            String text = log.text();
            assertTrue(text.contains("registry watcher rude failed on added 'existing'"), text);
            assertTrue(text.contains("registry watcher rude failed on added 'new'"), text);
            assertTrue(text.contains("registry watcher rude failed on removed 'new'"), text);
        }
        assertEquals(List.of("+existing", "+new", "-new"), seen, "the other watcher heard everything");
    }
}
