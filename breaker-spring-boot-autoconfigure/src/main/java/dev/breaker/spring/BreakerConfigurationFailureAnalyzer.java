package dev.breaker.spring;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a startup stopped by bad {@code breaker.*} configuration: the key, its value, where it
 * was set, and the reason with what is allowed (the message of the properties format of
 * {@code breaker-api}, which names the valid keys, names or forms).
 */
public class BreakerConfigurationFailureAnalyzer extends AbstractFailureAnalyzer<BreakerConfigurationException> {

    /** Made by Spring Boot's failure analysis. */
    public BreakerConfigurationFailureAnalyzer() {}

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, BreakerConfigurationException cause) {
        StringBuilder description = new StringBuilder("Invalid breaker configuration:\n\n");
        if (cause.key() != null) {
            description.append("    Property: ").append(cause.key()).append('\n');
            description.append("    Value: \"").append(cause.value()).append("\"\n");
        }
        if (cause.origin() != null) {
            description.append("    Origin: ").append(cause.origin()).append('\n');
        }
        description.append("    Reason: ").append(cause.reason());
        String action = cause.key() == null
                ? "Update the breaker.* configuration as the reason says."
                : "Update " + cause.key() + " in the application's configuration: the reason says what is allowed.";
        return new FailureAnalysis(description.toString(), action, cause);
    }
}
