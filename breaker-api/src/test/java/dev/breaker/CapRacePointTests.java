package dev.breaker;

import static dev.breaker.testsupport.Waits.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breaker.internal.race.Races;
import dev.breaker.testsupport.HeldOnce;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * SPEC rule 18 under interleavings that no plugin's code can hold a thread in: between a
 * transition's compare-and-set and its settling of the open-share place, and between a hold's
 * reading of the place and its acting on it. Each thread is held at a {@link Races race point}, so
 * every run meets the interleaving.
 */
@Tag("race-points") // run in their own execution, the only one with -Ddev.breaker.races=true
class CapRacePointTests {

    private static final IllegalStateException DOWN = new IllegalStateException("down");
    private final FakeTicker ticker = new FakeTicker();
    private final ExecutorService first = Executors.newSingleThreadExecutor();
    private final ExecutorService second = Executors.newSingleThreadExecutor();

    @AfterEach
    void stop() {
        Races.handle(null);
        first.shutdownNow();
        second.shutdownNow();
    }

    /** Three breakers under a share of 0.5: a limit of max(1, floor(1.5)) = 1 place. */
    private BreakerRegistry registry() {
        BreakerRegistry r = BreakerRegistry.builder()
                .defaults(CircuitBreakerConfig.builder()
                        .window(Windows.consecutiveFailures(1))
                        .cooldown(Duration.ofNanos(10))
                        .build())
                .maxOpenShare(0.5)
                .ticker(ticker)
                .build();
        r.breaker("a");
        r.breaker("b");
        r.breaker("c");
        return r;
    }

    private static HeldOnce hold(int point, Thread target) {
        return HeldOnce.atPoint(Races::handle, point, target);
    }

    private static void fail(CircuitBreaker b) {
        b.tryAcquire().onFailure(0, DOWN);
    }

    /**
     * A trips on thread T, which reads that it holds no place and is held; the registry removes
     * a, whose leaving finds no place to give back; T then takes a place. Since a left, T must give
     * it back at once: a removed breaker holds no place for good, and b may still open.
     */
    @Test
    void aPlaceTakenByABreakerRemovedMeanwhileGoesBackAtOnce() {
        BreakerRegistry r = registry();
        CircuitBreaker a = r.breaker("a");
        HeldOnce reading = hold(Races.PLACE_READ, HeldOnce.threadOf(first));
        Future<?> trip = first.submit(() -> fail(a));
        reading.reachedBy(trip);
        assertTrue(r.remove("a"));
        reading.letGo();
        get(trip);
        assertEquals(State.OPEN, a.state(), "a removed breaker trips outside the cap");
        CircuitBreaker b = r.breaker("b");
        fail(b);
        assertEquals(State.OPEN, b.state(), "a's place went back: b takes the one place of the two left");
    }

    /**
     * a's trip of era h holds the one place; a closes into era g on thread C, which is held after
     * its compare-and-set, before it gives h's place back. A trip of era g on thread T reads h's
     * place, means to take it over, and is held; C gives the place back. T's take-over then fails,
     * and T must take a place of its own: a is OPEN and holds the one place, so b's trip is
     * suppressed.
     */
    @Test
    void aTripThatFindsTheEndedErasPlaceGivenBackBeforeItTakesItOverTakesOneOfItsOwn() {
        BreakerRegistry r = registry();
        CircuitBreaker a = r.breaker("a");
        CircuitBreaker b = r.breaker("b");
        fail(a); // era h's trip: a holds the one place
        assertEquals(State.OPEN, a.state());
        ticker.advance(10);
        Permit probe = a.tryAcquire(); // OPEN to HALF_OPEN here, on this thread
        assertEquals(State.HALF_OPEN, a.state());
        Thread closer = HeldOnce.threadOf(first);
        Thread tripper = HeldOnce.threadOf(second);
        HeldOnce closing = new HeldOnce(closer, "the close's settling");
        HeldOnce reading = new HeldOnce(tripper, "the trip's reading of the place");
        Races.handle(p -> {
            if (p == Races.TRANSITIONED) {
                closing.holdIfTarget();
            } else if (p == Races.PLACE_READ) {
                reading.holdIfTarget();
            }
        });
        Future<?> close = first.submit(() -> probe.onSuccess(0));
        closing.reachedBy(close);
        assertEquals(State.CLOSED, a.state(), "era g has begun; h's place is not given back yet");
        Future<?> trip = second.submit(() -> fail(a));
        reading.reachedBy(trip);
        closing.letGo();
        get(close);
        reading.letGo();
        get(trip);
        assertEquals(State.OPEN, a.state());
        fail(b);
        assertEquals(State.CLOSED, b.state(), "a holds the one place: b's trip is suppressed");
        assertEquals(
                1, r.breakers().stream().filter(x -> x.state() != State.CLOSED).count());
    }

    /**
     * isolate() wins its compare-and-set to ISOLATED on thread I and is held before it takes a
     * place; reset() closes the breaker and finds no place to give back; I then takes one. It must
     * give it back, since the breaker is CLOSED: b may still open.
     */
    @Test
    void anIsolationThatAResetOvertookGivesThePlaceItTookBack() {
        BreakerRegistry r = registry();
        CircuitBreaker a = r.breaker("a");
        CircuitBreaker b = r.breaker("b");
        HeldOnce isolating = hold(Races.TRANSITIONED, HeldOnce.threadOf(first));
        Future<?> isolate = first.submit(a::isolate);
        isolating.reachedBy(isolate);
        assertEquals(State.ISOLATED, a.state());
        a.reset();
        assertEquals(State.CLOSED, a.state());
        isolating.letGo();
        get(isolate);
        assertEquals(State.CLOSED, a.state());
        fail(b);
        assertEquals(State.OPEN, b.state(), "a is CLOSED and holds no place: b takes the one place");
    }
}
