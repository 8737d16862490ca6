package dev.breaker;

/**
 * Something that happened to a breaker. A sealed family of records, so a {@code switch} over
 * events is exhaustive.
 */
public sealed interface BreakerEvent permits StateTransition, LateResult {

    /**
     * The breaker this event is about.
     *
     * @return the breaker's name
     */
    String breakerName();
}
