package dev.breaker.spi;

import dev.breaker.internal.Durations;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Text settings given to a provider, read with validation. Every error is an
 * {@link IllegalArgumentException} whose message names the owner, the key and the value, so
 * providers in every module report bad input the same way:
 * {@code window 'count': size must be >= 1, was 0}.
 *
 * <p>Values take what a person writes in a properties or YAML file, and nothing else: surrounding
 * spaces are ignored; integers are ASCII digits with an optional sign ({@code 100}, {@code +5});
 * numbers are ASCII decimals with an optional exponent ({@code 0.5}, {@code .5}, {@code 5e-1}),
 * never Java literal suffixes ({@code 0.5f}, {@code 0.5d}), hexadecimal, {@code NaN},
 * {@code Infinity} or other scripts' digits; rates are numbers or percentages ({@code 0.5},
 * {@code 50%}); durations are ISO-8601 ({@code PT10S}) or a whole number and a unit
 * ({@code 500ms}, {@code 30s}, {@code 5m}, {@code 1h}, {@code 2d}; also {@code ns}, {@code us}).
 */
@Helper
public final class Settings {

    private static final Pattern INTEGER = Pattern.compile("[+-]?[0-9]+");
    private static final Pattern NUMBER = Pattern.compile("[+-]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)([eE][+-]?[0-9]+)?");
    private static final Pattern SHORT_DURATION = Pattern.compile("([0-9]+)\\s*(ns|us|ms|s|m|h|d)");

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
                throw new IllegalArgumentException(
                        owner + ": settings may not hold null keys or values, was " + e.getKey() + "=" + e.getValue());
            }
            if (!known.contains(e.getKey())) {
                throw new IllegalArgumentException(owner + ": unknown setting '" + e.getKey() + "' (value '"
                        + e.getValue() + "'); known settings: " + new TreeSet<>(known));
            }
        }
        return new Settings(owner, Map.copyOf(raw));
    }

    /** The value without surrounding spaces; a control character anywhere (a NUL, a line break) is refused. */
    private String clean(String key, String text) {
        for (int i = 0; i < text.length(); i++) {
            if (Character.isISOControl(text.charAt(i)) && text.charAt(i) != '\t') {
                throw fail(key + " must not contain control characters, was '"
                        + text.replace("\n", "\\n").replace("\r", "\\r").replace("\0", "\\0") + "'");
            }
        }
        return text.strip();
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
            String trimmed = clean(key, text);
            if (!INTEGER.matcher(trimmed).matches()) {
                throw fail(key + " must be an integer, was '" + text + "'");
            }
            try {
                value = Integer.parseInt(trimmed);
            } catch (NumberFormatException e) {
                throw fail(key + " must be an integer from " + Integer.MIN_VALUE + " to " + Integer.MAX_VALUE
                        + ", was '" + text + "'");
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
        return number(key, text, clean(key, text));
    }

    private double number(String key, String text, String trimmed) {
        if (!NUMBER.matcher(trimmed).matches()) {
            throw fail(key + " must be a number such as 0.5, was '" + text + "'");
        }
        double value = Double.parseDouble(trimmed);
        if (!Double.isFinite(value)) {
            throw fail(key + " must be a finite number, was '" + text + "'");
        }
        return value;
    }

    /**
     * Reads a rate in (0, 1], written as a number ({@code 0.5}) or a percentage ({@code 50%}).
     *
     * @param key      the key
     * @param fallback the value when the key is absent
     * @return the value
     * @throws IllegalArgumentException when the value is not a number or percentage in (0, 1]
     */
    public double rate(String key, double fallback) {
        String text = values.get(key);
        double value = share(key, fallback);
        if (!(value > 0.0 && value <= 1.0)) {
            throw fail(key + " must be in (0, 1], was " + (text != null ? text : value));
        }
        return value;
    }

    /**
     * Reads a share written as a number ({@code 0.2}) or a percentage ({@code 20%}), without a
     * range: the caller's builder checks it and names the range (a jitter may be 0, a rate not).
     *
     * @param key      the key
     * @param fallback the value when the key is absent
     * @return the value, finite
     * @throws IllegalArgumentException when the value is neither a number nor a percentage
     */
    public double share(String key, double fallback) {
        String text = values.get(key);
        if (text == null) {
            return fallback;
        }
        String trimmed = clean(key, text);
        if (trimmed.endsWith("%")) {
            String digits = trimmed.substring(0, trimmed.length() - 1).trim();
            double value = number(key, text, digits); // checked as any number first
            // the decimal scaled, then rounded once: "1.1%" is the double nearest 0.011, as "0.011"
            // is (parsing then dividing by 100 rounds twice, and 1.1% of 1,000 calls would not trip)
            try {
                return new java.math.BigDecimal(digits).movePointLeft(2).doubleValue();
            } catch (ArithmeticException | NumberFormatException exponentOutOfRange) { // 1e-2147483647%
                return value / 100.0; // as small as a double goes: the caller's range check names it
            }
        }
        return number(key, text, trimmed);
    }

    /**
     * Reads a duration: ISO-8601 ({@code PT10S}) or a whole number and a unit ({@code 500ms},
     * {@code 30s}, {@code 5m}, {@code 1h}, {@code 2d}, {@code 100us}, {@code 10ns}).
     *
     * @param key      the key
     * @param fallback the value when the key is absent
     * @return the value, never negative, at most {@code Long.MAX_VALUE} nanoseconds
     * @throws IllegalArgumentException when the value does not parse, is negative or is longer
     *                                  than {@code Long.MAX_VALUE} nanoseconds
     */
    public Duration duration(String key, Duration fallback) {
        String text = values.get(key);
        if (text == null) {
            return fallback;
        }
        Duration value = parseDuration(key, text);
        if (value.isNegative()) {
            throw fail(key + " must not be negative, was " + text);
        }
        if (value.compareTo(Durations.MAX) > 0) {
            throw fail(key + " must be at most " + Durations.MAX
                    + " (Long.MAX_VALUE nanoseconds, about 292 years), was " + text.strip());
        }
        return value;
    }

    private Duration parseDuration(String key, String text) {
        String trimmed = clean(key, text);
        Matcher m = SHORT_DURATION.matcher(trimmed);
        String expected = key + " must be a duration such as PT10S, 500ms, 30s, 5m or 1h, was '" + text + "'";
        if (m.matches()) {
            long amount;
            try {
                amount = Long.parseLong(m.group(1));
            } catch (NumberFormatException e) {
                throw fail(expected);
            }
            try {
                return switch (m.group(2)) {
                    case "ns" -> Duration.ofNanos(amount);
                    case "us" -> Duration.ofNanos(Math.multiplyExact(amount, 1_000L));
                    case "ms" -> Duration.ofMillis(amount);
                    case "s" -> Duration.ofSeconds(amount);
                    case "m" -> Duration.ofMinutes(amount);
                    case "h" -> Duration.ofHours(amount);
                    default -> Duration.ofDays(amount);
                };
            } catch (ArithmeticException e) {
                throw fail(expected);
            }
        }
        if (!isAscii(trimmed) || !trimmed.toUpperCase(Locale.ROOT).startsWith("P") && !trimmed.startsWith("-")) {
            throw fail(expected);
        }
        try {
            return Duration.parse(trimmed);
        } catch (DateTimeParseException e) {
            throw fail(expected);
        }
    }

    private static boolean isAscii(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) > 0x7e) {
                return false;
            }
        }
        return true;
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
