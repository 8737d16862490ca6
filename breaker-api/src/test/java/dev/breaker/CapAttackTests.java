package dev.breaker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * SPEC rule 18 under attack: the open-share cap's count of places must match the breakers that
 * hold them, however trips, resets, isolations and removals interleave. Observed through the
 * public API only: with two breakers and a share of 0.5 the limit is one, so a place that leaked
 * shows as two breakers OPEN at once, and a place stuck as a trip that is suppressed while every
 * other breaker is CLOSED.
 */
class CapAttackTests {

    private static final IllegalStateException DOWN = new IllegalStateException("down");

    private static long notClosed(BreakerRegistry r) {
        return r.breakers().stream().filter(b -> b.state() != State.CLOSED).count();
    }

    private static void fail(CircuitBreaker b) {
        Permit p = b.tryAcquire();
        if (p.granted()) {
            p.onFailure(0, DOWN);
        }
    }

    /**
     * A trip's compare-and-set won, so its OPEN era owns the place. Before the tripping thread
     * looks again, the breaker is reset (the place goes back) and trips anew on another thread,
     * which takes the place. The first thread then sees CLOSED and must not give back the place
     * of the second trip, or the second OPEN holds none and another breaker opens beside it.
     */
    @Test
    void aTripThatWonMustNotGiveBackThePlaceOfALaterTrip() throws Exception {
        Thread main = Thread.currentThread();
        CountDownLatch inListener = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch firstTripDone = new CountDownLatch(1);
        AtomicReference<Thread> tripper = new AtomicReference<>();
        AtomicReference<Runnable> onMainTickerRead = new AtomicReference<>();
        Ticker ticker = () -> {
            if (Thread.currentThread() == main) {
                Runnable hook = onMainTickerRead.getAndSet(null);
                if (hook != null) {
                    hook.run(); // the second trip holds its place and has not made its compare-and-set yet
                }
            }
            return 0;
        };
        BreakerListener holdFirstTrip = event -> {
            if (Thread.currentThread() == tripper.get()
                    && event instanceof StateTransition t
                    && t.to() == State.OPEN
                    && inListener.getCount() > 0) {
                inListener.countDown();
                await(release); // delivered on the tripping thread, after its compare-and-set
            }
        };
        BreakerRegistry r = capped(Windows.consecutiveFailures(1), 0.5, ticker, holdFirstTrip);
        CircuitBreaker a = r.breaker("a");
        CircuitBreaker b = r.breaker("b");
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<?> first = pool.submit(() -> {
                tripper.set(Thread.currentThread());
                fail(a);
                firstTripDone.countDown();
            });
            assertTrue(inListener.await(10, TimeUnit.SECONDS));
            assertEquals(State.OPEN, a.state());
            a.reset(); // the OPEN era ends: its place goes back
            onMainTickerRead.set(() -> {
                release.countDown();
                await(firstTripDone);
            });
            fail(a); // trips again, on this thread
            first.get(10, TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }
        assertEquals(State.OPEN, a.state());
        fail(b);
        assertEquals(State.CLOSED, b.state(), "a holds the only place: b's trip must be suppressed");
        assertEquals(1, notClosed(r));
    }

    /**
     * Trips, resets and isolations of one breaker race from three threads; at rest, the places must
     * match the states: {@code a} CLOSED holds none (a failure trips it), {@code a} not CLOSED holds
     * the only one (a failure of {@code b} is suppressed). Many rounds, each checked.
     */
    @Tag("race")
    @Test
    void racingTripsResetsAndIsolationsLeaveThePlacesMatchingTheStates() throws Exception {
        BreakerRegistry r = capped(Windows.consecutiveFailures(1), 0.5, () -> 0);
        CircuitBreaker a = r.breaker("a");
        CircuitBreaker b = r.breaker("b");
        int threads = 3;
        CyclicBarrier start = new CyclicBarrier(threads + 1);
        CyclicBarrier end = new CyclicBarrier(threads + 1);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<?>> workers = new ArrayList<>();
        int rounds = 3_000;
        try {
            for (int t = 0; t < threads; t++) {
                int role = t;
                workers.add(pool.submit(() -> {
                    for (int round = 0; round < rounds; round++) {
                        start.await(10, TimeUnit.SECONDS);
                        switch ((role + round) % 3) {
                            case 0 -> {
                                fail(a);
                                fail(a);
                            }
                            case 1 -> a.reset();
                            default -> {
                                if (round % 2 == 0) {
                                    a.isolate();
                                } else {
                                    fail(a);
                                }
                            }
                        }
                        end.await(10, TimeUnit.SECONDS);
                    }
                    return null;
                }));
            }
            for (int round = 0; round < rounds; round++) {
                a.reset();
                b.reset();
                start.await(10, TimeUnit.SECONDS);
                end.await(10, TimeUnit.SECONDS);
                if (a.state() == State.CLOSED) {
                    fail(a);
                    assertEquals(State.OPEN, a.state(), "round " + round + ": CLOSED a holds no place, so it trips");
                }
                fail(b);
                assertEquals(State.CLOSED, b.state(), "round " + round + ": a (" + a.state() + ") holds the place");
            }
            for (Future<?> w : workers) {
                w.get(10, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * One TripSuppressed per CLOSED era, also when a trip of an era that has ended is suppressed
     * late (its thread read the snapshot before a reset): it must not announce its era again, nor
     * make the current era announce again.
     */
    @Test
    void aLateSuppressedTripAnnouncesNoEraTwice() {
        AtomicReference<Runnable> beforeTheTrip = new AtomicReference<>();
        List<BreakerEvent> events = java.util.Collections.synchronizedList(new ArrayList<>());
        BreakerRegistry r = capped(hookedWindow(beforeTheTrip), 0.5, () -> 0, events::add);
        CircuitBreaker a = r.breaker("a");
        CircuitBreaker b = r.breaker("b");
        fail(b); // holds the only place
        fail(a); // era 0: suppressed, announced
        beforeTheTrip.set(() -> {
            a.reset(); // era 1 begins (a reset is a transition of its own)
            fail(a); // era 1: suppressed, announced
        });
        fail(a); // a trip of era 0, suppressed after era 1 announced
        fail(a); // era 1 again
        List<Long> announced;
        synchronized (events) {
            announced = events.stream()
                    .filter(e ->
                            e instanceof TripSuppressed t && t.breakerName().equals("a"))
                    .map(e -> ((TripSuppressed) e).generation())
                    .toList();
        }
        assertEquals(State.CLOSED, a.state());
        assertEquals(List.of(0L, 1L), announced, "one per CLOSED era");
    }

    /**
     * A back-off opening (SPEC rule 19) holds no place. A trip of the same CLOSED era that took a
     * place and then lost its compare-and-set to the back-off must give that place back, or the
     * backed-off breaker holds it until it next closes and every other trip is suppressed.
     */
    @Test
    void aTripThatLosesToABackOffGivesItsPlaceBack() {
        Thread main = Thread.currentThread();
        AtomicReference<Runnable> onMainTickerRead = new AtomicReference<>();
        Ticker ticker = () -> {
            if (Thread.currentThread() == main) {
                Runnable hook = onMainTickerRead.getAndSet(null);
                if (hook != null) {
                    hook.run(); // the trip holds its place and has not made its compare-and-set yet
                }
            }
            return 0;
        };
        BreakerRegistry r = capped(Windows.consecutiveFailures(1), 0.5, ticker);
        CircuitBreaker a = r.breaker("a");
        CircuitBreaker b = r.breaker("b");
        Permit tooMany = a.tryAcquire();
        Permit failing = a.tryAcquire();
        onMainTickerRead.set(() -> tooMany.onFailure(0, new BackOffTests.TooManyRequests(Duration.ofSeconds(5))));
        failing.onFailure(0, DOWN);
        assertEquals(State.OPEN, a.state());
        assertEquals(1, a.transitions(State.CLOSED, State.OPEN), "one opening, the back-off's");
        fail(b);
        assertEquals(State.OPEN, b.state(), "a's back-off holds no place, so b may trip");
    }

    /**
     * A window that trips on every failure and, once, runs a hook inside {@code record}: after the
     * breaker read its snapshot, before the trip asks the cap. Code the user plugs in runs there.
     */
    private static dev.breaker.spi.WindowFactory hookedWindow(AtomicReference<Runnable> beforeTheTrip) {
        return new dev.breaker.spi.WindowFactory() {
            @Override
            public dev.breaker.spi.Window create(Ticker t) {
                return new dev.breaker.spi.Window() {
                    @Override
                    public boolean record(boolean failure, boolean slow) {
                        Runnable hook = beforeTheTrip.getAndSet(null);
                        if (hook != null) {
                            hook.run();
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
                return "hooked";
            }
        };
    }

    /** A ticker reading 0 that, once armed, runs a hook when the given thread reads it. */
    private static Ticker actingTicker(Thread reader, AtomicReference<Runnable> onRead) {
        return () -> {
            if (Thread.currentThread() == reader) {
                Runnable hook = onRead.getAndSet(null);
                if (hook != null) {
                    hook.run();
                }
            }
            return 0;
        };
    }

    /**
     * A registry whose open share is capped at {@code share}, its breakers on {@code window} with a
     * 10 s cooldown, read on {@code ticker}, told to {@code listeners}.
     */
    private static BreakerRegistry capped(
            dev.breaker.spi.WindowFactory window, double share, Ticker ticker, BreakerListener... listeners) {
        BreakerRegistry.Builder b = BreakerRegistry.builder()
                .defaults(CircuitBreakerConfig.builder()
                        .window(window)
                        .cooldown(Duration.ofSeconds(10))
                        .build())
                .maxOpenShare(share)
                .ticker(ticker);
        for (BreakerListener l : listeners) {
            b.listener(l);
        }
        return b.build();
    }

    private static List<TripSuppressed> suppressed(List<BreakerEvent> events) {
        synchronized (events) {
            return events.stream()
                    .filter(TripSuppressed.class::isInstance)
                    .map(TripSuppressed.class::cast)
                    .toList();
        }
    }

    /**
     * Two failures of one CLOSED era both trip, the second's trip (on the same thread, from inside
     * the window) first. The first trip then asks the cap for an era whose place is already held,
     * by its own era: the cap must let it go on (its compare-and-set then loses, as the era has
     * ended), not call it suppressed. With a limit of 2 and one place taken no trip can exceed the
     * cap, so no TripSuppressed may be published at all.
     */
    @Test
    void aTripWhoseEraAlreadyHoldsAPlaceIsNotSuppressed() {
        AtomicReference<Runnable> beforeTheTrip = new AtomicReference<>();
        List<BreakerEvent> events = java.util.Collections.synchronizedList(new ArrayList<>());
        BreakerRegistry r = capped(hookedWindow(beforeTheTrip), 1, () -> 0, events::add);
        CircuitBreaker a = r.breaker("a");
        CircuitBreaker b = r.breaker("b"); // limit max(1, floor(1 * 2)) = 2
        beforeTheTrip.set(() -> fail(a)); // the same era's other failure trips first
        fail(a);
        assertEquals(State.OPEN, a.state());
        assertEquals(1, a.transitions(State.CLOSED, State.OPEN), "one era, one opening");
        assertEquals(List.of(), suppressed(events), "one place of two was taken: nothing could be suppressed");
        fail(b);
        assertEquals(State.OPEN, b.state(), "the second place is free: a's era took one, not two");
    }

    /**
     * A trip of an era that has ended (a reset began a new one while the window recorded) takes a
     * place, and before it finds out, the new era trips too (a ticker read inside the first trip
     * runs it). The new era's trip must take over the place the stale trip holds, whatever the
     * generation of that place (here 0), and open the breaker: the cap, with a limit of 1, has
     * exactly that place for it. Afterwards the one place is the new OPEN era's.
     */
    @Test
    void aTripOfTheNewEraTakesOverThePlaceAStaleTripOfTheOldEraTook() {
        AtomicReference<Runnable> beforeTheTrip = new AtomicReference<>();
        AtomicReference<Runnable> onTickerRead = new AtomicReference<>();
        List<BreakerEvent> events = java.util.Collections.synchronizedList(new ArrayList<>());
        BreakerRegistry r = capped(
                hookedWindow(beforeTheTrip), 0.5, actingTicker(Thread.currentThread(), onTickerRead), events::add);
        CircuitBreaker a = r.breaker("a");
        CircuitBreaker b = r.breaker("b"); // limit 1
        beforeTheTrip.set(() -> {
            a.reset(); // era 1 begins: the failure being recorded is era 0's, its trip stale
            onTickerRead.set(() -> fail(a)); // read by the stale trip once it holds its place
        });
        fail(a);
        assertEquals(State.OPEN, a.state(), "era 1's trip took the place over and opened the breaker");
        assertEquals(1, a.transitions(State.CLOSED, State.OPEN), "only era 1's trip opened it");
        assertEquals(List.of(), suppressed(events), "the one place was there for era 1's trip");
        fail(b);
        assertEquals(State.CLOSED, b.state(), "a's OPEN era holds the only place");
        a.reset();
        fail(b);
        assertEquals(State.OPEN, b.state(), "a held one place, not two: its reset gave it back");
    }

    /**
     * A back-off (SPEC rule 19) ends a CLOSED era while a failure of that era is being recorded (from
     * inside the window). The failure's trip then takes a place for the ended era and loses its
     * compare-and-set; nobody else will give that place back, so the trip must, or the backed-off
     * breaker holds a place it never had a right to and every other trip is suppressed.
     */
    @Test
    void aTripThatTakesAPlaceAfterABackOffEndedItsEraGivesItBack() {
        AtomicReference<Runnable> beforeTheTrip = new AtomicReference<>();
        BreakerRegistry r = capped(hookedWindow(beforeTheTrip), 0.5, () -> 0);
        CircuitBreaker a = r.breaker("a");
        CircuitBreaker b = r.breaker("b"); // limit 1
        Permit tooMany = a.tryAcquire();
        Permit failing = a.tryAcquire();
        beforeTheTrip.set(() -> tooMany.onFailure(0, new BackOffTests.TooManyRequests(Duration.ofSeconds(5))));
        failing.onFailure(0, DOWN);
        assertEquals(State.OPEN, a.state());
        assertEquals(1, a.transitions(State.CLOSED, State.OPEN), "one opening, the back-off's");
        fail(b);
        assertEquals(State.OPEN, b.state(), "a's back-off holds no place, so b may trip");
    }

    /**
     * The other order of a trip racing a back-off of its era: the trip takes its place, the back-off
     * opens the breaker, and the trip loses its compare-and-set and looks for a back-off before the
     * back-off has said so (its thread is still delivering the transition to a listener). Then the
     * back-off must give the trip's place back itself. Two threads, held in place by the ticker the
     * trip reads and by the listener the back-off's transition calls; no sleeps.
     */
    @Test
    void aBackOffGivesBackThePlaceOfATripThatLookedBeforeTheBackOffSaidSo() throws Exception {
        CountDownLatch tripHoldsItsPlace = new CountDownLatch(1);
        CountDownLatch backOffOpened = new CountDownLatch(1);
        CountDownLatch tripDone = new CountDownLatch(1);
        AtomicReference<Thread> tripper = new AtomicReference<>();
        Thread main = Thread.currentThread();
        Ticker ticker = () -> {
            if (Thread.currentThread() == tripper.get() && tripHoldsItsPlace.getCount() > 0) {
                tripHoldsItsPlace.countDown(); // read by the trip after it took its place
                await(backOffOpened);
            }
            return 0;
        };
        BreakerListener holdTheBackOff = event -> {
            if (Thread.currentThread() == main
                    && event instanceof StateTransition t
                    && t.reason() == TransitionReason.BACK_OFF
                    && backOffOpened.getCount() > 0) {
                backOffOpened.countDown(); // after the back-off's compare-and-set, before it gives anything back
                await(tripDone);
            }
        };
        BreakerRegistry r = capped(Windows.consecutiveFailures(1), 0.5, ticker, holdTheBackOff);
        CircuitBreaker a = r.breaker("a");
        CircuitBreaker b = r.breaker("b"); // limit 1
        Permit tooMany = a.tryAcquire();
        Permit failing = a.tryAcquire();
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<?> trip = pool.submit(() -> {
                tripper.set(Thread.currentThread());
                failing.onFailure(0, DOWN);
                tripDone.countDown();
            });
            assertTrue(tripHoldsItsPlace.await(10, TimeUnit.SECONDS));
            tooMany.onFailure(0, new BackOffTests.TooManyRequests(Duration.ofSeconds(5)));
            trip.get(10, TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }
        assertEquals(0, tripDone.getCount());
        assertEquals(State.OPEN, a.state());
        assertEquals(1, a.transitions(State.CLOSED, State.OPEN), "one opening, the back-off's");
        fail(b);
        assertEquals(State.OPEN, b.state(), "a's back-off holds no place, so b may trip");
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("timed out");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
