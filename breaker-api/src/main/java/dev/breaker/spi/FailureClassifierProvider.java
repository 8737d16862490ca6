package dev.breaker.spi;

import dev.breaker.FailureClassifier;
import java.util.Map;
import java.util.Set;

/**
 * Makes failure classifiers by name for {@code FailureClassifier.named}, found through
 * {@link java.util.ServiceLoader} like {@link WindowProvider}.
 */
public interface FailureClassifierProvider {

    /**
     * The name users look this classifier up by, such as {@code "default"}.
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
     * Validates the settings and makes a classifier.
     *
     * @param settings keys from {@link #settingKeys()} with their text values
     * @return the classifier
     * @throws IllegalArgumentException naming the key and value when a setting is bad
     */
    FailureClassifier create(Map<String, String> settings);
}
