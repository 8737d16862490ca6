package dev.breaker.spi;

import java.util.Map;
import java.util.Set;

/**
 * Makes windows by name for {@code Windows.named}. Found through {@link java.util.ServiceLoader};
 * a provider module declares {@code provides dev.breaker.spi.WindowProvider with ...} and ships
 * the matching {@code META-INF/services} file.
 *
 * <p>Names must be unique among the providers on the path: a second provider with the same
 * name makes that name an error rather than picking one of them.
 */
public interface WindowProvider {

    /**
     * The name users look this window up by, such as {@code "count"}.
     *
     * @return the name
     */
    String name();

    /**
     * The setting keys this provider understands; any other key is an error.
     *
     * @return the keys
     */
    Set<String> settingKeys();

    /**
     * Validates the settings and makes a factory.
     *
     * @param settings keys from {@link #settingKeys()} with their text values
     * @return the factory
     * @throws IllegalArgumentException naming the key and value when a setting is bad
     */
    WindowFactory create(Map<String, String> settings);
}
