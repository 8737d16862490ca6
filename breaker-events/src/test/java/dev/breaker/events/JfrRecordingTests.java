package dev.breaker.events;

import static dev.breaker.events.JfrCapture.LATE;
import static dev.breaker.events.JfrCapture.SUPPRESSED;
import static dev.breaker.events.JfrCapture.TRANSITION;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.breaker.BreakerRegistry;
import dev.breaker.CircuitBreaker;
import dev.breaker.CircuitBreakerConfig;
import dev.breaker.Permit;
import dev.breaker.State;
import dev.breaker.StateTransition;
import dev.breaker.TransitionReason;
import dev.breaker.Windows;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import jdk.jfr.EventType;
import jdk.jfr.ValueDescriptor;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.api.Test;

/** {@link JfrEventRecorder}: a real breaker's events, recorded, dumped and read back field by field. */
class JfrRecordingTests {

    private final ManualTicker ticker = new ManualTicker(0);
    private final JfrEventRecorder recorder = JfrEventRecorder.create();

    private static void assertTransition(
            RecordedEvent e,
            String name,
            State from,
            State to,
            long generation,
            TransitionReason reason,
            long calls,
            double failureRate,
            double slowCallRate) {
        assertEquals(TRANSITION, e.getEventType().getName());
        assertEquals(name, e.getString("breakerName"));
        assertEquals(from.name(), e.getString("from"));
        assertEquals(to.name(), e.getString("to"));
        assertEquals(generation, e.getLong("generation"));
        assertEquals(reason.name(), e.getString("reason"));
        assertEquals(calls, e.getLong("calls"), "calls");
        assertEquals(failureRate, e.getDouble("failureRate"), "failureRate");
        assertEquals(slowCallRate, e.getDouble("slowCallRate"), "slowCallRate"); // NaN equals NaN here
    }

    /** Records one hand-made transition and reads it back: the layout tests run this in both layouts. */
    static void recordsATransition() throws Exception {
        List<RecordedEvent> events;
        try (JfrCapture jfr = new JfrCapture()) {
            JfrEventRecorder.create()
                    .onEvent(new StateTransition(
                            "layout",
                            State.HALF_OPEN,
                            State.OPEN,
                            9,
                            TransitionReason.PROBE_FAILED,
                            0,
                            2,
                            0.5,
                            Double.NaN));
            events = jfr.stop("layout");
        }
        assertEquals(1, events.size(), events.toString());
        assertTransition(
                events.get(0),
                "layout",
                State.HALF_OPEN,
                State.OPEN,
                9,
                TransitionReason.PROBE_FAILED,
                2,
                0.5,
                Double.NaN);
    }

    @Test
    void aTripAndARecoveryAreRecordedWithTheirFigures() throws Exception {
        CircuitBreaker b = CircuitBreaker.builder("jfr-payments")
                .window(Windows.consecutiveFailures(2))
                .cooldown(Duration.ofSeconds(10))
                .probes(1)
                .ticker(ticker)
                .listener(recorder)
                .eventExecutor(Runnable::run)
                .build();
        List<RecordedEvent> events;
        try (JfrCapture jfr = new JfrCapture()) {
            Permit early = b.tryAcquire();
            b.tryAcquire().onFailure(0, null);
            b.tryAcquire().onFailure(0, null); // CLOSED -> OPEN
            early.onSuccess(0); // late: granted in generation 0
            ticker.advance(Duration.ofSeconds(10).toNanos());
            b.tryAcquire().onFailure(0, null); // OPEN -> HALF_OPEN, then the probe fails: OPEN
            ticker.advance(Duration.ofSeconds(10).toNanos());
            b.tryAcquire().onSuccess(0); // OPEN -> HALF_OPEN, then the probe closes it
            assertEquals(State.CLOSED, b.state());
            events = jfr.stop("jfr-payments");
        }
        List<RecordedEvent> transitions = JfrCapture.ofType(events, TRANSITION);
        assertEquals(5, transitions.size(), transitions.toString());
        String n = "jfr-payments";
        assertTransition(transitions.get(0), n, State.CLOSED, State.OPEN, 1, TransitionReason.WINDOW_TRIPPED, 2, 1, 0);
        assertTransition(
                transitions.get(1), n, State.OPEN, State.HALF_OPEN, 2, TransitionReason.COOLDOWN_ELAPSED, 2, 1, 0);
        assertTransition(
                transitions.get(2), n, State.HALF_OPEN, State.OPEN, 3, TransitionReason.PROBE_FAILED, 1, 1, Double.NaN);
        // the second round's figures repeat those of the trip, as the breaker froze them when it left CLOSED
        assertTransition(
                transitions.get(3), n, State.OPEN, State.HALF_OPEN, 4, TransitionReason.COOLDOWN_ELAPSED, 2, 1, 0);
        assertTransition(
                transitions.get(4),
                n,
                State.HALF_OPEN,
                State.CLOSED,
                5,
                TransitionReason.PROBES_SUCCEEDED,
                1,
                0,
                Double.NaN);

        List<RecordedEvent> late = JfrCapture.ofType(events, LATE);
        assertEquals(1, late.size(), late.toString());
        assertEquals(n, late.get(0).getString("breakerName"));
        assertEquals(0, late.get(0).getLong("permitGeneration"));
        assertEquals(1, late.get(0).getLong("currentGeneration"));
    }

    @Test
    void aSuppressedTripIsRecorded() throws Exception {
        BreakerRegistry registry = BreakerRegistry.builder()
                .defaults(CircuitBreakerConfig.builder()
                        .window(Windows.consecutiveFailures(1))
                        .cooldown(Duration.ofDays(1))
                        .build())
                .maxOpenShare(0.5)
                .listener(recorder)
                .ticker(ticker)
                .build();
        CircuitBreaker a = registry.breaker("jfr-cap-a");
        CircuitBreaker b = registry.breaker("jfr-cap-b");
        List<RecordedEvent> events;
        try (JfrCapture jfr = new JfrCapture()) {
            a.tryAcquire().onFailure(0, null); // the one place of two breakers at 50%
            b.tryAcquire().onFailure(0, null); // refused: b stays CLOSED
            assertEquals(State.CLOSED, b.state());
            events = jfr.stop("jfr-cap"); // delivered by the calling thread, which has few to deliver
        }
        List<RecordedEvent> suppressed = JfrCapture.ofType(events, SUPPRESSED);
        assertEquals(1, suppressed.size(), events.toString());
        RecordedEvent e = suppressed.get(0);
        assertEquals("jfr-cap-b", e.getString("breakerName"));
        assertEquals(0, e.getLong("generation"));
        assertEquals(1, e.getInt("notClosed"));
        assertEquals(1, e.getInt("limit"));
        assertEquals(1, JfrCapture.ofType(events, TRANSITION).size());
    }

    @Test
    void theEventsAreDescribedAndFiledUnderDevBreaker() throws Exception {
        List<RecordedEvent> events;
        try (JfrCapture jfr = new JfrCapture()) {
            recorder.onEvent(
                    new StateTransition("jfr-meta", State.CLOSED, State.OPEN, 1, TransitionReason.WINDOW_TRIPPED, 0));
            recorder.onEvent(new dev.breaker.LateResult("jfr-meta", 0, 1));
            recorder.onEvent(new dev.breaker.TripSuppressed("jfr-meta", 0, 1, 1));
            events = jfr.stop("jfr-meta");
        }
        assertEquals(3, events.size(), events.toString());
        for (RecordedEvent e : events) {
            EventType type = e.getEventType();
            assertEquals(List.of("dev.breaker"), type.getCategoryNames(), type.getName());
            assertNotNull(type.getLabel(), type.getName());
            assertNotNull(type.getDescription(), type.getName());
            assertFalse(e.hasField("stackTrace") && e.getStackTrace() != null, "no stack trace: " + type.getName());
            for (ValueDescriptor field : type.getFields()) {
                assertNotNull(field.getLabel(), type.getName() + "." + field.getName());
            }
        }
        assertEquals(
                List.of("breakerName", "from", "to", "generation", "reason", "calls", "failureRate", "slowCallRate"),
                ownFields(JfrCapture.ofType(events, TRANSITION).get(0).getEventType()));
        assertEquals(
                List.of("breakerName", "permitGeneration", "currentGeneration"),
                ownFields(JfrCapture.ofType(events, LATE).get(0).getEventType()));
        assertEquals(
                List.of("breakerName", "generation", "notClosed", "limit"),
                ownFields(JfrCapture.ofType(events, SUPPRESSED).get(0).getEventType()));
        EventType transition = JfrCapture.ofType(events, TRANSITION).get(0).getEventType();
        assertEquals("jdk.jfr.Percentage", transition.getField("failureRate").getContentType());
        assertEquals("jdk.jfr.Percentage", transition.getField("slowCallRate").getContentType());
    }

    private static List<String> ownFields(EventType type) {
        return type.getFields().stream()
                .map(ValueDescriptor::getName)
                .filter(f -> !List.of("startTime", "duration", "eventThread", "stackTrace")
                        .contains(f))
                .collect(Collectors.toList());
    }

    @Test
    void withoutARecordingNothingIsCommitted() throws Exception {
        assertFalse(new JfrStateTransition().isEnabled(), "no recording runs in this test JVM now");
        recorder.onEvent(
                new StateTransition("jfr-off", State.CLOSED, State.OPEN, 1, TransitionReason.WINDOW_TRIPPED, 0));
        try (JfrCapture jfr = new JfrCapture()) {
            assertEquals(List.of(), jfr.stop("jfr-off"));
        }
    }

    @Test
    void oneStatelessInstanceThatRefusesNull() {
        assertSame(recorder, JfrEventRecorder.create());
        assertEquals("JfrEventRecorder", recorder.toString());
        assertEquals(
                "event",
                assertThrows(NullPointerException.class, () -> recorder.onEvent(null))
                        .getMessage());
    }
}
