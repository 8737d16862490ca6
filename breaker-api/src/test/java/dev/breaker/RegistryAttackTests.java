package dev.breaker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link BreakerRegistry} under attack: watchers that call back into the registry, lookups,
 * removals and new watchers racing each other. The invariant: once everything is at rest, what
 * every watcher was told last about each breaker matches the registry (a breaker it believes
 * present is present, and the other way round).
 */
class RegistryAttackTests {

    /** Applies what it is told, in the order it is told, to a set of breakers by identity. */
    static class View implements BreakerRegistry.Watcher {
        private final Set<CircuitBreaker> present = Collections.newSetFromMap(new IdentityHashMap<>());
        private final List<String> told = new ArrayList<>();
        private final boolean slow;

        View(boolean slow) {
            this.slow = slow;
        }

        @Override
        public void added(CircuitBreaker breaker) {
            if (slow) {
                Thread.yield(); // a watcher that takes its time: a racing removal may overtake it
            }
            synchronized (this) {
                present.add(breaker);
                told.add("added " + breaker.name());
            }
        }

        @Override
        public synchronized void removed(CircuitBreaker breaker) {
            present.remove(breaker);
            told.add("removed " + breaker.name());
        }

        synchronized Set<CircuitBreaker> present() {
            Set<CircuitBreaker> copy = Collections.newSetFromMap(new IdentityHashMap<>());
            copy.addAll(present);
            return copy;
        }

        synchronized List<String> told() {
            return List.copyOf(told);
        }
    }

    private static Set<CircuitBreaker> inRegistry(BreakerRegistry r) {
        Set<CircuitBreaker> s = Collections.newSetFromMap(new IdentityHashMap<>());
        s.addAll(r.breakers());
        return s;
    }

    /**
     * The first watcher removes the breaker it is told of. The second is told of the removal
     * first (the breaker left the map before it was announced to it), then of the addition: it
     * ends up believing in a breaker the registry no longer has, and a later breaker of the same
     * name would be its second one of that name.
     */
    @Test
    void aWatcherThatRemovesTheBreakerItIsToldOfLeavesNoWatcherBelievingInIt() {
        BreakerRegistry r = BreakerRegistry.builder().build();
        r.watch(new BreakerRegistry.Watcher() {
            @Override
            public void added(CircuitBreaker breaker) {
                r.remove(breaker.name()); // say, a policy that refuses some names
            }

            @Override
            public void removed(CircuitBreaker breaker) {}
        });
        View second = new View(false);
        r.watch(second);
        r.breaker("x");
        assertTrue(r.find("x").isEmpty());
        assertEquals(inRegistry(r), second.present(), "told: " + second.told());
    }

    /**
     * A watcher that starts watching while the breaker it is told of exists, but is removed
     * before it is told: it must not end up believing in it.
     */
    @Test
    void aBreakerRemovedWhileANewWatcherIsToldOfItIsNotLeftInItsView() {
        BreakerRegistry r = BreakerRegistry.builder().build();
        r.breaker("x");
        View view = new View(false) {
            @Override
            public void added(CircuitBreaker breaker) {
                r.remove(breaker.name()); // stands for another thread's removal, at that moment
                super.added(breaker);
            }
        };
        r.watch(view);
        assertTrue(r.find("x").isEmpty());
        assertEquals(inRegistry(r), view.present(), "told: " + view.told());
    }

    /** Lookups, removals and new watchers race; at rest every watcher's view is the registry's. */
    @Tag("race")
    @Test
    void racingLookupsRemovalsAndWatchersLeaveEveryViewMatchingTheRegistry() throws Exception {
        int threads = 3;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            for (int round = 0; round < 2_000; round++) {
                BreakerRegistry r = BreakerRegistry.builder().build();
                View early = new View(true);
                r.watch(early);
                View late = new View(true);
                CyclicBarrier start = new CyclicBarrier(threads);
                List<Future<?>> done = new ArrayList<>();
                done.add(pool.submit(() -> {
                    start.await(10, TimeUnit.SECONDS);
                    r.breaker("x");
                    return null;
                }));
                done.add(pool.submit(() -> {
                    start.await(10, TimeUnit.SECONDS);
                    for (int i = 0; i < 3 && !r.remove("x"); i++) {
                        Thread.yield();
                    }
                    return null;
                }));
                done.add(pool.submit(() -> {
                    start.await(10, TimeUnit.SECONDS);
                    r.watch(late);
                    return null;
                }));
                for (Future<?> f : done) {
                    f.get(10, TimeUnit.SECONDS);
                }
                Set<CircuitBreaker> actual = inRegistry(r);
                assertEquals(actual, early.present(), "round " + round + ", told " + early.told());
                assertEquals(actual, late.present(), "round " + round + ", told " + late.told());
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Eviction joins the race: an idle breaker is swept while a lookup, a removal and a new
     * watcher run. At rest every view is the registry's, and the registry holds at most one
     * breaker of the name.
     */
    @Tag("race")
    @Test
    void racingEvictionsLookupsRemovalsAndWatchersLeaveEveryViewMatchingTheRegistry() throws Exception {
        int threads = 4;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            for (int round = 0; round < 2_000; round++) {
                FakeTicker ticker = new FakeTicker();
                BreakerRegistry r = BreakerRegistry.builder()
                        .ticker(ticker)
                        .evictIdleAfter(java.time.Duration.ofNanos(10))
                        .build();
                View early = new View(true);
                r.watch(early);
                r.breaker("x");
                r.breaker("y");
                r.evictIdle(); // seen once
                ticker.advance(10); // idle from now on
                View late = new View(true);
                CyclicBarrier start = new CyclicBarrier(threads);
                List<Future<?>> done = new ArrayList<>();
                done.add(pool.submit(() -> {
                    start.await(10, TimeUnit.SECONDS);
                    r.evictIdle();
                    return null;
                }));
                done.add(pool.submit(() -> {
                    start.await(10, TimeUnit.SECONDS);
                    r.breaker("x");
                    r.breaker("z");
                    return null;
                }));
                done.add(pool.submit(() -> {
                    start.await(10, TimeUnit.SECONDS);
                    r.remove("y");
                    return null;
                }));
                done.add(pool.submit(() -> {
                    start.await(10, TimeUnit.SECONDS);
                    r.watch(late);
                    return null;
                }));
                for (Future<?> f : done) {
                    f.get(10, TimeUnit.SECONDS);
                }
                Set<CircuitBreaker> actual = inRegistry(r);
                assertEquals(actual, early.present(), "round " + round + ", told " + early.told());
                assertEquals(actual, late.present(), "round " + round + ", told " + late.told());
                assertEquals(
                        actual.size(),
                        actual.stream().map(CircuitBreaker::name).distinct().count(),
                        "one per name");
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** A watcher that sweeps again from {@code removed} (the same thread holds the sweep): each breaker goes once. */
    @Test
    void aWatcherThatSweepsFromRemovedEvictsEachBreakerOnce() {
        FakeTicker ticker = new FakeTicker();
        BreakerRegistry r = BreakerRegistry.builder()
                .ticker(ticker)
                .evictIdleAfter(java.time.Duration.ofNanos(10))
                .build();
        List<Integer> nested = new ArrayList<>();
        View view = new View(false) {
            @Override
            public void removed(CircuitBreaker breaker) {
                super.removed(breaker);
                nested.add(r.evictIdle());
            }
        };
        r.watch(view);
        for (String name : List.of("a", "b", "c", "d")) {
            r.breaker(name);
        }
        r.evictIdle();
        ticker.advance(10);
        int outer = r.evictIdle();
        assertEquals(4, outer + nested.stream().mapToInt(Integer::intValue).sum(), "nested: " + nested);
        assertTrue(r.breakers().isEmpty());
        assertEquals(
                4, view.told().stream().filter(t -> t.startsWith("removed")).count(), "told: " + view.told());
    }

    /** A subscription closed twice, or a watcher equal to another, must stop only its own telling. */
    @Test
    void closingASubscriptionStopsOnlyThatSubscription() throws Exception {
        BreakerRegistry r = BreakerRegistry.builder().build();
        View twice = new View(false);
        AutoCloseable first = r.watch(twice);
        r.watch(twice); // the same watcher, watching a second time
        first.close();
        first.close(); // closing again must not end the second subscription
        r.breaker("a");
        assertEquals(List.of("added a"), twice.told(), "the second subscription still hears");

        List<String> heard = Collections.synchronizedList(new ArrayList<>());
        record Equal(List<String> sink) implements BreakerRegistry.Watcher {
            @Override
            public void added(CircuitBreaker breaker) {
                sink.add("added " + breaker.name());
            }

            @Override
            public void removed(CircuitBreaker breaker) {}
        }
        AutoCloseable one = r.watch(new Equal(heard)); // told of "a"
        r.watch(new Equal(heard)); // told of "a"
        one.close();
        r.breaker("b");
        assertEquals(List.of("added a", "added a", "added b"), heard, "the other, equal watcher still hears");
    }
}
