package dev.breaker.internal;

import java.time.Duration;
import java.util.Objects;

/** Checks and converts durations for configuration. */
public final class Durations {

    private Durations() {
    }

    /**
     * Converts to nanoseconds, saturating at {@link Long#MAX_VALUE} (about 292 years).
     *
     * @param d a non-negative duration
     * @return its length in nanoseconds
     */
    public static long toNanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException tooLong) {
            return Long.MAX_VALUE;
        }
    }

    /**
     * Checks a setting that must be zero or longer.
     *
     * @param setting the setting's name, for the message
     * @param d       the value
     * @return its length in nanoseconds
     * @throws NullPointerException     when null
     * @throws IllegalArgumentException when negative
     */
    public static long nonNegative(String setting, Duration d) {
        Objects.requireNonNull(d, setting);
        if (d.isNegative()) {
            throw new IllegalArgumentException(setting + " must be >= 0, was " + d);
        }
        return toNanos(d);
    }

    /**
     * Checks a setting that must be longer than zero.
     *
     * @param setting the setting's name, for the message
     * @param d       the value
     * @return its length in nanoseconds
     * @throws NullPointerException     when null
     * @throws IllegalArgumentException when zero or negative
     */
    public static long positive(String setting, Duration d) {
        Objects.requireNonNull(d, setting);
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(setting + " must be > 0, was " + d);
        }
        return toNanos(d);
    }
}
