package dev.breaker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.breaker.internal.race.Races;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * An idle sweep against a breaker that moves between the sweep's check and its removal (a
 * {@link Races race point} there): a trip, or a call, keeps the breaker, its place under the
 * open-share cap and its name; the watchers hear of no removal.
 */
@Tag("race-points") // run in their own execution, the only one with -Ddev.breaker.races=true
class EvictionRacePointTests {

    private final FakeTicker ticker = new FakeTicker();
    private final List<String> seen = Collections.synchronizedList(new ArrayList<>());

    @AfterEach
    void stop() {
        Races.handle(null);
    }

    private BreakerRegistry registry() {
        BreakerRegistry r = BreakerRegistry.builder()
                .defaults(CircuitBreakerConfig.builder()
                        .window(Windows.consecutiveFailures(2))
                        .cooldown(Duration.ofSeconds(5))
                        .build())
                .ticker(ticker)
                .evictIdleAfter(Duration.ofNanos(100))
                .build();
        r.watch(new SeenWatcher(seen));
        return r;
    }

    /** At the point, runs {@code act} once. */
    private static void once(Runnable act) {
        boolean[] done = {false};
        Races.handle(p -> {
            if (p == Races.EVICTION_CHECKED && !done[0]) {
                done[0] = true;
                act.run();
            }
        });
    }

    @Test
    void aBreakerThatTripsBetweenTheCheckAndTheRemovalIsKept() {
        BreakerRegistry r = registry();
        CircuitBreaker b = r.breaker("b"); // first seen by the sweep this makes
        ticker.advance(100);
        once(() -> {
            b.tryAcquire().onFailure(0, null);
            b.tryAcquire().onFailure(0, null);
        });
        assertEquals(0, r.evictIdle(), "it tripped after the check: OPEN and cooling down, kept");
        assertSame(b, r.find("b").orElseThrow());
        assertEquals(State.OPEN, b.state());
        assertEquals(List.of("+b"), seen);
    }

    /** An OPEN breaker past its cooldown that grants a probe in the gap (no total moves) is kept. */
    @Test
    void aBreakerThatGrantsAProbeBetweenTheCheckAndTheRemovalIsKept() {
        BreakerRegistry r = registry();
        CircuitBreaker b = r.breaker("b");
        b.tryAcquire().onFailure(0, null);
        b.tryAcquire().onFailure(0, null);
        ticker.advance(Duration.ofSeconds(5).toNanos());
        r.evictIdle(); // OPEN, its cooldown over, nobody asking: idle from here
        ticker.advance(100);
        once(() -> b.tryAcquire()); // a probe: HALF_OPEN, and no total moved
        assertEquals(0, r.evictIdle(), "HALF_OPEN by the time it would go: kept");
        assertSame(b, r.find("b").orElseThrow());
        assertEquals(State.HALF_OPEN, b.state());
    }

    /** The user's own removal in the gap is the one that counts: the sweep puts nothing back. */
    @Test
    void aRemovalByTheUserInTheGapStands() {
        BreakerRegistry r = registry();
        CircuitBreaker b = r.breaker("b");
        ticker.advance(100);
        once(() -> assertEquals(true, r.remove("b")));
        assertEquals(0, r.evictIdle(), "already gone: not the sweep's");
        assertEquals(java.util.Optional.empty(), r.find("b"));
        assertEquals(List.of("+b", "-b"), seen, "one removal, told once");
    }

    @Test
    void aBreakerCalledBetweenTheCheckAndTheRemovalIsKeptAndIdleFromThen() {
        BreakerRegistry r = registry();
        CircuitBreaker b = r.breaker("b");
        ticker.advance(100);
        once(() -> b.tryAcquire().onSuccess(0));
        assertEquals(0, r.evictIdle(), "called after the check: kept");
        assertSame(b, r.find("b").orElseThrow());
        Races.handle(null);
        r.evictIdle(); // sees the call: idle from here
        ticker.advance(100);
        assertEquals(1, r.evictIdle(), "idle again, it goes");
        assertEquals(List.of("+b", "-b"), seen);
    }
}
