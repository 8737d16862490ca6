package dev.breaker;

import dev.breaker.spi.Window;

/**
 * Everything that decides a breaker's answers, as one immutable value behind one atomic
 * reference: swapping it is the only way the breaker changes, so no reader can pair a state with
 * another state's time. See {@link DefaultCircuitBreaker} for the protocol.
 */
final class Snapshot {

    final State state;
    /** Starts at 0; every transition adds one. Probe bookkeeping inside HALF_OPEN keeps it. */
    final long generation;
    /** Ticker reading when this state was entered (for OPEN: when it opened; for HALF_OPEN: when the round began). */
    final long since;
    /** OPEN: how long to reject, from {@code since}. */
    final long cooldownNanos;
    /** Times opened since last CLOSED (0 while CLOSED); feeds the half-open policy's cooldown. */
    final int opens;
    /** HALF_OPEN: permits counted against the round's budget (in flight or succeeded or failed). */
    final int admitted;
    /** HALF_OPEN: probes of the round that succeeded. */
    final int successes;
    /** HALF_OPEN: probes of the round that failed. */
    final int failures;
    /** CLOSED: the era's window; otherwise the window of the era that tripped, for metrics. */
    final Window window;
    /** CLOSED: the permit every call of this generation shares; otherwise null. */
    final Permit closedPermit;

    private Snapshot(State state, long generation, long since, long cooldownNanos, int opens,
                     int admitted, int successes, int failures, Window window, Permit closedPermit) {
        this.state = state;
        this.generation = generation;
        this.since = since;
        this.cooldownNanos = cooldownNanos;
        this.opens = opens;
        this.admitted = admitted;
        this.successes = successes;
        this.failures = failures;
        this.window = window;
        this.closedPermit = closedPermit;
    }

    static Snapshot closed(DefaultCircuitBreaker breaker, long generation, long since, Window fresh) {
        return new Snapshot(State.CLOSED, generation, since, 0, 0, 0, 0, 0, fresh,
                new ClosedPermit(breaker, generation));
    }

    static Snapshot open(long generation, long since, long cooldownNanos, int opens, Window window) {
        return new Snapshot(State.OPEN, generation, since, Math.max(0, cooldownNanos), opens, 0, 0, 0, window, null);
    }

    /** A new round whose first permit is already granted to the request that began it. */
    static Snapshot halfOpen(long generation, long since, int opens, Window window) {
        return new Snapshot(State.HALF_OPEN, generation, since, 0, opens, 1, 0, 0, window, null);
    }

    static Snapshot isolated(long generation, long since, Window window) {
        return new Snapshot(State.ISOLATED, generation, since, 0, 0, 0, 0, 0, window, null);
    }

    /** The same round with other probe counts. */
    Snapshot withProbes(int admitted, int successes, int failures) {
        return new Snapshot(state, generation, since, cooldownNanos, opens, admitted, successes, failures, window, null);
    }

    @Override
    public String toString() {
        return state + "@" + generation + "(since=" + since + ", admitted=" + admitted
                + ", successes=" + successes + ", failures=" + failures + ")";
    }
}
