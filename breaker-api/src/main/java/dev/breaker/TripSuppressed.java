package dev.breaker;

/**
 * A breaker's window tripped, but the registry's open-share cap (SPEC rule 18) was full: the
 * breaker stayed CLOSED and its window goes on recording; the next outcome that trips asks the cap
 * again. Published once per CLOSED era, not once per failing call.
 *
 * @param breakerName the breaker's name
 * @param generation  the CLOSED era's generation
 * @param notClosed   the registry's breakers not CLOSED because of trips (or isolated) when it was refused
 * @param limit       how many may be, {@code max(1, floor(maxOpenShare * breakers))}
 */
public record TripSuppressed(String breakerName, long generation, int notClosed, int limit) implements BreakerEvent {

    /**
     * Checks the name every listener relies on.
     *
     * @param breakerName see the record
     * @param generation see the record
     * @param notClosed see the record
     * @param limit see the record
     * @throws NullPointerException when the name is null
     */
    public TripSuppressed {
        java.util.Objects.requireNonNull(breakerName, "breakerName");
    }
}
