package dev.breaker;

import dev.breaker.spi.Window;
import dev.breaker.spi.WindowCounts;

/**
 * Everything that decides a breaker's answers, as one immutable value behind one atomic
 * reference: swapping it is the only way the breaker changes, so no reader can pair a state with
 * another state's time. See {@link DefaultCircuitBreaker} for the protocol.
 *
 * <p>A snapshot also carries the event of the transition that began its generation
 * ({@link #cause}), so the event travels with the state it announces: whoever sees the snapshot
 * can publish it, and a thread that dies between its compare-and-set and its publish strands
 * nothing (see {@link EventDispatcher}).
 */
final class Snapshot {

    final State state;
    /** Starts at 0; every transition adds one. Probe bookkeeping inside HALF_OPEN keeps it. */
    final long generation;
    /** Ticker reading when this state was entered (for OPEN: when it opened; for HALF_OPEN: when the round began). */
    final long since;
    /**
     * False when the ticker failed at the transition, so {@link #since} is only the previous
     * state's time: an OPEN breaker then starts its cooldown at the first good reading.
     */
    final boolean sinceKnown;
    /**
     * OPEN: how long to reject, from {@code since}; HALF_OPEN: the cooldown of the opening before;
     * CLOSED: the last cooldown of the openings it carries (0 when none). The last two are a
     * failing policy's fallback.
     */
    final long cooldownNanos;
    /**
     * Consecutive openings (SPEC rule 14): while OPEN or HALF_OPEN, the count that chose the
     * cooldown and the round; while CLOSED, the count the era began with (0 after a reset), which
     * starts over at the next trip once the calm period has passed since {@link #since}.
     */
    final int opens;
    /** HALF_OPEN: the round's permits, {@code probes(opens)} of the policy; otherwise 0. */
    final int roundProbes;
    /** HALF_OPEN: permits counted against the round's budget (in flight or succeeded or failed). */
    final int admitted;
    /** HALF_OPEN: probes of the round that succeeded. */
    final int successes;
    /** HALF_OPEN: probes of the round that failed. */
    final int failures;
    /** CLOSED: the era's window, which records; otherwise the window of the era that ended (not written). */
    final Window window;
    /** Not CLOSED: the window's counts when the CLOSED era ended, so metrics explain the state; null while CLOSED. */
    final WindowCounts frozen;
    /**
     * CLOSED: the permit every call of this generation shares, unless the breaker gives each call
     * one of its own ({@code trackedPermits}); otherwise null.
     */
    final Permit closedPermit;
    /**
     * {@link #closedPermit} when every call is handed it at once (CLOSED with no ramp, and a shared
     * permit); otherwise null: the admission of the common case is one load.
     */
    final Permit fastPermit;
    /** The event of the transition that began this generation; null for generation 0 or without listeners. */
    final StateTransition cause;
    /** CLOSED while ramping up after recovery (SPEC rule 16); null otherwise, and then the CLOSED path is untouched. */
    final Ramp ramp;
    /**
     * CLOSED: the window counts the breaker's calls by outcome itself (see
     * {@code dev.breaker.internal.WindowTotals}), so a call records into the window alone.
     */
    final boolean windowCounts;

    private Snapshot(
            State state,
            long generation,
            long since,
            boolean sinceKnown,
            long cooldownNanos,
            int opens,
            int roundProbes,
            int admitted,
            int successes,
            int failures,
            Window window,
            WindowCounts frozen,
            Permit closedPermit,
            StateTransition cause,
            Ramp ramp,
            boolean windowCounts) {
        this.state = state;
        this.generation = generation;
        this.since = since;
        this.sinceKnown = sinceKnown;
        this.cooldownNanos = cooldownNanos;
        this.opens = opens;
        this.roundProbes = roundProbes;
        this.admitted = admitted;
        this.successes = successes;
        this.failures = failures;
        this.window = window;
        this.frozen = frozen;
        this.closedPermit = closedPermit;
        this.fastPermit = state == State.CLOSED && ramp == null ? closedPermit : null;
        this.cause = cause;
        this.ramp = ramp;
        this.windowCounts = windowCounts;
    }

    /**
     * A CLOSED era with a fresh window.
     *
     * @param opens        the consecutive openings it begins with (0 after a reset)
     * @param lastCooldown the cooldown of the last of them (0 when none)
     * @param ramp         its ramp-up, or null for none
     */
    static Snapshot closed(
            DefaultCircuitBreaker breaker,
            long generation,
            long since,
            boolean sinceKnown,
            Window fresh,
            int opens,
            long lastCooldown,
            Ramp ramp,
            StateTransition cause) {
        boolean counts = breaker.countsInto(fresh);
        return new Snapshot(
                State.CLOSED,
                generation,
                since,
                sinceKnown,
                lastCooldown,
                opens,
                0,
                0,
                0,
                0,
                fresh,
                null,
                breaker.tracksPermits() ? null : new ClosedPermit(breaker, generation, fresh, counts),
                cause,
                ramp,
                counts);
    }

    /** The same CLOSED era, its ramp over: not a transition (same generation, same permit). */
    Snapshot rampEnded() {
        return new Snapshot(
                state,
                generation,
                since,
                sinceKnown,
                cooldownNanos,
                opens,
                roundProbes,
                admitted,
                successes,
                failures,
                window,
                frozen,
                closedPermit,
                cause,
                null,
                windowCounts);
    }

    static Snapshot open(
            long generation,
            long since,
            boolean sinceKnown,
            long cooldownNanos,
            int opens,
            Window window,
            WindowCounts frozen,
            StateTransition cause) {
        return new Snapshot(
                State.OPEN,
                generation,
                since,
                sinceKnown,
                cooldownNanos,
                opens,
                0,
                0,
                0,
                0,
                window,
                frozen,
                null,
                cause,
                null,
                false);
    }

    /** A new round of {@code roundProbes} permits whose first is already granted to the request that began it. */
    static Snapshot halfOpen(
            long generation,
            long since,
            long lastCooldownNanos,
            int opens,
            int roundProbes,
            Window window,
            WindowCounts frozen,
            StateTransition cause) {
        return new Snapshot(
                State.HALF_OPEN,
                generation,
                since,
                true,
                lastCooldownNanos,
                opens,
                roundProbes,
                1,
                0,
                0,
                window,
                frozen,
                null,
                cause,
                null,
                false);
    }

    static Snapshot isolated(
            long generation,
            long since,
            boolean sinceKnown,
            Window window,
            WindowCounts frozen,
            StateTransition cause) {
        return new Snapshot(
                State.ISOLATED,
                generation,
                since,
                sinceKnown,
                0,
                0,
                0,
                0,
                0,
                0,
                window,
                frozen,
                null,
                cause,
                null,
                false);
    }

    /** The same round with other probe counts. */
    Snapshot withProbes(int admitted, int successes, int failures) {
        return new Snapshot(
                state,
                generation,
                since,
                sinceKnown,
                cooldownNanos,
                opens,
                roundProbes,
                admitted,
                successes,
                failures,
                window,
                frozen,
                null,
                cause,
                null,
                false);
    }

    /** The same state, its cooldown (OPEN) or ramp (CLOSED) now starting at {@code now}: the ticker failed when it began. */
    Snapshot startedAt(long now) {
        return new Snapshot(
                state,
                generation,
                now,
                true,
                cooldownNanos,
                opens,
                roundProbes,
                admitted,
                successes,
                failures,
                window,
                frozen,
                closedPermit,
                cause,
                ramp,
                windowCounts);
    }

    @Override
    public String toString() {
        return state + "@" + generation + "(since=" + since + (sinceKnown ? "" : "?") + ", admitted=" + admitted
                + ", successes=" + successes + ", failures=" + failures + ")";
    }
}
