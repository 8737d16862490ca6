package dev.breaker.replay;

import dev.breaker.CircuitBreaker;
import dev.breaker.Permit;
import dev.breaker.State;
import dev.breaker.StateTransition;
import java.util.ArrayList;
import java.util.List;

/**
 * One configuration's breaker, fed the trace a call at a time: the fake ticker is set to the
 * call's time, the breaker is asked for a permit and, when it grants one, told the recorded
 * outcome at that same time ({@code onSuccess} / {@code onFailure} with the call's duration, which
 * decides only slowness; {@code release()} for an ignored call). Keeps counts, the first
 * {@link #KEPT_TRANSITIONS} transitions (and the count of all), and, when given bins, what the
 * picture needs per interval. Memory does not grow with the trace.
 */
final class Simulation {

    /** Transitions kept for the outputs; a flapping breaker's later ones are only counted. */
    static final int KEPT_TRANSITIONS = 1000;

    /** Count series per configuration in the bins. */
    static final int COUNT_SERIES = 4;

    static final int PERMITTED_SUCCESSES = 0;
    static final int PERMITTED_FAILURES = 1;
    static final int REJECTED_SUCCESSES = 2;
    static final int REJECTED_FAILURES = 3;

    /** Sum series per configuration in the bins: milliseconds in CLOSED, OPEN, HALF_OPEN. */
    static final int SUM_SERIES = 3;

    private final String name;
    private final CircuitBreaker breaker;
    private final Bins bins;
    private final int countBase;
    private final int sumBase;
    private final long slowNanos;
    private long now;
    private long start = -1;

    private long calls;
    private long permitted;
    private long failures;
    private long failuresReached;
    private long failuresAvoided;
    private long successesRejected;

    /** The bad spell: the stretch up to now in which bad calls most outnumber good ones. */
    private final Spell badSpell = new Spell();
    /** Bad calls minus good ones since the trace began. */
    private long balance;
    /** The highest balance since the first opening, and the time of the last call that reached it. */
    private long peak;

    private long peakAt = -1;

    private long firstOpen = -1;
    private long toTrip = -1;
    private long firstCloseAfterOpen = -1;
    private long toRecover = -1;

    private State state = State.CLOSED;
    private long stateSince;
    private long notClosed;
    private long transitionCount;
    private final List<Transition> transitions = new ArrayList<>();

    /**
     * Makes the configuration's breaker.
     *
     * @param config its configuration
     * @param bins   where to add the picture's totals, or null for none
     * @param index  the configuration's place in the run (its series in the bins)
     */
    Simulation(ConfigFile config, Bins bins, int index) {
        this.name = config.name();
        this.bins = bins;
        this.countBase = Replay.TRACE_COUNT_SERIES + index * COUNT_SERIES;
        this.sumBase = Replay.TRACE_SUM_SERIES + index * SUM_SERIES;
        this.slowNanos = config.config()
                .slowCallThreshold()
                .map(java.time.Duration::toNanos)
                .orElse(Long.MAX_VALUE);
        this.breaker = CircuitBreaker.builder("replay", config.config())
                .ticker(() -> now)
                .eventExecutor(Runnable::run)
                .listener(event -> {
                    if (event instanceof StateTransition t) {
                        transition(t.atNanos(), t.from(), t.to());
                    }
                })
                .build();
    }

    /**
     * Replays one call.
     *
     * @param timeNanos     its time, no earlier than the last call's
     * @param outcome       its recorded outcome
     * @param durationNanos its duration
     * @param bin           its bin, from {@link Bins#at(long)} (ignored without bins)
     */
    void call(long timeNanos, TraceOutcome outcome, long durationNanos, int bin) {
        if (start < 0) {
            start = timeNanos;
            stateSince = timeNanos;
        }
        now = timeNanos;
        calls++;
        boolean failure = outcome == TraceOutcome.FAILURE;
        if (failure) {
            failures++;
        }
        if (outcome != TraceOutcome.IGNORED) {
            boolean bad = failure || durationNanos >= slowNanos;
            badSpell.step(bad, timeNanos);
            balance += bad ? 1 : -1;
            if (peakAt >= 0 && firstCloseAfterOpen < 0 && balance >= peak) {
                peak = balance;
                peakAt = timeNanos;
            }
        }
        Permit permit = breaker.tryAcquire();
        int series;
        if (permit.granted()) {
            permitted++;
            switch (outcome) {
                case SUCCESS -> permit.onSuccess(durationNanos);
                case FAILURE -> permit.onFailure(durationNanos, null);
                default -> permit.release();
            }
            if (failure) {
                failuresReached++;
            }
            series = failure ? PERMITTED_FAILURES : PERMITTED_SUCCESSES;
        } else {
            if (failure) {
                failuresAvoided++;
            } else if (outcome == TraceOutcome.SUCCESS) {
                successesRejected++;
            }
            series = failure ? REJECTED_FAILURES : REJECTED_SUCCESSES;
        }
        if (bins != null && outcome != TraceOutcome.IGNORED) {
            bins.add(countBase + series, bin, 1);
        }
    }

    private void transition(long at, State from, State to) {
        closeStateSpan(at);
        state = to;
        if (to == State.OPEN && firstOpen < 0) {
            firstOpen = at;
            toTrip = badSpell.lengthUntil(at);
            peak = balance;
            peakAt = at;
        }
        if (to == State.CLOSED && firstOpen >= 0 && firstCloseAfterOpen < 0) {
            firstCloseAfterOpen = at;
            toRecover = at - peakAt;
        }
        transitionCount++;
        if (transitions.size() < KEPT_TRANSITIONS) {
            transitions.add(new Transition(at, from, to));
        }
    }

    /** Accounts the time since the last change to the state held, up to {@code at}. */
    private void closeStateSpan(long at) {
        if (at > stateSince) {
            if (state != State.CLOSED) {
                notClosed += at - stateSince;
            }
            if (bins != null) {
                bins.spread(sumBase + stateSeries(state), stateSince, at);
            }
        }
        stateSince = Math.max(stateSince, at);
    }

    static int stateSeries(State state) {
        return switch (state) {
            case CLOSED -> 0;
            case HALF_OPEN -> 2;
            default -> 1;
        };
    }

    /**
     * Ends the replay at the last call's time.
     *
     * @return the summary
     */
    Summary finish() {
        if (start >= 0) {
            closeStateSpan(now);
        }
        return new Summary(
                name,
                calls,
                permitted,
                calls - permitted,
                failures,
                failuresReached,
                failuresAvoided,
                successesRejected,
                toTrip,
                toRecover,
                notClosed,
                transitionCount,
                List.copyOf(transitions));
    }

    /**
     * The stretch of calls ending now whose count of one kind minus the other is largest (the
     * maximum-sum suffix of +1 and -1 steps, kept in constant memory): for bad calls, where a
     * dependency's trouble began, however many scattered failures came before.
     */
    static final class Spell {
        private long excess;
        private long start = -1;

        void step(boolean counts, long timeNanos) {
            if (excess <= 0) {
                excess = 0;
                start = timeNanos;
            }
            excess += counts ? 1 : -1;
        }

        /** From the spell's first call to {@code at}; 0 when there is no such spell now. */
        long lengthUntil(long at) {
            return excess > 0 ? Math.max(0, at - start) : 0;
        }
    }
}
