package dev.breaker.micrometer;

import java.util.Set;

/** The meter names, tag keys, tag values, units and descriptions: the published contract, in one place. */
final class MeterNames {

    static final String STATE = "breaker.state";
    static final String CALLS = "breaker.calls";
    static final String SLOW_CALLS = "breaker.slow.calls";
    static final String FAILURE_RATE = "breaker.failure.rate";
    static final String SLOW_CALL_RATE = "breaker.slow.call.rate";
    static final String TRANSITIONS = "breaker.transitions";

    static final String TAG_NAME = "name";
    static final String TAG_STATE = "state";
    static final String TAG_OUTCOME = "outcome";
    static final String TAG_FROM = "from";
    static final String TAG_TO = "to";

    /** The tag keys the binder sets itself; common tags may not use them. */
    static final Set<String> RESERVED_TAGS = Set.of(TAG_NAME, TAG_STATE, TAG_OUTCOME, TAG_FROM, TAG_TO);

    static final String SUCCESS = "success";
    static final String FAILURE = "failure";
    static final String IGNORED = "ignored";
    static final String REJECTED = "rejected";
    static final String LATE = "late";

    static final String UNIT_CALLS = "calls";
    static final String UNIT_TRANSITIONS = "transitions";

    static final String STATE_DESCRIPTION = "1 for the circuit breaker's current state, 0 for the others";
    static final String CALLS_DESCRIPTION =
            "Calls since the circuit breaker was made, by outcome; each call is counted once";
    static final String SLOW_CALLS_DESCRIPTION =
            "Calls at or above the circuit breaker's slow-call threshold, by outcome";
    static final String FAILURE_RATE_DESCRIPTION = "Failure rate of the circuit breaker's window, from 0 to 1";
    static final String SLOW_CALL_RATE_DESCRIPTION = "Slow-call rate of the circuit breaker's window, from 0 to 1";
    static final String TRANSITIONS_DESCRIPTION = "State transitions since the circuit breaker was made";

    private MeterNames() {}
}
