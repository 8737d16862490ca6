package dev.breaker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Races with barriers, many rounds, exact counts. Each round releases all threads at once from a
 * {@link CyclicBarrier} so they meet the breaker at the same instant, then checks invariants.
 */
class ConcurrencyTests {

    private static final int THREADS = 8;
    private static final int ROUNDS = 300;

    private final ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    private final CyclicBarrier start = new CyclicBarrier(THREADS);

    @AfterEach
    void stop() throws InterruptedException {
        pool.shutdownNow();
        assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
    }

    /** Runs {@code task} on every thread at once and collects the results. */
    private <T> List<T> race(Callable<T> task) throws Exception {
        List<Future<T>> futures = new ArrayList<>();
        for (int i = 0; i < THREADS; i++) {
            futures.add(pool.submit(() -> {
                start.await(10, TimeUnit.SECONDS);
                return task.call();
            }));
        }
        List<T> results = new ArrayList<>();
        for (Future<T> f : futures) {
            results.add(f.get(30, TimeUnit.SECONDS));
        }
        return results;
    }

    @Test
    void threadsRacingAtExpiredCooldownGetExactlyNProbes() throws Exception {
        for (int probes = 1; probes <= 3; probes++) {
            FakeTicker ticker = new FakeTicker();
            CircuitBreaker b = CircuitBreaker.builder("race")
                    .window(Windows.consecutiveFailures(1))
                    .cooldown(Duration.ofMillis(10))
                    .probes(probes)
                    .ticker(ticker)
                    .build();
            for (int round = 0; round < ROUNDS; round++) {
                b.tryAcquire().onFailure(0, null);
                assertEquals(State.OPEN, b.state());
                ticker.advanceMillis(10);
                List<Permit> permits = race(b::tryAcquire);
                long granted = permits.stream().filter(Permit::granted).count();
                assertEquals(probes, granted, "round " + round);
                assertEquals(State.HALF_OPEN, b.state());
                assertEquals(probes, b.metrics().probesAdmitted());
                // one probe fails: next round
                permits.stream()
                        .filter(Permit::granted)
                        .findFirst()
                        .orElseThrow()
                        .onFailure(0, null);
                assertEquals(State.OPEN, b.state());
                b.reset();
            }
        }
    }

    @Test
    void manyThreadsFailingAtOnceOpenExactlyOnce() throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            ConcurrentLinkedQueue<StateTransition> transitions = new ConcurrentLinkedQueue<>();
            CircuitBreaker b = CircuitBreaker.builder("storm")
                    .window(Windows.consecutiveFailures(3))
                    .cooldown(Duration.ofSeconds(60))
                    .ticker(new FakeTicker())
                    .listener(e -> {
                        if (e instanceof StateTransition t) {
                            transitions.add(t);
                        }
                    })
                    .build();
            race(() -> b.get(
                    () -> {
                        throw new IllegalStateException("down");
                    },
                    e -> "fallback"));
            assertEquals(1, transitions.size(), "round " + round + ": " + transitions);
            StateTransition t = transitions.peek();
            assertEquals(State.CLOSED, t.from());
            assertEquals(State.OPEN, t.to());
            assertEquals(1, t.generation());
            assertEquals(State.OPEN, b.state());
        }
    }

    @Test
    void lateSuccessesRacingWithProbesNeverDecideTheRound() throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            FakeTicker ticker = new FakeTicker();
            CircuitBreaker b = CircuitBreaker.builder("late")
                    .window(Windows.consecutiveFailures(1))
                    .cooldown(Duration.ofMillis(10))
                    .probes(2)
                    .ticker(ticker)
                    .build();
            Permit closedEra = b.tryAcquire();
            closedEra.onFailure(0, null); // trips; the shared permit of generation 0 is now stale
            ticker.advanceMillis(10);
            Permit probe = b.tryAcquire(); // round 1
            probe.onFailure(0, null); // round 1 failed
            ticker.advanceMillis(10);
            AtomicInteger index = new AtomicInteger();
            // thread 0 takes a probe of round 2; the others report stale successes and releases
            List<Permit> got = race(() -> {
                int i = index.getAndIncrement();
                if (i == 0) {
                    return b.tryAcquire();
                }
                if (i % 2 == 0) {
                    closedEra.onSuccess(0);
                } else {
                    probe.release();
                }
                return null;
            });
            assertEquals(State.HALF_OPEN, b.state(), "round " + round);
            assertEquals(0, b.metrics().probeSuccesses());
            assertEquals(1, b.metrics().probesAdmitted(), "stale releases freed no slot");
            Permit mine = got.stream().filter(p -> p != null).findFirst().orElseThrow();
            assertTrue(mine.granted());
            mine.onSuccess(0);
            assertEquals(State.HALF_OPEN, b.state(), "the round still needs its second probe");
            assertEquals(THREADS / 2 - 1, b.metrics().lateResults(), "every stale closed-era success is late");
            assertEquals(
                    THREADS / 2, b.metrics().duplicateReports(), "probe's releases after its failure are duplicates");
        }
    }

    @Test
    void releasesAndAcquiresNeverExceedTheBudget() throws Exception {
        FakeTicker ticker = new FakeTicker();
        CircuitBreaker b = CircuitBreaker.builder("churn")
                .window(Windows.consecutiveFailures(1))
                .cooldown(Duration.ZERO)
                .probes(3)
                .maxHalfOpenDuration(Duration.ofDays(1))
                .ticker(ticker)
                .build();
        b.tryAcquire().onFailure(0, null);
        b.tryAcquire().release(); // enter HALF_OPEN, give the slot back
        AtomicInteger maxSeen = new AtomicInteger();
        AtomicInteger outstanding = new AtomicInteger();
        race(() -> {
            for (int i = 0; i < 20_000; i++) {
                Permit p = b.tryAcquire();
                if (p.granted()) {
                    int now = outstanding.incrementAndGet();
                    maxSeen.accumulateAndGet(now, Math::max);
                    outstanding.decrementAndGet();
                    p.release();
                }
            }
            return null;
        });
        assertTrue(maxSeen.get() <= 3, "never more than 3 probes held at once, saw " + maxSeen.get());
        assertEquals(0, b.metrics().probesAdmitted());
        assertEquals(State.HALF_OPEN, b.state());
    }

    @Test
    void transitionEventsArriveOnceEachInGenerationOrder() throws Exception {
        ConcurrentLinkedQueue<StateTransition> seen = new ConcurrentLinkedQueue<>();
        AtomicInteger inListener = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        CircuitBreaker b = CircuitBreaker.builder("order")
                .ticker(new FakeTicker())
                .eventBacklog(1 << 16)
                .listener(e -> {
                    if (inListener.incrementAndGet() > 1) {
                        overlaps.incrementAndGet();
                    }
                    if (e instanceof StateTransition t) {
                        seen.add(t);
                    }
                    inListener.decrementAndGet();
                })
                .build();
        race(() -> {
            for (int i = 0; i < 2_000; i++) {
                if ((i & 1) == 0) {
                    b.isolate();
                } else {
                    b.reset();
                }
            }
            return null;
        });
        long generation = b.metrics().generation();
        Events.awaitDelivered(b, seen::size);
        assertEquals(0, b.metrics().droppedEvents(), "the backlog held every event");
        assertEquals(generation, seen.size(), "one event per generation");
        long expected = 1;
        State previous = State.CLOSED;
        for (StateTransition t : seen) {
            assertEquals(expected++, t.generation());
            assertEquals(previous, t.from(), "each event starts where the last one ended");
            previous = t.to();
        }
        assertEquals(b.state(), previous);
        assertEquals(0, overlaps.get(), "listeners are called one at a time");
    }
}
