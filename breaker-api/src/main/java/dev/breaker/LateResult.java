package dev.breaker;

/**
 * An outcome was reported on a permit granted in an earlier generation. It was counted in
 * {@link BreakerMetrics#lateResults()} and decided nothing.
 *
 * @param breakerName       the breaker's name
 * @param permitGeneration  the generation the permit was granted in
 * @param currentGeneration the breaker's generation when the outcome arrived
 */
public record LateResult(String breakerName, long permitGeneration, long currentGeneration) implements BreakerEvent {

    /**
     * Checks the name every listener relies on.
     *
     * @param breakerName see the record
     * @param permitGeneration see the record
     * @param currentGeneration see the record
     * @throws NullPointerException when the name is null
     */
    public LateResult {
        java.util.Objects.requireNonNull(breakerName, "breakerName");
    }
}
