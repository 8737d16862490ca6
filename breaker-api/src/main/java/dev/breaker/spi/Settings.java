package dev.breaker.spi;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * Text settings given to a provider, read with validation. Every error is an
 * {@link IllegalArgumentException} whose message names the owner, the key and the value, so
 * providers in every module report bad input the same way:
 * {@code window 'count': size must be >= 1, was 0}.
 */
public final class Settings {

    private final String owner;
    private final Map<String, String> values;

    private Settings(String owner, Map<String, String> values) {
        this.owner = owner;
        this.values = values;
    }

    /**
     * Checks the keys of {@code raw} against {@code known}.
     *
     * @param owner what the settings configure, such as {@code window 'count'}, for messages
     * @param raw   the settings; neither keys nor values may be null
     * @param known the keys the owner understands
     * @return the settings, ready to read
     * @throws IllegalArgumentException when a key is not in {@code known}
     */
    public static Settings of(String owner, Map<String, String> raw, Set<String> known) {
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(raw, "settings");
        Objects.requireNonNull(known, "known");
        for (Map.Entry<String, String> e : raw.entrySet()) {
            if (e.getKey() == null || e.getValue() == null) {
                throw new IllegalArgumentException(owner + ": settings may not hold null keys or values, was "
                        + e.getKey() + "=" + e.getValue());
            }
            if (!known.contains(e.getKey())) {
                throw new IllegalArgumentException(owner + ": unknown setting '" + e.getKey() + "' (value '"
                        + e.getValue() + "'); known settings: " + new TreeSet<>(known));
            }
        }
        return new Settings(owner, Map.copyOf(raw));
    }

    /**
     * Whether a key was given.
     *
     * @param key the key
     * @return true when present
     */
    public boolean has(String key) {
        return values.containsKey(key);
    }

    /**
     * Reads an integer.
     *
     * @param key      the key
     * @param fallback the value when the key is absent
     * @param min      the smallest value allowed
     * @return the value
     * @throws IllegalArgumentException when the value is not an integer or is below {@code min}
     */
    public int intValue(String key, int fallback, int min) {
        String text = values.get(key);
        int value;
        if (text == null) {
            value = fallback;
        } else {
            try {
                value = Integer.parseInt(text.trim());
            } catch (NumberFormatException e) {
                throw fail(key + " must be an integer, was '" + text + "'");
            }
        }
        if (value < min) {
            throw fail(key + " must be >= " + min + ", was " + value);
        }
        return value;
    }

    /**
     * Reads a number.
     *
     * @param key      the key
     * @param fallback the value when the key is absent
     * @return the value, finite
     * @throws IllegalArgumentException when the value is not a finite number
     */
    public double doubleValue(String key, double fallback) {
        String text = values.get(key);
        if (text == null) {
            return fallback;
        }
        double value;
        try {
            value = Double.parseDouble(text.trim());
        } catch (NumberFormatException e) {
            throw fail(key + " must be a number, was '" + text + "'");
        }
        if (!Double.isFinite(value)) {
            throw fail(key + " must be a finite number, was '" + text + "'");
        }
        return value;
    }

    /**
     * Reads a rate in (0, 1].
     *
     * @param key      the key
     * @param fallback the value when the key is absent
     * @return the value
     * @throws IllegalArgumentException when the value is not a number in (0, 1]
     */
    public double rate(String key, double fallback) {
        double value = doubleValue(key, fallback);
        if (!(value > 0.0 && value <= 1.0)) {
            throw fail(key + " must be in (0, 1], was " + (has(key) ? values.get(key) : value));
        }
        return value;
    }

    /**
     * Reads an ISO-8601 duration such as {@code PT10S}.
     *
     * @param key      the key
     * @param fallback the value when the key is absent
     * @return the value, never negative
     * @throws IllegalArgumentException when the value does not parse or is negative
     */
    public Duration duration(String key, Duration fallback) {
        String text = values.get(key);
        if (text == null) {
            return fallback;
        }
        Duration value;
        try {
            value = Duration.parse(text.trim());
        } catch (DateTimeParseException e) {
            throw fail(key + " must be an ISO-8601 duration such as PT10S, was '" + text + "'");
        }
        if (value.isNegative()) {
            throw fail(key + " must not be negative, was " + text);
        }
        return value;
    }

    /**
     * Runs a typed builder with values read from these settings; an
     * {@link IllegalArgumentException} it throws (which names the setting and value) gets this
     * owner's prefix, so errors read the same whether a user called the builder or a provider did.
     *
     * @param build reads settings and builds
     * @param <T>   what is built
     * @return what {@code build} returned
     * @throws IllegalArgumentException naming the owner, the key and the value
     */
    public <T> T build(java.util.function.Supplier<T> build) {
        try {
            return build.get();
        } catch (IllegalArgumentException e) {
            String message = String.valueOf(e.getMessage());
            throw message.startsWith(owner + ": ") ? e : fail(message);
        }
    }

    /**
     * Makes an error about these settings.
     *
     * @param message what is wrong, naming the key and value
     * @return the exception, to throw
     */
    public IllegalArgumentException fail(String message) {
        return new IllegalArgumentException(owner + ": " + message);
    }
}
