package dev.breaker.replay;

/** What a recorded call ended as, as the trace's {@code outcome} column writes it. */
enum TraceOutcome {
    /** {@code success}: reported with {@code Permit.onSuccess}. */
    SUCCESS("success"),
    /** {@code failure}: reported with {@code Permit.onFailure}. */
    FAILURE("failure"),
    /** {@code ignored}: the permit is released without an outcome. */
    IGNORED("ignored");

    private final String text;

    TraceOutcome(String text) {
        this.text = text;
    }

    /** The word in the trace. */
    String text() {
        return text;
    }
}
