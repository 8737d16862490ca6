package dev.breaker.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** The JFR event of a {@link dev.breaker.LateResult}; written by {@link JfrEventRecorder}. */
@Name("dev.breaker.LateResult")
@Label("Breaker Late Result")
@Description("An outcome was reported on a permit of an earlier generation; it was counted and decided nothing")
@Category({"dev.breaker"})
@StackTrace(false)
final class JfrLateResult extends jdk.jfr.Event {

    @Label("Breaker")
    @Description("The breaker's name")
    String breakerName;

    @Label("Permit Generation")
    @Description("The generation the permit was granted in")
    long permitGeneration;

    @Label("Current Generation")
    @Description("The breaker's generation when the outcome arrived")
    long currentGeneration;
}
