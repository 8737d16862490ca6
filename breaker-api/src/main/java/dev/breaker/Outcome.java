package dev.breaker;

/** How a {@link FailureClassifier} judges one call. */
public enum Outcome {
    /** The dependency answered well. */
    SUCCESS,
    /** The call says the dependency is unhealthy; it counts toward tripping. */
    FAILURE,
    /** The call says nothing about the dependency; it is not recorded and frees a probe slot. */
    IGNORED
}
