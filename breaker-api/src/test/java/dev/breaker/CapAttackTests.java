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
        BreakerRegistry r = BreakerRegistry.builder()
                .defaults(CircuitBreakerConfig.builder()
                        .window(Windows.consecutiveFailures(1))
                        .cooldown(Duration.ofSeconds(10))
                        .build())
                .maxOpenShare(0.5)
                .ticker(ticker)
                .listener(holdFirstTrip)
                .build();
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
        BreakerRegistry r = BreakerRegistry.builder()
                .defaults(CircuitBreakerConfig.builder()
                        .window(Windows.consecutiveFailures(1))
                        .cooldown(Duration.ofSeconds(10))
                        .build())
                .maxOpenShare(0.5)
                .ticker(() -> 0)
                .build();
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
        dev.breaker.spi.WindowFactory hooked = new dev.breaker.spi.WindowFactory() {
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
                return "hooked";
            }
        };
        List<BreakerEvent> events = java.util.Collections.synchronizedList(new ArrayList<>());
        BreakerRegistry r = BreakerRegistry.builder()
                .defaults(CircuitBreakerConfig.builder().window(hooked).build())
                .maxOpenShare(0.5)
                .ticker(() -> 0)
                .listener(events::add)
                .build();
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
        BreakerRegistry r = BreakerRegistry.builder()
                .defaults(CircuitBreakerConfig.builder()
                        .window(Windows.consecutiveFailures(1))
                        .cooldown(Duration.ofSeconds(10))
                        .build())
                .maxOpenShare(0.5)
                .ticker(ticker)
                .build();
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
