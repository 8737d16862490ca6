package dev.breaker.spring;

import java.util.Map;

/**
 * The {@code breaker.*} configuration was refused by the properties format of
 * {@code breaker-api}: an unknown key, or a value that is not allowed. Startup stops, and
 * {@link BreakerConfigurationFailureAnalyzer} reports the key, the value, where it came from and
 * what is allowed.
 */
public class BreakerConfigurationException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    /** The whole key, such as {@code breaker.defaults.cooldown}, or null when none could be named. */
    private final String key;

    /** The value as written, or null. */
    private final String value;

    /** Where the key came from (a file and line), or null when Spring does not know. */
    private final String origin;

    /**
     * Describes a refused configuration.
     *
     * @param key    the whole key, or null
     * @param value  its value, or null
     * @param origin where it was set, or null
     * @param cause  the refusal of the properties format; its message is the reason
     */
    public BreakerConfigurationException(String key, String value, String origin, IllegalArgumentException cause) {
        super(
                "Invalid breaker configuration: " + (key == null ? "" : key + " = '" + value + "'")
                        + (origin == null ? "" : " (" + origin + ")") + ": " + cause.getMessage(),
                cause);
        this.key = key;
        this.value = value;
        this.origin = origin;
    }

    /**
     * Finds the key a refusal of the properties format is about: its message starts with the whole
     * key (the longest given key it starts with).
     *
     * @param properties the keys handed to the format
     * @param refusal    what the format threw
     * @return the key, or null when the message starts with none
     */
    static String keyOf(Map<String, String> properties, IllegalArgumentException refusal) {
        String message = String.valueOf(refusal.getMessage());
        String found = null;
        for (String key : properties.keySet()) {
            boolean starts = message.startsWith(key)
                    && (message.length() == key.length()
                            || message.charAt(key.length()) == ':'
                            || message.charAt(key.length()) == ' ');
            if (starts && (found == null || key.length() > found.length())) {
                found = key;
            }
        }
        return found;
    }

    /**
     * The refused key.
     *
     * @return the whole key, or null when the refusal named none
     */
    public String key() {
        return key;
    }

    /**
     * The refused key's value.
     *
     * @return the value as written, or null
     */
    public String value() {
        return value;
    }

    /**
     * Where the refused key was set.
     *
     * @return a description of the origin, or null
     */
    public String origin() {
        return origin;
    }

    /**
     * Why it was refused, with what is allowed: the message of the properties format.
     *
     * @return the reason
     */
    public String reason() {
        return getCause().getMessage();
    }
}
