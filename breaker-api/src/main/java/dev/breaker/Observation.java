package dev.breaker;

import dev.breaker.internal.Names;

/**
 * A breaker's {@link CallObserver}, called so that it can neither change a decision nor cost a
 * caller anything: whatever it throws is swallowed, and only its first failure is logged (a race
 * may log twice; never once per call).
 */
final class Observation {

    private static final System.Logger LOG = System.getLogger("dev.breaker");

    private final CircuitBreaker breaker;
    private final CallObserver observer;
    /** Set by the first failure, which alone is logged. */
    private volatile boolean failed;

    /**
     * @param breaker  the breaker observed, handed to every call
     * @param observer the user's observer
     */
    Observation(CircuitBreaker breaker, CallObserver observer) {
        this.breaker = breaker;
        this.observer = observer;
    }

    /** A call's outcome, as the breaker counted it. */
    void outcome(Outcome outcome, boolean slow, long durationNanos) {
        try {
            observer.onOutcome(breaker, outcome, slow, durationNanos);
        } catch (Throwable t) {
            failed(t);
        }
    }

    /** A call the breaker rejected in {@code state}. */
    void rejected(State state) {
        try {
            observer.onRejected(breaker, state);
        } catch (Throwable t) {
            failed(t);
        }
    }

    /** An outcome reported after its generation ended. */
    void late(Outcome outcome) {
        try {
            observer.onLate(breaker, outcome);
        } catch (Throwable t) {
            failed(t);
        }
    }

    private void failed(Throwable t) {
        if (!failed) {
            failed = true;
            try {
                LOG.log(
                        System.Logger.Level.WARNING,
                        () -> "breaker '" + breaker.name() + "': call observer "
                                + Names.describe(observer::toString, observer)
                                + " threw; its later failures are not logged",
                        t);
            } catch (Throwable loggingFailed) { // an exception that cannot print itself, or a broken logger
                // nothing more can be said safely; the caller must not get it
            }
        }
    }
}
