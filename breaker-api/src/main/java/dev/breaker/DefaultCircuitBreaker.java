package dev.breaker;

import dev.breaker.spi.HalfOpenPolicy;
import dev.breaker.spi.Window;
import dev.breaker.spi.WindowCounts;
import dev.breaker.spi.WindowFactory;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * The state machine.
 *
 * <p><b>What is shared.</b> One {@link AtomicReference} to an immutable {@link Snapshot}
 * {@code (state, generation, since, cooldown, probe counts, window)}; the window of the current
 * CLOSED era, which is lock-free on its own; and three {@link LongAdder}s for rejected, late and
 * duplicate reports. Nothing else changes after construction.
 *
 * <p><b>The protocol.</b> Every decision reads the snapshot, computes the next one and installs
 * it with one compare-and-set against the snapshot it read. A transition (any change of state, or
 * a reset) also increments the generation; the thread whose CAS succeeds is the only one that
 * performs that transition and the only one that publishes its event. A thread whose CAS fails
 * re-reads and decides again against what the winner installed: it never retries its own
 * stale decision. Because a request or an outcome makes at most one successful CAS that changes
 * the generation, one observation causes at most one transition (SPEC rule 5).
 *
 * <ul>
 * <li>CLOSED: {@link #tryAcquire()} is one volatile read and returns the generation's shared
 *     permit (with {@code trackedPermits}, a one-shot permit of its own). Outcomes go to the window only while the snapshot still carries the permit's
 *     generation; a trip is a CAS to OPEN. Each CLOSED era gets a new window, so closing needs no
 *     clearing and an outcome from an older era can only land in a discarded window.</li>
 * <li>OPEN: the cooldown is judged by {@code now - since < cooldown}, differences only, so a
 *     wrapping ticker is harmless. The first request at or after its end wins the CAS to a
 *     HALF_OPEN snapshot whose first permit it already holds; no timer thread exists.</li>
 * <li>HALF_OPEN: probe permits are counted in the snapshot, one CAS per grant, so N permits are
 *     granted per round however many threads ask. Each outcome is a CAS that updates the counts
 *     or, when the policy decides, transitions. A round older than the maximum half-open
 *     duration is failed by the next request or report that sees it.</li>
 * </ul>
 *
 * <p><b>Why no lock.</b> The dependency is never called under anything held, and the only shared
 * writes are CASes on small immutable values (rare: transitions and probe bookkeeping) and the
 * window's own counters. A lock would put one serialisation point in front of every call.
 */
final class DefaultCircuitBreaker implements CircuitBreaker {

    private final String name;
    private final WindowFactory windows;
    private final HalfOpenPolicy policy;
    private final FailureClassifier classifier;
    private final Ticker ticker;
    /** {@code Long.MAX_VALUE} when no slow-call threshold is set: no duration reaches it. */
    private final long slowCallNanos;
    private final boolean timed;
    private final long maxHalfOpenNanos;
    private final boolean rejectionStackTraces;
    private final boolean trackedPermits;
    /** Null when there is no listener: publishing then costs nothing. */
    private final EventDispatcher events;

    private final AtomicReference<Snapshot> current;
    private final LongAdder rejected = new LongAdder();
    private final LongAdder late = new LongAdder();
    private final LongAdder duplicates = new LongAdder();

    @SuppressWarnings("this-escape") // the first CLOSED snapshot's shared permit refers back to this breaker
    DefaultCircuitBreaker(String name, WindowFactory windows, HalfOpenPolicy policy, FailureClassifier classifier,
                          Ticker ticker, long slowCallNanos, long maxHalfOpenNanos, boolean rejectionStackTraces,
                          boolean trackedPermits, List<BreakerListener> listeners) {
        this.name = name;
        this.windows = windows;
        this.policy = policy;
        this.classifier = classifier;
        this.ticker = ticker;
        this.slowCallNanos = slowCallNanos;
        this.timed = slowCallNanos != Long.MAX_VALUE;
        this.maxHalfOpenNanos = maxHalfOpenNanos;
        this.rejectionStackTraces = rejectionStackTraces;
        this.trackedPermits = trackedPermits;
        this.events = listeners.isEmpty() ? null : new EventDispatcher(listeners, 1);
        this.current = new AtomicReference<>(Snapshot.closed(this, 0, ticker.read(), windows.create(ticker)));
    }

    @Override
    public String name() {
        return name;
    }

    // ---------------------------------------------------------------- permission

    @Override
    public Permit tryAcquire() {
        return acquire(false);
    }

    /**
     * The permit decision. With {@code throwing}, a rejection is thrown as the exception, built
     * from the same clock reading and snapshot that decided it (the execute methods need no
     * second reading to say when a probe will next be allowed).
     */
    private Permit acquire(boolean throwing) {
        Snapshot s = current.get();
        if (s.state == State.CLOSED) {
            return trackedPermits ? new TrackedClosedPermit(this, s.generation) : s.closedPermit;
        }
        return acquireSlow(s, throwing);
    }

    private Permit acquireSlow(Snapshot s, boolean throwing) {
        for (;; s = current.get()) {
            if (s.state == State.CLOSED) {
                return trackedPermits ? new TrackedClosedPermit(this, s.generation) : s.closedPermit;
            }
            if (s.state == State.ISOLATED) {
                return reject(RejectedPermit.ISOLATED, throwing, -1);
            }
            long now = ticker.read();
            long elapsed = now - s.since;
            if (s.state == State.OPEN) {
                if (elapsed < s.cooldownNanos) {
                    return reject(RejectedPermit.OPEN, throwing, s.cooldownNanos - elapsed);
                }
                Snapshot next = Snapshot.halfOpen(s.generation + 1, now, s.opens, s.window);
                if (transition(s, next, TransitionReason.COOLDOWN_ELAPSED)) {
                    return new ProbePermit(this, next.generation);
                }
            } else if (elapsed >= maxHalfOpenNanos) { // HALF_OPEN, round expired
                Snapshot reopened = reopen(s, now);
                if (transition(s, reopened, TransitionReason.HALF_OPEN_TIMEOUT)) {
                    return reject(RejectedPermit.OPEN, throwing, reopened.cooldownNanos);
                }
            } else if (s.admitted >= policy.probes()) {
                return reject(RejectedPermit.HALF_OPEN, throwing, maxHalfOpenNanos - elapsed);
            } else if (current.compareAndSet(s, s.withProbes(s.admitted + 1, s.successes, s.failures))) {
                return new ProbePermit(this, s.generation);
            }
        }
    }

    /**
     * Counts a rejection and answers it.
     *
     * @param retryAfterNanos until a probe may be allowed, or -1 when only reset() will
     */
    private Permit reject(RejectedPermit permit, boolean throwing, long retryAfterNanos) {
        rejected.increment();
        if (throwing) {
            throw new CallNotPermittedException(name, permit.state, retryAfterNanos, rejectionStackTraces);
        }
        return permit;
    }

    // ---------------------------------------------------------------- outcomes

    Outcome classify(Object result, Throwable failure) {
        if (failure instanceof Error) {
            return Outcome.IGNORED;
        }
        return Objects.requireNonNull(classifier.classify(result, failure), "classifier returned null");
    }

    void recordClosed(long generation, Outcome outcome, long durationNanos) {
        Snapshot s = current.get();
        if (s.generation != generation) {
            lateResult(generation, s.generation);
            return;
        }
        if (outcome != Outcome.IGNORED
                && s.window.record(outcome == Outcome.FAILURE, durationNanos >= slowCallNanos)) {
            long now = ticker.read();
            // a failed CAS means another thread already moved the breaker on: nothing left to do
            transition(s, Snapshot.open(s.generation + 1, now, policy.cooldownNanos(1), 1, s.window),
                    TransitionReason.WINDOW_TRIPPED);
        }
    }

    void duplicateReport() {
        duplicates.increment();
    }

    void recordProbe(ProbePermit permit, Outcome outcome, long durationNanos) {
        if (!permit.claimReport()) {
            duplicateReport();
            return;
        }
        for (;;) {
            Snapshot s = current.get();
            if (s.generation != permit.generation) {
                lateResult(permit.generation, s.generation);
                return;
            }
            long now = ticker.read();
            if (now - s.since >= maxHalfOpenNanos) {
                if (transition(s, reopen(s, now), TransitionReason.HALF_OPEN_TIMEOUT)) {
                    return;
                }
                continue;
            }
            if (outcome == Outcome.IGNORED) {
                if (current.compareAndSet(s, s.withProbes(s.admitted - 1, s.successes, s.failures))) {
                    return;
                }
                continue;
            }
            boolean failed = outcome == Outcome.FAILURE || durationNanos >= slowCallNanos;
            int successes = failed ? s.successes : s.successes + 1;
            int failures = failed ? s.failures + 1 : s.failures;
            boolean done = switch (policy.decide(successes, failures)) {
                case CLOSE -> transition(s, Snapshot.closed(this, s.generation + 1, now, windows.create(ticker)),
                        TransitionReason.PROBES_SUCCEEDED);
                case OPEN -> transition(s, reopen(s, now), TransitionReason.PROBE_FAILED);
                case WAIT -> current.compareAndSet(s, s.withProbes(s.admitted, successes, failures));
            };
            if (done) {
                return;
            }
        }
    }

    private void lateResult(long permitGeneration, long currentGeneration) {
        late.increment();
        if (events != null) {
            events.other(new LateResult(name, permitGeneration, currentGeneration));
        }
    }

    /** OPEN again after a round: one more consecutive open, a cooldown from the policy, starting now. */
    private Snapshot reopen(Snapshot s, long now) {
        int opens = s.opens == Integer.MAX_VALUE ? s.opens : s.opens + 1;
        return Snapshot.open(s.generation + 1, now, policy.cooldownNanos(opens), opens, s.window);
    }

    /** The only way the generation changes: one CAS, and the winner alone publishes. */
    private boolean transition(Snapshot from, Snapshot to, TransitionReason reason) {
        if (!current.compareAndSet(from, to)) {
            return false;
        }
        if (events != null) {
            events.transition(new StateTransition(name, from.state, to.state, to.generation, reason, to.since));
        }
        return true;
    }

    // ---------------------------------------------------------------- manual control and reading

    @Override
    public void isolate() {
        for (Snapshot s = current.get(); s.state != State.ISOLATED; s = current.get()) {
            if (transition(s, Snapshot.isolated(s.generation + 1, ticker.read(), s.window), TransitionReason.ISOLATED)) {
                return;
            }
        }
    }

    @Override
    public void reset() {
        Window fresh = windows.create(ticker);
        for (;;) {
            Snapshot s = current.get();
            if (transition(s, Snapshot.closed(this, s.generation + 1, ticker.read(), fresh), TransitionReason.RESET)) {
                return;
            }
        }
    }

    @Override
    public State state() {
        return current.get().state;
    }

    @Override
    public BreakerMetrics metrics() {
        Snapshot s = current.get();
        WindowCounts c = s.window.counts();
        return new BreakerMetrics(s.state, s.generation, c.calls(), c.failures(), c.slowCalls(),
                c.failureRate(), c.slowCallRate(), rejected.sum(), late.sum(), duplicates.sum(),
                s.admitted, s.successes);
    }

    // ---------------------------------------------------------------- execution

    long startTime() {
        return timed ? ticker.read() : 0;
    }

    long elapsedSince(long start) {
        return timed ? Math.max(0, ticker.read() - start) : 0;
    }

    /** Reports a call that threw: an {@link Error} releases the permit, anything else is classified. */
    void reportThrown(Permit permit, Throwable failure, long start) {
        if (failure instanceof Error) {
            permit.release();
        } else {
            permit.onResult(null, failure, elapsedSince(start));
        }
    }

    @Override
    public <T> T call(Callable<T> callable) throws Exception {
        Objects.requireNonNull(callable, "callable");
        Permit permit = acquire(true);
        long start = startTime();
        T result;
        try {
            result = callable.call();
        } catch (Throwable t) {
            reportThrown(permit, t, start);
            throw t;
        }
        permit.onResult(result, null, elapsedSince(start));
        return result;
    }

    @Override
    public <T> T get(Supplier<T> supplier) {
        Objects.requireNonNull(supplier, "supplier");
        Permit permit = acquire(true);
        long start = startTime();
        T result;
        try {
            result = supplier.get();
        } catch (Throwable t) {
            reportThrown(permit, t, start);
            throw t;
        }
        permit.onResult(result, null, elapsedSince(start));
        return result;
    }

    @Override
    public void run(Runnable runnable) {
        Objects.requireNonNull(runnable, "runnable");
        Permit permit = acquire(true);
        long start = startTime();
        try {
            runnable.run();
        } catch (Throwable t) {
            reportThrown(permit, t, start);
            throw t;
        }
        permit.onResult(null, null, elapsedSince(start));
    }

    @Override
    public <T> CompletionStage<T> callAsync(Supplier<? extends CompletionStage<T>> supplier) {
        Objects.requireNonNull(supplier, "supplier");
        Permit permit;
        try {
            permit = acquire(true);
        } catch (CallNotPermittedException rejected) {
            return CompletableFuture.failedFuture(rejected);
        }
        return AsyncCall.start(this, permit, supplier);
    }

    @Override
    public String toString() {
        Snapshot s = current.get();
        return "CircuitBreaker[" + name + ", " + s.state + ", generation " + s.generation + ", "
                + windows.describe() + ", " + policy + "]";
    }
}
