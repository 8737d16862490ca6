package dev.breaker.internal;

import java.time.Duration;
import java.util.Objects;

/**
 * Checks and converts durations for configuration. One rule everywhere: a duration must fit in a
 * {@code long} of nanoseconds (at most {@link #MAX}, about 292 years); a longer one is refused
 * with a message naming the setting, never saturated silently. (An OPEN breaker that should stay
 * open until an operator acts is what {@code isolate()} is for.)
 */
public final class Durations {

    /** The longest duration any setting takes: {@code Long.MAX_VALUE} nanoseconds. */
    public static final Duration MAX = Duration.ofNanos(Long.MAX_VALUE);

    private Durations() {}

    /**
     * Checks a setting that must be zero or longer.
     *
     * @param setting the setting's name, for the message
     * @param d       the value
     * @return its length in nanoseconds
     * @throws NullPointerException     when null
     * @throws IllegalArgumentException when negative or longer than {@link #MAX}
     */
    public static long nonNegative(String setting, Duration d) {
        Objects.requireNonNull(d, setting);
        if (d.isNegative()) {
            throw new IllegalArgumentException(setting + " must be >= 0, was " + d);
        }
        return nanos(setting, d);
    }

    /**
     * Checks a setting that must be longer than zero.
     *
     * @param setting the setting's name, for the message
     * @param d       the value
     * @return its length in nanoseconds
     * @throws NullPointerException     when null
     * @throws IllegalArgumentException when zero, negative or longer than {@link #MAX}
     */
    public static long positive(String setting, Duration d) {
        Objects.requireNonNull(d, setting);
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(setting + " must be > 0, was " + d);
        }
        return nanos(setting, d);
    }

    private static long nanos(String setting, Duration d) {
        if (d.compareTo(MAX) > 0) {
            throw new IllegalArgumentException(
                    setting + " must be at most " + MAX + " (Long.MAX_VALUE nanoseconds, about 292 years), was " + d);
        }
        return d.toNanos();
    }

    /**
     * A duration written for people: {@code 850 ns}, {@code 196.5 ms}, {@code 4.2 s},
     * {@code 12 min 5 s}, {@code 3 h 20 min}, {@code 2 d 4 h}.
     *
     * @param nanos at least 0
     * @return the text
     */
    public static String human(long nanos) {
        if (nanos < 1_000L) {
            return nanos + " ns";
        }
        if (nanos < 1_000_000L) {
            return tenths(nanos, 1_000L) + " us";
        }
        if (nanos < 1_000_000_000L) {
            return tenths(nanos, 1_000_000L) + " ms";
        }
        long seconds = nanos / 1_000_000_000L;
        if (seconds < 60) {
            return tenths(nanos, 1_000_000_000L) + " s";
        }
        if (seconds < 3_600) {
            return seconds / 60 + " min " + seconds % 60 + " s";
        }
        if (seconds < 86_400) {
            return seconds / 3_600 + " h " + seconds % 3_600 / 60 + " min";
        }
        return seconds / 86_400 + " d " + seconds % 86_400 / 3_600 + " h";
    }

    /** {@code nanos / unit} with one decimal, rounded down. */
    private static String tenths(long nanos, long unit) {
        long tenths = nanos / (unit / 10);
        return tenths / 10 + "." + tenths % 10;
    }
}
