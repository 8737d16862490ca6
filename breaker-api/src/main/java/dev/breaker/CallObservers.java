package dev.breaker;

import java.util.List;

/** Several call observers as one: each called in turn, one that throws not keeping the call from the next. */
final class CallObservers implements CallObserver {

    private static final System.Logger LOG = System.getLogger("dev.breaker");

    private final CallObserver[] each;
    /** Set by the first failure, which alone is logged. */
    private volatile boolean failed;

    private CallObservers(CallObserver[] each) {
        this.each = each;
    }

    /** Null for none (a breaker then pays one null check per call), the observer itself for one. */
    static CallObserver of(List<CallObserver> observers) {
        if (observers.isEmpty()) {
            return null;
        }
        if (observers.size() == 1) {
            return observers.get(0);
        }
        return new CallObservers(observers.toArray(new CallObserver[0]));
    }

    @Override
    public void onOutcome(CircuitBreaker breaker, Outcome outcome, boolean slow, long durationNanos) {
        for (CallObserver o : each) {
            try {
                o.onOutcome(breaker, outcome, slow, durationNanos);
            } catch (Throwable t) {
                failed(breaker, o, t);
            }
        }
    }

    @Override
    public void onRejected(CircuitBreaker breaker, State state) {
        for (CallObserver o : each) {
            try {
                o.onRejected(breaker, state);
            } catch (Throwable t) {
                failed(breaker, o, t);
            }
        }
    }

    @Override
    public void onLate(CircuitBreaker breaker, Outcome outcome) {
        for (CallObserver o : each) {
            try {
                o.onLate(breaker, outcome);
            } catch (Throwable t) {
                failed(breaker, o, t);
            }
        }
    }

    private void failed(CircuitBreaker breaker, CallObserver o, Throwable t) {
        if (!failed) {
            failed = true; // a race may log twice; never once per call
            try {
                LOG.log(
                        System.Logger.Level.WARNING,
                        () -> "breaker '" + breaker.name() + "': call observer "
                                + dev.breaker.internal.Names.describe(o::toString, o)
                                + " threw; its later failures are not logged",
                        t);
            } catch (Throwable loggingFailed) { // an exception that cannot print itself, or a broken logger
                // nothing more can be said safely; the next observer still gets the call
            }
        }
    }

    @Override
    public String toString() {
        return "CallObservers" + List.of(each);
    }
}
