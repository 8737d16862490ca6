package dev.breaker.events;

import dev.breaker.BreakerEvent;
import dev.breaker.BreakerListener;
import dev.breaker.LateResult;
import dev.breaker.StateTransition;
import dev.breaker.TripSuppressed;
import java.util.Objects;

/**
 * Writes breaker events to JDK Flight Recorder, so that a recording shows trips and recoveries
 * beside garbage collections, thread dumps and I/O. Attach it as a listener:
 * {@code CircuitBreaker.builder("payments").listener(JfrEventRecorder.create())}.
 *
 * <table>
 * <caption>The events, all in category {@code dev.breaker}, without stack traces</caption>
 * <tr><th>JFR event</th><th>fields</th></tr>
 * <tr><td>{@code dev.breaker.StateTransition}</td><td>{@code breakerName}, {@code from}, {@code to},
 *     {@code generation}, {@code reason} (enum names as strings), {@code calls}, {@code failureRate},
 *     {@code slowCallRate} (shares in [0, 1], shown as percentages; the slow-call rate of a half-open
 *     round is {@code NaN}, shown as N/A: not measured)</td></tr>
 * <tr><td>{@code dev.breaker.LateResult}</td><td>{@code breakerName}, {@code permitGeneration},
 *     {@code currentGeneration}</td></tr>
 * <tr><td>{@code dev.breaker.TripSuppressed}</td><td>{@code breakerName}, {@code generation},
 *     {@code notClosed}, {@code limit}</td></tr>
 * </table>
 *
 * <p>The events are enabled by default, like any event without an {@code @Enabled(false)}, so a
 * recording with the JDK's {@code default} or {@code profile} settings has them; a recording made
 * in code enables them by name ({@code recording.enable("dev.breaker.StateTransition")}). The
 * event's thread is the one that delivered the breaker's event, and its time when it was delivered
 * (the breaker's own ticker may be a fake one, so its reading is not copied).
 *
 * <p>When no recording wants an event, a breaker event costs one check of
 * {@link jdk.jfr.Event#isEnabled()}: no event object is made and no field is copied. When one does,
 * {@link jdk.jfr.Event#shouldCommit()} decides, then the fields are copied and the event committed. The JFR event classes are package-private: they are not part
 * of the API, and JFR records them on the module path and on the class path alike.
 *
 * <p>Stateless and thread-safe. A {@code null} event, which a breaker never passes, is a
 * {@link NullPointerException}; an event of a kind added in a later release is ignored.
 */
public final class JfrEventRecorder implements BreakerListener {

    private static final JfrEventRecorder INSTANCE = new JfrEventRecorder();

    // Asked only isEnabled(), which reads the event type's state, never the instance's: so that no
    // event object is made while no recording wants one (the JIT of JDK 17 removes such an object,
    // that of JDK 25 does not always). Never committed.
    private static final JfrStateTransition TRANSITIONS = new JfrStateTransition();
    private static final JfrLateResult LATE_RESULTS = new JfrLateResult();
    private static final JfrTripSuppressed SUPPRESSED_TRIPS = new JfrTripSuppressed();

    private JfrEventRecorder() {}

    /**
     * The recorder. It holds no state, so every call returns the same instance.
     *
     * @return the recorder
     */
    public static JfrEventRecorder create() {
        return INSTANCE;
    }

    /**
     * Commits the JFR event that matches this breaker event, if a recording wants it.
     *
     * @param event the event
     * @throws NullPointerException when the event is null
     */
    @Override
    public void onEvent(BreakerEvent event) {
        Objects.requireNonNull(event, "event");
        if (event instanceof StateTransition t) {
            if (!TRANSITIONS.isEnabled()) {
                return;
            }
            JfrStateTransition e = new JfrStateTransition();
            if (e.shouldCommit()) {
                e.breakerName = t.breakerName();
                e.from = name(t.from());
                e.to = name(t.to());
                e.generation = t.generation();
                e.reason = name(t.reason());
                e.calls = t.calls();
                e.failureRate = t.failureRate();
                e.slowCallRate = t.slowCallRate();
                e.commit();
            }
        } else if (event instanceof LateResult l) {
            if (!LATE_RESULTS.isEnabled()) {
                return;
            }
            JfrLateResult e = new JfrLateResult();
            if (e.shouldCommit()) {
                e.breakerName = l.breakerName();
                e.permitGeneration = l.permitGeneration();
                e.currentGeneration = l.currentGeneration();
                e.commit();
            }
        } else if (event instanceof TripSuppressed s) {
            if (!SUPPRESSED_TRIPS.isEnabled()) {
                return;
            }
            JfrTripSuppressed e = new JfrTripSuppressed();
            if (e.shouldCommit()) {
                e.breakerName = s.breakerName();
                e.generation = s.generation();
                e.notClosed = s.notClosed();
                e.limit = s.limit();
                e.commit();
            }
        }
    }

    private static String name(Enum<?> value) {
        return value == null ? null : value.name();
    }

    /**
     * Names the recorder.
     *
     * @return {@code JfrEventRecorder}
     */
    @Override
    public String toString() {
        return "JfrEventRecorder";
    }
}
