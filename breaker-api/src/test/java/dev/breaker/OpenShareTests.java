package dev.breaker;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** SPEC rule 18: the registry's open-share cap. */
class OpenShareTests {

    private static final IllegalStateException DOWN = new IllegalStateException("down");
    private final FakeTicker ticker = new FakeTicker();
    private final List<BreakerEvent> events = Collections.synchronizedList(new ArrayList<>());

    private BreakerRegistry registry(double share) {
        return BreakerRegistry.builder()
                .defaults(CircuitBreakerConfig.builder()
                        .window(Windows.consecutiveFailures(1))
                        .cooldown(Duration.ofNanos(10))
                        .build())
                .config(
                        "shadow",
                        CircuitBreakerConfig.builder()
                                .window(Windows.consecutiveFailures(1))
                                .shadow(true)
                                .build())
                .maxOpenShare(share)
                .ticker(ticker)
                .listener(events::add)
                .build();
    }

    private static long notClosed(BreakerRegistry r) {
        return r.breakers().stream().filter(b -> b.state() != State.CLOSED).count();
    }

    private List<TripSuppressed> suppressed() {
        synchronized (events) {
            return events.stream()
                    .filter(TripSuppressed.class::isInstance)
                    .map(TripSuppressed.class::cast)
                    .toList();
        }
    }

    @Test
    void tripsBeyondTheCapLeaveTheBreakerClosedAndRecordingWithOneEventPerEra() {
        BreakerRegistry r = registry(0.5);
        List<CircuitBreaker> four = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            four.add(r.breaker("host-" + i));
        }
        four.get(0).tryAcquire().onFailure(0, DOWN);
        four.get(1).tryAcquire().onFailure(0, DOWN);
        assertEquals(2, notClosed(r), "half of four");
        CircuitBreaker third = four.get(2);
        for (int i = 0; i < 3; i++) {
            third.tryAcquire().onFailure(0, DOWN);
        }
        assertEquals(State.CLOSED, third.state());
        assertEquals(3, third.metrics().failedCalls(), "the window goes on recording: a run of 3");
        assertEquals(3, third.metrics().totalFailures());
        assertEquals(List.of(new TripSuppressed("host-2", 0, 2, 2)), suppressed(), "one per CLOSED era");
        // a place comes back when a breaker closes: the next failure of the third trips
        ticker.advance(10);
        four.get(0).tryAcquire().onSuccess(0);
        assertEquals(State.CLOSED, four.get(0).state());
        third.tryAcquire().onFailure(0, DOWN);
        assertEquals(State.OPEN, third.state());
        assertEquals(2, notClosed(r));
    }

    @Test
    void oneBreakerMayAlwaysOpen() {
        BreakerRegistry r = registry(0.1);
        CircuitBreaker a = r.breaker("a");
        CircuitBreaker b = r.breaker("b");
        a.tryAcquire().onFailure(0, DOWN);
        b.tryAcquire().onFailure(0, DOWN);
        assertEquals(State.OPEN, a.state(), "floor(0.1 * 2) = 0, but one may always open");
        assertEquals(State.CLOSED, b.state());
    }

    @Test
    void isolationIsNeverRefusedAndCountsAndResetGivesThePlaceBack() {
        BreakerRegistry r = registry(0.5);
        CircuitBreaker a = r.breaker("a");
        CircuitBreaker b = r.breaker("b");
        a.isolate();
        assertEquals(State.ISOLATED, a.state());
        b.tryAcquire().onFailure(0, DOWN);
        assertEquals(State.CLOSED, b.state(), "the isolated one holds the only place");
        b.isolate();
        assertEquals(State.ISOLATED, b.state(), "never refused");
        a.reset();
        b.reset();
        b.tryAcquire().onFailure(0, DOWN);
        assertEquals(State.OPEN, b.state(), "the places came back");
    }

    @Test
    void removalGivesThePlaceBack() {
        BreakerRegistry r = registry(0.5);
        CircuitBreaker a = r.breaker("a");
        CircuitBreaker b = r.breaker("b");
        a.tryAcquire().onFailure(0, DOWN);
        assertTrue(r.remove("a"));
        b.tryAcquire().onFailure(0, DOWN);
        assertEquals(State.OPEN, b.state(), "the removed breaker's place came back");
        a.reset(); // closing a removed breaker gives nothing back twice
        CircuitBreaker c = r.breaker("c");
        c.tryAcquire().onFailure(0, DOWN);
        assertEquals(State.CLOSED, c.state(), "limit max(1, floor(0.5 * 2)) = 1, held by b");
    }

    @Test
    void aRemovedBreakerTripsOutsideTheCapEvenWhenItIsFull() {
        BreakerRegistry r = registry(0.5);
        CircuitBreaker a = r.breaker("a");
        CircuitBreaker b = r.breaker("b");
        b.tryAcquire().onFailure(0, DOWN); // limit 1: b holds the one place
        assertTrue(r.remove("a"));
        a.tryAcquire().onFailure(0, DOWN);
        assertEquals(State.OPEN, a.state(), "no longer one of the registry's: the cap does not hold it back");
        assertTrue(suppressed().isEmpty());
    }

    @Test
    void aBackOffTakesNoPlaceAndGivesNoneBackThatItDidNotTake() {
        BreakerRegistry r = registry(0.5);
        CircuitBreaker a = r.breaker("a");
        CircuitBreaker b = r.breaker("b");
        CircuitBreaker c = r.breaker("c"); // limit max(1, floor(0.5 * 3)) = 1
        a.tryAcquire().onFailure(0, new BackOffTests.TooManyRequests(Duration.ofNanos(5)));
        assertEquals(State.OPEN, a.state());
        b.tryAcquire().onFailure(0, DOWN);
        assertEquals(State.OPEN, b.state(), "the back-off held no place: b takes the one there is");
        c.tryAcquire().onFailure(0, DOWN);
        assertEquals(State.CLOSED, c.state(), "the one place is b's: c's trip is suppressed");
    }

    @Test
    void shadowBreakersAndBackOffsAreOutsideTheCap() {
        BreakerRegistry r = registry(0.5);
        CircuitBreaker a = r.breaker("a");
        CircuitBreaker b = r.breaker("b");
        CircuitBreaker shadow = r.breaker("shadow");
        a.tryAcquire().onFailure(0, DOWN);
        shadow.tryAcquire().onFailure(0, DOWN);
        assertEquals(State.OPEN, shadow.state(), "outside the cap: it trips whatever the cap says");
        b.tryAcquire().onFailure(0, new BackOffTests.TooManyRequests(Duration.ofNanos(5)));
        assertEquals(State.OPEN, b.state(), "a back-off is not subject to the cap");
        ticker.advance(10);
        a.tryAcquire().onSuccess(0); // a closes: its place comes back
        ticker.advance(5);
        b.tryAcquire().onSuccess(0); // b closes; it held no place
        b.tryAcquire().onFailure(0, DOWN);
        assertEquals(State.OPEN, b.state(), "limit 1 (two breakers under the cap), the place is free");
    }

    @Test
    void badSharesAreRefusedByName() {
        BreakerRegistry.Builder b = BreakerRegistry.builder();
        for (double bad : new double[] {0, -0.5, 1.5, Double.NaN}) {
            assertEquals(
                    "maxOpenShare must be in (0, 1], was " + bad,
                    assertThrows(IllegalArgumentException.class, () -> b.maxOpenShare(bad))
                            .getMessage());
        }
        assertDoesNotThrow(() -> BreakerRegistry.builder().maxOpenShare(1), "1 is allowed");
    }

    @Tag("race")
    @Test
    void sixteenBreakersTrippingAtOnceNeverLeaveMoreThanTheCapNotClosed() throws Exception {
        int n = 16;
        ExecutorService pool = Executors.newFixedThreadPool(n + 1);
        try {
            for (int round = 0; round < 50; round++) {
                BreakerRegistry r = registry(0.25);
                List<CircuitBreaker> all = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    all.add(r.breaker("host-" + i));
                }
                CyclicBarrier start = new CyclicBarrier(n + 1);
                AtomicBoolean running = new AtomicBoolean(true);
                AtomicInteger worst = new AtomicInteger();
                Future<?> watcher = pool.submit(() -> {
                    start.await(10, TimeUnit.SECONDS);
                    while (running.get()) {
                        worst.accumulateAndGet(
                                (int) all.stream()
                                        .filter(b -> b.state() != State.CLOSED)
                                        .count(),
                                Math::max);
                    }
                    return null;
                });
                List<Future<?>> done = new ArrayList<>();
                for (CircuitBreaker b : all) {
                    done.add(pool.submit(() -> {
                        start.await(10, TimeUnit.SECONDS);
                        for (int i = 0; i < 50; i++) {
                            Permit p = b.tryAcquire();
                            if (p.granted()) {
                                p.onFailure(0, DOWN);
                            }
                        }
                        return null;
                    }));
                }
                for (Future<?> f : done) {
                    f.get(30, TimeUnit.SECONDS);
                }
                running.set(false);
                watcher.get(30, TimeUnit.SECONDS);
                assertTrue(worst.get() <= 4, "round " + round + ": " + worst.get() + " not CLOSED at once");
                assertEquals(4, notClosed(r), "round " + round + ": the cap is filled");
                for (CircuitBreaker b : all) {
                    b.reset();
                }
                for (int i = 0; i < 4; i++) {
                    all.get(n - 1 - i).tryAcquire().onFailure(0, DOWN);
                }
                assertEquals(4, notClosed(r), "round " + round + ": every place came back");
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * A breaker made for a name that another call made first (here the window factory re-enters
     * the registry) is never published: it must not count toward the limit. What it does on leaving
     * the cap cannot be seen: nothing can reach it, and it holds no place.
     */
    @Test
    void aBreakerThatLostTheRaceToMakeItsNameNeverCounts() {
        java.util.concurrent.atomic.AtomicReference<BreakerRegistry> registry =
                new java.util.concurrent.atomic.AtomicReference<>();
        AtomicBoolean reentered = new AtomicBoolean();
        List<String> added = new ArrayList<>();
        dev.breaker.spi.WindowFactory racing = new dev.breaker.spi.WindowFactory() {
            @Override
            public dev.breaker.spi.Window create(Ticker t) {
                if (reentered.compareAndSet(false, true)) {
                    registry.get().breaker("raced"); // another thread makes the same name first
                }
                return Windows.consecutiveFailures(1).create(t);
            }

            @Override
            public String describe() {
                return "racing";
            }
        };
        BreakerRegistry r = BreakerRegistry.builder()
                .defaults(CircuitBreakerConfig.builder().window(racing).build())
                .maxOpenShare(0.5)
                .ticker(ticker)
                .build();
        registry.set(r);
        r.watch(new BreakerRegistry.Watcher() {
            @Override
            public void added(CircuitBreaker breaker) {
                added.add(breaker.name());
            }

            @Override
            public void removed(CircuitBreaker breaker) {}
        });
        CircuitBreaker raced = r.breaker("raced");
        assertTrue(reentered.get());
        assertEquals(List.of("raced"), added, "announced once");
        CircuitBreaker b = r.breaker("b");
        CircuitBreaker c = r.breaker("c");
        for (CircuitBreaker x : List.of(raced, b, c)) {
            x.tryAcquire().onFailure(0, DOWN);
        }
        assertEquals(1, notClosed(r), "three members: floor(0.5 * 3) = 1 (the losing breaker never counted)");
    }

    @Test
    void aTripThatLosesToAResetGivesItsPlaceBack() {
        java.util.concurrent.atomic.AtomicReference<Runnable> beforeTheTrip =
                new java.util.concurrent.atomic.AtomicReference<>();
        dev.breaker.spi.WindowFactory tripping = new dev.breaker.spi.WindowFactory() {
            @Override
            public dev.breaker.spi.Window create(Ticker t) {
                return new dev.breaker.spi.Window() {
                    @Override
                    public boolean record(boolean failure, boolean slow) {
                        Runnable hook = beforeTheTrip.getAndSet(null);
                        if (hook != null) {
                            hook.run(); // after the breaker read its snapshot, before the trip asks the cap
                        }
                        return failure;
                    }

                    @Override
                    public dev.breaker.spi.WindowCounts counts() {
                        return dev.breaker.spi.WindowCounts.empty();
                    }
                };
            }

            @Override
            public String describe() {
                return "tripping";
            }
        };
        BreakerRegistry r = BreakerRegistry.builder()
                .defaults(CircuitBreakerConfig.builder().window(tripping).build())
                .maxOpenShare(0.5)
                .ticker(ticker)
                .build();
        CircuitBreaker a = r.breaker("a");
        CircuitBreaker b = r.breaker("b");
        Permit p = a.tryAcquire();
        beforeTheTrip.set(a::reset);
        p.onFailure(0, DOWN);
        assertEquals(State.CLOSED, a.state(), "the reset came first: the trip's compare-and-set lost");
        b.tryAcquire().onFailure(0, DOWN);
        assertEquals(State.OPEN, b.state(), "the place a's trip took came back");
    }
}
