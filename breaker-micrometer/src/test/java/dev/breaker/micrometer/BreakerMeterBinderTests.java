package dev.breaker.micrometer;

import static dev.breaker.micrometer.ManualTicker.MILLI;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breaker.BreakerMetrics;
import dev.breaker.CircuitBreaker;
import dev.breaker.Permit;
import dev.breaker.State;
import dev.breaker.Windows;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** One breaker bound to a SimpleMeterRegistry: what every meter reads. */
class BreakerMeterBinderTests {

    private static final String[] STATES = {"closed", "open", "half_open", "isolated"};
    private static final String[] OUTCOMES = {"success", "failure", "ignored", "rejected", "late"};

    private final ManualTicker ticker = new ManualTicker();
    private final MeterRegistry meters = new SimpleMeterRegistry();

    private CircuitBreaker payments() {
        return CircuitBreaker.builder("payments")
                .window(Windows.consecutiveFailures(3))
                .cooldown(Duration.ofMillis(60))
                .probes(1)
                .slowCallThreshold(Duration.ofMillis(100))
                .ticker(ticker)
                .build();
    }

    private void assertStates(String current) {
        for (String s : STATES) {
            assertEquals(s.equals(current) ? 1.0 : 0.0, Meters.state(meters, "payments", s), s);
        }
    }

    @Test
    void aTripAndARecoveryReadExactlyAsTheBreakerCountedThem() {
        CircuitBreaker b = payments();
        new BreakerMeterBinder(b).bindTo(meters);
        assertStates("closed");

        b.tryAcquire().onSuccess(10 * MILLI);
        b.tryAcquire().onSuccess(200 * MILLI); // slow
        b.tryAcquire().release(); // ignored
        Permit straggler = b.tryAcquire(); // reported after the trip: late
        b.tryAcquire().onFailure(10 * MILLI, new RuntimeException());
        b.tryAcquire().onFailure(150 * MILLI, new RuntimeException()); // slow
        b.tryAcquire().onFailure(10 * MILLI, new RuntimeException()); // the third in a row trips it
        straggler.onSuccess(10 * MILLI);

        assertStates("open");
        assertEquals(1.0, Meters.gauge(meters, "breaker.failure.rate", "payments"), "the run that tripped");
        assertEquals(0.0, Meters.gauge(meters, "breaker.slow.call.rate", "payments"));

        ticker.atMillis(30);
        assertFalse(b.tryAcquire().granted());
        assertFalse(b.tryAcquire().granted());
        ticker.atMillis(60);
        Permit probe = b.tryAcquire();
        assertTrue(probe.isProbe());
        assertStates("half_open");
        probe.onSuccess(10 * MILLI);

        assertStates("closed");
        assertEquals(3.0, Meters.calls(meters, "payments", "success"));
        assertEquals(3.0, Meters.calls(meters, "payments", "failure"));
        assertEquals(1.0, Meters.calls(meters, "payments", "ignored"));
        assertEquals(2.0, Meters.calls(meters, "payments", "rejected"));
        assertEquals(1.0, Meters.calls(meters, "payments", "late"));
        assertEquals(1.0, Meters.slowCalls(meters, "payments", "success"));
        assertEquals(1.0, Meters.slowCalls(meters, "payments", "failure"));
        assertEquals(0.0, Meters.gauge(meters, "breaker.failure.rate", "payments"), "a fresh window");
        assertEquals(0.0, Meters.gauge(meters, "breaker.slow.call.rate", "payments"));
        for (State[] pair : BreakerMeters.PAIRS) {
            String from = BreakerMeters.tagValue(pair[0]);
            String to = BreakerMeters.tagValue(pair[1]);
            double expected = Set.of("closed->open", "open->half_open", "half_open->closed")
                            .contains(from + "->" + to)
                    ? 1.0
                    : 0.0;
            assertEquals(expected, Meters.transitions(meters, "payments", from, to), from + " -> " + to);
        }
        assertEquals(Meters.PER_BREAKER, meters.getMeters().size());
    }

    @Test
    void theOutcomeCountersAddUpToEveryCallMade() {
        CircuitBreaker b = payments();
        new BreakerMeterBinder(b).bindTo(meters);
        int calls = 0;
        Permit held = null;
        for (int round = 0; round < 5; round++) {
            for (int i = 0; i < 4; i++, calls++) {
                b.tryAcquire().onSuccess(i * 50 * MILLI);
            }
            b.tryAcquire().release();
            calls++;
            held = b.tryAcquire();
            calls++;
            for (int i = 0; i < 3; i++, calls++) {
                b.tryAcquire().onFailure(i * 60 * MILLI, null);
            }
            held.onFailure(0, null); // late: the breaker opened since
            for (int i = 0; i < 7; i++, calls++) {
                assertFalse(b.tryAcquire().granted());
            }
            ticker.advanceMillis(60);
            Permit probe = b.tryAcquire();
            calls++;
            if (round % 2 == 0) {
                probe.onSuccess(0);
            } else {
                probe.release(); // frees the slot; the next request probes again
                b.tryAcquire().onSuccess(0);
                calls++;
            }
            b.run(() -> {});
            calls++;
            assertThrows(
                    IllegalStateException.class,
                    () -> b.run(() -> {
                        throw new IllegalStateException();
                    }));
            calls++;
        }
        b.isolate();
        for (int i = 0; i < 3; i++, calls++) {
            assertFalse(b.tryAcquire().granted());
        }
        double sum = 0;
        for (String outcome : OUTCOMES) {
            sum += Meters.calls(meters, "payments", outcome);
        }
        assertEquals(calls, sum);
        BreakerMetrics m = b.metrics();
        assertEquals(
                calls, m.totalSuccesses() + m.totalFailures() + m.totalIgnored() + m.rejectedCalls() + m.lateResults());
        assertEquals(5.0, Meters.calls(meters, "payments", "late"));
        assertEquals(1.0, Meters.transitions(meters, "payments", "closed", "isolated"));
    }

    @Test
    void eachMeterReadsItsOwnFigure() {
        StubBreaker b = new StubBreaker("stub");
        b.metrics = StubBreaker.metrics(State.HALF_OPEN, 100);
        b.state = State.HALF_OPEN;
        long n = 1;
        for (State[] pair : BreakerMeters.PAIRS) {
            b.transitions(pair[0], pair[1], n++);
        }
        new BreakerMeterBinder(b).bindTo(meters);

        assertEquals(1.0, Meters.state(meters, "stub", "half_open"));
        assertEquals(0.0, Meters.state(meters, "stub", "closed"));
        assertEquals(0.0, Meters.state(meters, "stub", "open"));
        assertEquals(0.0, Meters.state(meters, "stub", "isolated"));
        assertEquals(111.0, Meters.calls(meters, "stub", "success"), "totalSuccesses");
        assertEquals(112.0, Meters.calls(meters, "stub", "failure"), "totalFailures");
        assertEquals(115.0, Meters.calls(meters, "stub", "ignored"), "totalIgnored");
        assertEquals(105.0, Meters.calls(meters, "stub", "rejected"), "rejectedCalls");
        assertEquals(106.0, Meters.calls(meters, "stub", "late"), "lateResults");
        assertEquals(113.0, Meters.slowCalls(meters, "stub", "success"), "totalSlowSuccesses");
        assertEquals(114.0, Meters.slowCalls(meters, "stub", "failure"), "totalSlowFailures");
        assertEquals(0.25, Meters.gauge(meters, "breaker.failure.rate", "stub"));
        assertEquals(0.125, Meters.gauge(meters, "breaker.slow.call.rate", "stub"));
        n = 1;
        for (State[] pair : BreakerMeters.PAIRS) {
            assertEquals(
                    n++,
                    Meters.transitions(
                            meters, "stub", BreakerMeters.tagValue(pair[0]), BreakerMeters.tagValue(pair[1])));
        }

        b.state = State.ISOLATED;
        b.metrics = StubBreaker.metrics(State.ISOLATED, 200);
        assertEquals(1.0, Meters.state(meters, "stub", "isolated"), "read at scrape time, not at binding");
        assertEquals(0.0, Meters.state(meters, "stub", "half_open"));
        assertEquals(211.0, Meters.calls(meters, "stub", "success"));
    }

    @Test
    void theMetersHaveTheirNamesTagsUnitsAndDescriptions() {
        new BreakerMeterBinder(payments()).bindTo(meters);
        Set<String> ids = new TreeSet<>();
        for (Meter m : meters.getMeters()) {
            Meter.Id id = m.getId();
            List<String> keys = id.getTags().stream().map(Tag::getKey).sorted().toList();
            ids.add(id.getName() + " " + id.getType() + " " + id.getBaseUnit() + " " + keys);
            assertTrue(id.getDescription() != null && !id.getDescription().isBlank(), id.toString());
        }
        assertEquals(
                Set.of(
                        "breaker.state GAUGE null [name, state]",
                        "breaker.calls COUNTER calls [name, outcome]",
                        "breaker.slow.calls COUNTER calls [name, outcome]",
                        "breaker.failure.rate GAUGE null [name]",
                        "breaker.slow.call.rate GAUGE null [name]",
                        "breaker.transitions COUNTER transitions [from, name, to]"),
                ids);
        Set<String> outcomes = new TreeSet<>();
        meters.find("breaker.calls")
                .functionCounters()
                .forEach(c -> outcomes.add(c.getId().getTag("outcome")));
        assertEquals(new TreeSet<>(List.of(OUTCOMES)), outcomes);
        Set<String> slow = new TreeSet<>();
        meters.find("breaker.slow.calls")
                .functionCounters()
                .forEach(c -> slow.add(c.getId().getTag("outcome")));
        assertEquals(Set.of("success", "failure"), slow);
        Set<String> states = new TreeSet<>();
        meters.find("breaker.state").gauges().forEach(g -> states.add(g.getId().getTag("state")));
        assertEquals(new TreeSet<>(List.of(STATES)), states);
        assertEquals(
                MeterNames.STATE_DESCRIPTION,
                meters.find("breaker.state").gauge().getId().getDescription());
        assertEquals(
                MeterNames.TRANSITIONS_DESCRIPTION,
                meters.find("breaker.transitions").functionCounter().getId().getDescription());
    }

    @Test
    void theTransitionCountersAreTheTenPairsABreakerCanMake() {
        new BreakerMeterBinder(payments()).bindTo(meters);
        Set<String> pairs = new TreeSet<>();
        for (FunctionCounter c : meters.find("breaker.transitions").functionCounters()) {
            pairs.add(c.getId().getTag("from") + "->" + c.getId().getTag("to"));
        }
        assertEquals(
                new TreeSet<>(List.of(
                        "closed->open",
                        "closed->isolated",
                        "closed->closed",
                        "open->half_open",
                        "open->closed",
                        "open->isolated",
                        "half_open->closed",
                        "half_open->open",
                        "half_open->isolated",
                        "isolated->closed")),
                pairs);
    }

    @Test
    void commonTagsGoOnEveryMeter() {
        new BreakerMeterBinder(payments(), Tags.of("app", "shop", "region", "eu")).bindTo(meters);
        assertEquals(Meters.PER_BREAKER, meters.getMeters().size());
        for (Meter m : meters.getMeters()) {
            assertEquals("shop", m.getId().getTag("app"), m.getId().toString());
            assertEquals("eu", m.getId().getTag("region"), m.getId().toString());
            assertEquals("payments", m.getId().getTag("name"), m.getId().toString());
        }
    }

    @Test
    void commonTagsMayNotUseTheBindersOwnKeys() {
        for (String key : List.of("name", "state", "outcome", "from", "to")) {
            IllegalArgumentException e = assertThrows(
                    IllegalArgumentException.class, () -> new BreakerMeterBinder(payments(), Tags.of(key, "x")));
            assertEquals(
                    "tags: the key '" + key
                            + "' is set by the binder itself; common tags may not use name, state, outcome, from or to",
                    e.getMessage());
        }
        assertThrows(
                IllegalArgumentException.class,
                () -> new BreakerMeterBinder(
                        dev.breaker.BreakerRegistry.builder().build(), Tags.of("app", "a", "outcome", "x")));
    }

    @Test
    void nullsAreRefusedByName() {
        assertEquals(
                "breaker",
                assertThrows(NullPointerException.class, () -> new BreakerMeterBinder((CircuitBreaker) null))
                        .getMessage());
        assertEquals(
                "registry",
                assertThrows(
                                NullPointerException.class,
                                () -> new BreakerMeterBinder((dev.breaker.BreakerRegistry) null))
                        .getMessage());
        assertEquals(
                "tags",
                assertThrows(NullPointerException.class, () -> new BreakerMeterBinder(payments(), null))
                        .getMessage());
        BreakerMeterBinder binder = new BreakerMeterBinder(payments());
        assertEquals(
                "meterRegistry",
                assertThrows(NullPointerException.class, () -> binder.bindTo(null))
                        .getMessage());
    }

    @Test
    void aReadThatThrowsIsNaNNeverAnException() {
        StubBreaker b = new StubBreaker("stub");
        new BreakerMeterBinder(b).bindTo(meters);
        b.failure = new IllegalStateException("broken");
        for (Meter m : meters.getMeters()) {
            for (Measurement value : values(m)) {
                assertTrue(Double.isNaN(value.value), m.getId() + " read " + value.value);
            }
        }
        b.failure = null;
        assertEquals(1.0, Meters.state(meters, "stub", "closed"), "back once the breaker reads again");
        assertEquals(11.0, Meters.calls(meters, "stub", "success"));
    }

    private record Measurement(double value) {}

    private static List<Measurement> values(Meter m) {
        if (m instanceof Gauge g) {
            return List.of(new Measurement(g.value()));
        }
        return List.of(new Measurement(((FunctionCounter) m).count()));
    }

    /** Binds a breaker that only the meters will hold, and returns a weak reference to it. */
    private java.lang.ref.WeakReference<CircuitBreaker> bindAndForget() {
        CircuitBreaker b = CircuitBreaker.builder("forgotten").build();
        b.tryAcquire().onSuccess(0);
        new BreakerMeterBinder(b).bindTo(meters);
        return new java.lang.ref.WeakReference<>(b);
    }

    @Test
    void theMetersHoldTheirBreakerStrongly() throws InterruptedException {
        java.lang.ref.WeakReference<CircuitBreaker> ref = bindAndForget();
        for (int i = 0; i < 5; i++) {
            System.gc();
            Thread.sleep(10);
        }
        assertTrue(ref.get() != null, "collected while its meters were registered");
        assertEquals(1.0, Meters.calls(meters, "forgotten", "success"));
        assertEquals(1.0, Meters.state(meters, "forgotten", "closed"));
        assertEquals(0.0, Meters.transitions(meters, "forgotten", "closed", "open"));
    }

    @Test
    void bindingTwiceToOneMeterRegistryDoesNothingTheSecondTime() {
        CircuitBreaker b = payments();
        BreakerMeterBinder binder = new BreakerMeterBinder(b);
        binder.bindTo(meters);
        Binding first = binder.binding(meters);
        binder.bindTo(meters);
        assertSame(first, binder.binding(meters));
        assertEquals(Meters.PER_BREAKER, meters.getMeters().size());
    }

    @Test
    void twoBindersOfOneBreakerShareItsMetersAndCountNothingTwice() {
        CircuitBreaker b = payments();
        new BreakerMeterBinder(b).bindTo(meters);
        new BreakerMeterBinder(b).bindTo(meters);
        b.tryAcquire().onSuccess(0);
        assertEquals(Meters.PER_BREAKER, meters.getMeters().size());
        assertEquals(1.0, Meters.calls(meters, "payments", "success"));
    }

    @Test
    void oneBinderInTwoMeterRegistriesFeedsBoth() {
        CircuitBreaker b = payments();
        MeterRegistry other = new SimpleMeterRegistry();
        BreakerMeterBinder binder = new BreakerMeterBinder(b);
        binder.bindTo(meters);
        binder.bindTo(other);
        b.tryAcquire().onFailure(0, null);
        assertEquals(1.0, Meters.calls(meters, "payments", "failure"));
        assertEquals(1.0, Meters.calls(other, "payments", "failure"));
        binder.close();
        Meters.assertUnbound(meters, "payments");
        Meters.assertUnbound(other, "payments");
    }

    @Test
    void closingRemovesTheMetersAndTheBinderMayBindAgain() {
        CircuitBreaker b = payments();
        BreakerMeterBinder binder = new BreakerMeterBinder(b);
        binder.bindTo(meters);
        binder.close();
        assertEquals(List.of(), meters.getMeters());
        assertNull(binder.binding(meters));
        binder.bindTo(meters);
        Meters.assertBound(meters, "payments");
    }

    @Test
    void aMeterRegistryThatRefusesAMeterKeepsNoneOfTheBreakers() {
        MeterRegistry refusing = new SimpleMeterRegistry();
        refusing.config().onMeterAdded(m -> {
            if (m.getId().getName().equals("breaker.failure.rate")) {
                throw new IllegalStateException("refused");
            }
        });
        BreakerMeterBinder binder = new BreakerMeterBinder(payments());
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> binder.bindTo(refusing));
        assertEquals("refused", e.getMessage());
        assertEquals(List.of(), refusing.getMeters());
        assertNull(binder.binding(refusing));
    }

    @Test
    void describesWhatItBinds() {
        assertEquals("BreakerMeterBinder[breaker 'payments']", new BreakerMeterBinder(payments()).toString());
        assertTrue(new BreakerMeterBinder(dev.breaker.BreakerRegistry.builder().build())
                .toString()
                .startsWith("BreakerMeterBinder[BreakerRegistry["));
    }
}
