package dev.breaker.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Percentage;
import jdk.jfr.StackTrace;

/** The JFR event of a {@link dev.breaker.StateTransition}; written by {@link JfrEventRecorder}. */
@Name("dev.breaker.StateTransition")
@Label("Breaker State Transition")
@Description("A circuit breaker moved from one state to another")
@Category({"dev.breaker"})
@StackTrace(false)
final class JfrStateTransition extends jdk.jfr.Event {

    @Label("Breaker")
    @Description("The breaker's name")
    String breakerName;

    @Label("From")
    @Description("The state left: CLOSED, OPEN, HALF_OPEN or ISOLATED")
    String from;

    @Label("To")
    @Description("The state entered: CLOSED, OPEN, HALF_OPEN or ISOLATED")
    String to;

    @Label("Generation")
    @Description("The generation the transition started; every transition starts a new one")
    long generation;

    @Label("Reason")
    @Description("Why the transition happened, a dev.breaker.TransitionReason")
    String reason;

    @Label("Calls")
    @Description("The outcomes the decision was made on")
    long calls;

    @Label("Failure Rate")
    @Description("Of those calls, the share that failed")
    @Percentage
    double failureRate;

    @Label("Slow-Call Rate")
    @Description("Of those calls, the share that were slow; not measured (NaN, shown as N/A) after a half-open round")
    @Percentage
    double slowCallRate;
}
