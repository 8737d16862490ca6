package dev.breaker.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breaker.BreakerMetrics;
import dev.breaker.CircuitBreaker;
import dev.breaker.Permit;
import dev.breaker.State;
import dev.breaker.StateTransition;
import dev.breaker.TransitionReason;
import dev.breaker.spi.WindowFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A soak of one breaker with a given window, for every window module's tests. Threads (twice
 * the cores) hammer one breaker with random outcomes while its ticker moves on and it is
 * isolated and reset now and then, for a bounded time: {@code -Dbreaker.soak.seconds=N}
 * (default 3; the {@code soak} Maven profile sets 120). Invariants checked throughout and at the end:
 * never more than N probe permits held in a round; no probe round begins before its cooldown
 * ends; counters never negative; one transition event per generation, delivered in order or
 * counted as dropped, each delivered one starting where the previous generation's ended.
 */
public final class BreakerSoak {

    private static final int PROBES = 3;
    private static final long COOLDOWN = 50_000;
    private static final long SOAK_NANOS = TimeUnit.SECONDS.toNanos(Long.getLong("breaker.soak.seconds", 3));

    private BreakerSoak() {}

    /**
     * Runs the soak and asserts its invariants.
     *
     * @param window the window under test; it must trip under a mix of about 1 failure in 4
     * @throws Exception when a worker fails
     */
    public static void run(WindowFactory window) throws Exception {
        // its own event executor, stopped at the end: the default one starts a thread per hand-off
        // on a machine with few cores, and those would outlive the soak into the next test
        ExecutorService eventExecutor = Executors.newSingleThreadExecutor(task -> {
            Thread t = new Thread(task, "soak-events");
            t.setDaemon(true);
            return t;
        });
        try {
            run(window, eventExecutor);
        } finally {
            eventExecutor.shutdownNow(); // every event is delivered or counted by now, unless the soak failed
            eventExecutor.awaitTermination(10, TimeUnit.SECONDS);
        }
    }

    private static void run(WindowFactory window, ExecutorService eventExecutor) throws Exception {
        AtomicLong clock = new AtomicLong(Long.MAX_VALUE - 1_000_000_000L); // wraps during the run
        ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();
        // the dispatcher calls listeners one at a time, but maybe on its executor's threads: the test thread reads it
        // too
        List<StateTransition> events = java.util.Collections.synchronizedList(new ArrayList<>());
        CircuitBreaker b = CircuitBreaker.builder("soak")
                .window(window)
                .cooldown(Duration.ofNanos(COOLDOWN))
                .probes(PROBES)
                .maxHalfOpenDuration(Duration.ofNanos(400_000))
                .ticker(clock::get)
                .eventExecutor(eventExecutor)
                .eventBacklog(1 << 20)
                .listener(e -> {
                    if (e instanceof StateTransition t) {
                        events.add(t);
                    }
                })
                .build();
        Map<Long, AtomicInteger> heldProbes = new ConcurrentHashMap<>();
        int threads = 2 * Runtime.getRuntime().availableProcessors();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        long deadline = System.nanoTime() + SOAK_NANOS;
        List<Future<Long>> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            long seed = t;
            workers.add(pool.submit(() -> {
                SplittableRandom random = new SplittableRandom(seed);
                long operations = 0;
                while (System.nanoTime() < deadline) {
                    operations++;
                    int dice = random.nextInt(1000);
                    if (dice == 0) {
                        b.isolate();
                    } else if (dice == 1) {
                        b.reset();
                    } else if (dice < 60) {
                        clock.addAndGet(random.nextInt(20_000));
                    } else if (dice < 80) {
                        BreakerMetrics m = b.metrics();
                        if (m.rejectedCalls() < 0
                                || m.lateResults() < 0
                                || m.failedCalls() < 0
                                || m.probesAdmitted() < 0
                                || m.probesAdmitted() > PROBES) {
                            violations.add("bad metrics " + m);
                        }
                    } else {
                        Permit p = b.tryAcquire();
                        if (!p.granted()) {
                            continue;
                        }
                        AtomicInteger held = null;
                        if (p.isProbe()) {
                            long round = p.generation();
                            held = heldProbes.computeIfAbsent(round, g -> new AtomicInteger());
                            int now = held.incrementAndGet();
                            if (now > PROBES) {
                                violations.add(now + " probes held in round " + round);
                            }
                        }
                        for (int spin = random.nextInt(64); spin > 0; spin--) {
                            Thread.onSpinWait(); // the "call": the probe is held meanwhile
                        }
                        if (held != null) {
                            held.decrementAndGet(); // before reporting, which may free the slot for another
                        }
                        switch (random.nextInt(4)) {
                            case 0 -> p.onFailure(0, null);
                            case 1 -> p.release();
                            default -> p.onSuccess(0);
                        }
                    }
                }
                return operations;
            }));
        }
        long operations = 0;
        for (Future<Long> f : workers) {
            operations += f.get(SOAK_NANOS / 1_000_000_000L + 60, TimeUnit.SECONDS);
        }
        pool.shutdown();
        assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
        assertTrue(violations.isEmpty(), violations.size() + " violations, first: " + violations.peek());

        BreakerMetrics end = b.metrics();
        long waitUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (events.size() + b.metrics().droppedEvents() < end.generation() && System.nanoTime() < waitUntil) {
            Thread.sleep(1);
        }
        assertEquals(
                end.generation(),
                events.size() + b.metrics().droppedEvents(),
                "one event per generation, delivered or counted as dropped");
        State previous = State.CLOSED;
        long openedAt = 0;
        long lastGeneration = 0;
        for (int i = 0; i < events.size(); i++) {
            StateTransition t = events.get(i);
            assertTrue(t.generation() > lastGeneration, "generation order: " + t + " after " + lastGeneration);
            if (t.generation() == lastGeneration + 1) {
                assertEquals(previous, t.from(), "event " + t + " starts where the last ended");
            } else {
                openedAt = Long.MIN_VALUE; // a dropped event hid when it opened
            }
            lastGeneration = t.generation();
            if (t.to() == State.OPEN) {
                openedAt = t.atNanos();
            }
            if (t.reason() == TransitionReason.COOLDOWN_ELAPSED && openedAt != Long.MIN_VALUE) {
                assertTrue(t.atNanos() - openedAt >= COOLDOWN, "probe round began before the cooldown ended: " + t);
            }
            previous = t.to();
        }
        if (lastGeneration == end.generation()) {
            assertEquals(end.state(), previous);
        }
        assertTrue(operations > 10_000, "the soak did work: " + operations + " operations");
        assertTrue(events.stream().anyMatch(t -> t.reason() == TransitionReason.PROBES_SUCCEEDED), "rounds closed");
        assertTrue(
                events.stream()
                        .anyMatch(t -> t.reason() == TransitionReason.HALF_OPEN_TIMEOUT
                                || t.reason() == TransitionReason.PROBE_FAILED),
                "rounds failed");
    }
}
