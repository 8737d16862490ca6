package dev.breaker;

/**
 * Something that happened to a breaker. A sealed family of records in this package.
 *
 * <p>On Java 21 or later a pattern {@code switch} over events is checked for exhaustiveness:
 *
 * <pre>{@code
 * switch (event) {                                   // Java 21+
 *     case StateTransition t -> log.info("{} -> {}", t.from(), t.to());
 *     case LateResult l -> late.increment();
 * }
 * }</pre>
 *
 * <p>On Java 17 (the release these jars target) pattern matching in {@code switch} is a preview
 * feature; use {@code instanceof} patterns instead:
 *
 * <pre>{@code
 * if (event instanceof StateTransition t) {
 *     log.info("{} -> {}", t.from(), t.to());
 * } else if (event instanceof LateResult l) {
 *     late.increment();
 * }
 * }</pre>
 *
 * <p>New kinds of event may be added in later releases (before 1.0), so a Java 21 {@code switch}
 * that must keep compiling should have a {@code default} branch.
 */
public sealed interface BreakerEvent permits StateTransition, LateResult, TripSuppressed {

    /**
     * The breaker this event is about.
     *
     * @return the breaker's name
     */
    String breakerName();
}
