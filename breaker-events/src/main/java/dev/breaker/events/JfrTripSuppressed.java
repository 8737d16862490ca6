package dev.breaker.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** The JFR event of a {@link dev.breaker.TripSuppressed}; written by {@link JfrEventRecorder}. */
@Name("dev.breaker.TripSuppressed")
@Label("Breaker Trip Suppressed")
@Description("A breaker's window tripped but the registry's open-share cap was full; the breaker stayed CLOSED")
@Category({"dev.breaker"})
@StackTrace(false)
final class JfrTripSuppressed extends jdk.jfr.Event {

    @Label("Breaker")
    @Description("The breaker's name")
    String breakerName;

    @Label("Generation")
    @Description("The CLOSED era's generation")
    long generation;

    @Label("Not Closed")
    @Description("The registry's breakers not CLOSED because of trips, or isolated, when the trip was refused")
    int notClosed;

    @Label("Limit")
    @Description("How many may be: max(1, floor(maxOpenShare * breakers))")
    int limit;
}
