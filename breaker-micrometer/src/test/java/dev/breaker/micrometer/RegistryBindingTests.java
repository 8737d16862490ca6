package dev.breaker.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breaker.BreakerRegistry;
import dev.breaker.CircuitBreaker;
import dev.breaker.CircuitBreakerConfig;
import dev.breaker.Windows;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** A registry bound to meter registries: breakers made before and after, removed and evicted. */
class RegistryBindingTests {

    private final ManualTicker ticker = new ManualTicker();
    private final MeterRegistry meters = new SimpleMeterRegistry();

    private BreakerRegistry registry() {
        return BreakerRegistry.builder()
                .defaults(CircuitBreakerConfig.builder()
                        .window(Windows.consecutiveFailures(2))
                        .build())
                .ticker(ticker)
                .build();
    }

    @Test
    void breakersMadeBeforeAndAfterBindingGetMeters() {
        BreakerRegistry registry = registry();
        registry.breaker("before");
        new BreakerMeterBinder(registry).bindTo(meters);
        Meters.assertBound(meters, "before");
        CircuitBreaker after = registry.breaker("after");
        Meters.assertBound(meters, "after");
        after.tryAcquire().onSuccess(0);
        after.tryAcquire().onFailure(0, null);
        after.tryAcquire().onFailure(0, null);
        assertEquals(1.0, Meters.calls(meters, "after", "success"));
        assertEquals(2.0, Meters.calls(meters, "after", "failure"));
        assertEquals(1.0, Meters.state(meters, "after", "open"));
        assertEquals(0.0, Meters.calls(meters, "before", "failure"), "each breaker's meters read that breaker");
        assertEquals(2 * Meters.PER_BREAKER, meters.getMeters().size());
    }

    @Test
    void aRemovedBreakersMetersAreRemovedAndANewOneOfTheNameGetsItsOwn() {
        BreakerRegistry registry = registry();
        new BreakerMeterBinder(registry).bindTo(meters);
        CircuitBreaker old = registry.breaker("payments");
        registry.breaker("orders");
        old.tryAcquire().onSuccess(0);
        assertTrue(registry.remove("payments"));
        Meters.assertUnbound(meters, "payments");
        Meters.assertBound(meters, "orders");
        old.tryAcquire().onSuccess(0); // its holder goes on using it; nothing shows

        CircuitBreaker fresh = registry.breaker("payments");
        assertNotSame(old, fresh);
        Meters.assertBound(meters, "payments");
        assertEquals(0.0, Meters.calls(meters, "payments", "success"), "the new breaker's, not the old one's");
    }

    /**
     * A meter registry whose removal listener throws: every meter of the removed breaker goes all
     * the same (none is left holding the breaker, nor read by the name's next breaker's series).
     */
    @Test
    void aRemovalListenerThatThrowsLeavesNoMeterOfTheRemovedBreaker() {
        java.util.concurrent.atomic.AtomicInteger told = new java.util.concurrent.atomic.AtomicInteger();
        meters.config().onMeterRemoved(m -> {
            told.incrementAndGet();
            throw new IllegalStateException("listener bug");
        });
        BreakerRegistry registry = registry();
        new BreakerMeterBinder(registry).bindTo(meters);
        registry.breaker("payments");
        registry.breaker("orders");
        assertTrue(registry.remove("payments")); // the registry logs the watcher's failure
        Meters.assertUnbound(meters, "payments");
        Meters.assertBound(meters, "orders");
        assertTrue(told.get() > 1, "every meter's removal was tried: " + told.get());
    }

    @Test
    void anEvictedBreakersMetersAreRemoved() {
        BreakerRegistry registry = BreakerRegistry.builder()
                .evictIdleAfter(Duration.ofMinutes(1))
                .ticker(ticker)
                .build();
        new BreakerMeterBinder(registry).bindTo(meters);
        registry.breaker("idle");
        CircuitBreaker busy = registry.breaker("busy");
        registry.evictIdle(); // the first sweep sees both
        ticker.advanceMillis(60_000);
        busy.tryAcquire().onSuccess(0);
        assertEquals(1, registry.evictIdle());
        Meters.assertUnbound(meters, "idle");
        Meters.assertBound(meters, "busy");
    }

    @Test
    void oneRegistryBoundToTwoMeterRegistriesFeedsAndCleansBoth() {
        BreakerRegistry registry = registry();
        MeterRegistry other = new SimpleMeterRegistry();
        BreakerMeterBinder binder = new BreakerMeterBinder(registry);
        binder.bindTo(meters);
        binder.bindTo(other);
        registry.breaker("payments").tryAcquire().onFailure(0, null);
        assertEquals(1.0, Meters.calls(meters, "payments", "failure"));
        assertEquals(1.0, Meters.calls(other, "payments", "failure"));
        registry.remove("payments");
        Meters.assertUnbound(meters, "payments");
        Meters.assertUnbound(other, "payments");
    }

    @Test
    void twoBindersOfOneRegistryInOneMeterRegistryCountNothingTwice() {
        BreakerRegistry registry = registry();
        new BreakerMeterBinder(registry).bindTo(meters);
        new BreakerMeterBinder(registry).bindTo(meters);
        registry.breaker("payments").tryAcquire().onSuccess(0);
        Meters.assertBound(meters, "payments");
        assertEquals(1.0, Meters.calls(meters, "payments", "success"));
        registry.remove("payments");
        Meters.assertUnbound(meters, "payments");
    }

    @Test
    void closingStopsWatchingAndRemovesTheMeters() {
        BreakerRegistry registry = registry();
        registry.breaker("a");
        BreakerMeterBinder binder = new BreakerMeterBinder(registry);
        binder.bindTo(meters);
        binder.close();
        assertEquals(List.of(), meters.getMeters());
        registry.breaker("b");
        assertEquals(List.of(), meters.getMeters(), "no longer watching");
    }

    @Test
    void aBreakerAnnouncedTwiceIsBoundOnce() {
        BreakerRegistry registry = registry();
        CircuitBreaker b = registry.breaker("payments");
        BreakerMeterBinder binder = new BreakerMeterBinder(registry);
        binder.bindTo(meters);
        Binding binding = binder.binding(meters);
        BreakerMeters first = binding.bound().get("payments");
        binding.added(b); // as the registry may, for a breaker made while the watcher was added
        assertSame(first, binding.bound().get("payments"));
        Meters.assertBound(meters, "payments");
    }

    @Test
    void anOldBreakersLateRemovalDoesNotTakeTheNewOnesMeters() {
        BreakerRegistry registry = registry();
        // told before the binder: on removal of the first "payments", makes the second at once, so
        // the binder hears of the new breaker before it hears that the old one went
        AtomicBoolean remake = new AtomicBoolean(true);
        registry.watch(new BreakerRegistry.Watcher() {
            @Override
            public void added(CircuitBreaker breaker) {}

            @Override
            public void removed(CircuitBreaker breaker) {
                if (remake.getAndSet(false)) {
                    registry.breaker(breaker.name());
                }
            }
        });
        BreakerMeterBinder binder = new BreakerMeterBinder(registry);
        binder.bindTo(meters);
        CircuitBreaker old = registry.breaker("payments");
        old.tryAcquire().onSuccess(0);
        registry.remove("payments");

        CircuitBreaker fresh = registry.find("payments").orElseThrow();
        assertNotSame(old, fresh);
        Meters.assertBound(meters, "payments");
        assertSame(fresh, binder.binding(meters).bound().get("payments").breaker);
        assertEquals(0.0, Meters.calls(meters, "payments", "success"), "the new breaker's meters, not the old one's");
        fresh.tryAcquire().onSuccess(0);
        fresh.tryAcquire().onSuccess(0);
        assertEquals(2.0, Meters.calls(meters, "payments", "success"));
    }

    @Test
    void aLateAnnouncementOfAnOldBreakerLeavesTheNamesNewOneBound() {
        BreakerRegistry registry = registry();
        CircuitBreaker old = registry.breaker("payments");
        BreakerMeterBinder binder = new BreakerMeterBinder(registry);
        binder.bindTo(meters);
        registry.remove("payments");
        CircuitBreaker fresh = registry.breaker("payments");
        fresh.tryAcquire().onSuccess(0);
        Binding binding = binder.binding(meters);
        // as when bindTo read the old breaker from the registry, then its removal and the new
        // breaker's announcement overtook the binding thread
        binding.added(old);
        assertSame(fresh, binding.bound().get("payments").breaker);
        Meters.assertBound(meters, "payments");
        assertEquals(1.0, Meters.calls(meters, "payments", "success"));
    }

    @Test
    void aBreakerRemovedBeforeItsAnnouncementIsNotBound() {
        BreakerRegistry registry = registry();
        CircuitBreaker gone = registry.breaker("payments");
        registry.remove("payments");
        BreakerMeterBinder binder = new BreakerMeterBinder(registry);
        binder.bindTo(meters);
        binder.binding(meters).added(gone);
        assertEquals(List.of(), meters.getMeters());
        assertEquals(Map.of(), binder.binding(meters).bound());
    }

    @Test
    void aBreakerRemovedWhileItIsBeingBoundLeavesNoMeters() {
        BreakerRegistry registry = registry();
        registry.breaker("payments");
        registry.breaker("orders");
        // the meter registry removes the breaker from the registry while its meters are registered
        AtomicBoolean once = new AtomicBoolean(true);
        meters.config().meterFilter(new MeterFilter() {
            @Override
            public Meter.Id map(Meter.Id id) {
                if ("payments".equals(id.getTag("name")) && once.getAndSet(false)) {
                    registry.remove("payments");
                }
                return id;
            }
        });
        BreakerMeterBinder binder = new BreakerMeterBinder(registry);
        binder.bindTo(meters);
        Meters.assertUnbound(meters, "payments");
        Meters.assertBound(meters, "orders");
        assertEquals(Set.of("orders"), binder.binding(meters).bound().keySet());
        assertTrue(registry.find("payments").isEmpty());
    }

    @Test
    void aBindingChecksAgainItselfWhenTheRemovalsNoticeCameFirst() {
        // The registry tells a removal again when it happened during an announcement, which hides
        // the binding's own second look. Here the binding is told once, by hand: the removal's
        // notice arrives while the meters are being registered and finds nothing to unbind.
        BreakerRegistry registry = registry();
        CircuitBreaker payments = registry.breaker("payments");
        Binding binding = new Binding(meters, io.micrometer.core.instrument.Tags.empty(), registry);
        AtomicBoolean once = new AtomicBoolean(true);
        meters.config().meterFilter(new MeterFilter() {
            @Override
            public Meter.Id map(Meter.Id id) {
                if (once.getAndSet(false)) {
                    registry.remove("payments"); // no watcher: nobody else will unbind it
                    binding.removed(payments); // its notice, before the breaker is bound
                }
                return id;
            }
        });
        binding.added(payments);
        assertEquals(List.of(), meters.getMeters());
        assertEquals(Map.of(), binding.bound());
    }

    @Test
    void aRemovalOfABreakerNeverBoundChangesNothing() {
        BreakerRegistry registry = registry();
        BreakerMeterBinder binder = new BreakerMeterBinder(registry);
        binder.bindTo(meters);
        registry.breaker("payments");
        Binding binding = binder.binding(meters);
        binding.removed(CircuitBreaker.builder("payments").build()); // same name, another breaker
        binding.removed(CircuitBreaker.builder("other").build());
        Meters.assertBound(meters, "payments");
        assertEquals(Map.of("payments", binding.bound().get("payments")), binding.bound());
    }

    @Test
    void anAnnouncementAfterCloseBindsNothing() {
        BreakerRegistry registry = registry();
        registry.breaker("bound");
        BreakerMeterBinder binder = new BreakerMeterBinder(registry);
        binder.bindTo(meters);
        Binding binding = binder.binding(meters);
        assertEquals(Set.of("bound"), binding.bound().keySet());
        binder.close();
        assertEquals(Map.of(), binding.bound(), "holds no breaker once closed");
        binding.added(registry.breaker("late")); // one the registry was telling as the binder closed
        assertEquals(List.of(), meters.getMeters());
        assertEquals(Map.of(), binding.bound());
    }

    @Test
    void closingLetsTheRegistryForgetTheMeterRegistry() throws InterruptedException {
        BreakerRegistry registry = registry();
        registry.breaker("a");
        MeterRegistry shortLived = new SimpleMeterRegistry();
        BreakerMeterBinder binder = new BreakerMeterBinder(registry);
        binder.bindTo(shortLived);
        binder.close();
        java.lang.ref.WeakReference<MeterRegistry> ref = new java.lang.ref.WeakReference<>(shortLived);
        shortLived = null;
        for (int i = 0; i < 100 && ref.get() != null; i++) {
            System.gc();
            Thread.sleep(10);
        }
        assertEquals(null, ref.get(), "the registry still watches for the closed binder");
        registry.breaker("b"); // and making a breaker still works
        assertEquals(2, registry.breakers().size());
    }
}
