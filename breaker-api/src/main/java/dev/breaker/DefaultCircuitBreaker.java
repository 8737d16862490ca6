package dev.breaker;

import dev.breaker.internal.Names;
import dev.breaker.internal.Totals;
import dev.breaker.internal.WindowTotals;
import dev.breaker.internal.race.Races;
import dev.breaker.spi.HalfOpenPolicy;
import dev.breaker.spi.Window;
import dev.breaker.spi.WindowCounts;
import dev.breaker.spi.WindowFactory;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The state machine.
 *
 * <p><b>What is shared.</b> One volatile field holding an immutable {@link Snapshot}
 * {@code (state, generation, since, cooldown, probe counts, window, the event that began it)},
 * changed only by compare-and-set through a {@code VarHandle} (a field, not an
 * {@code AtomicReference}: one load fewer on every call, measured at about 4 ns of 20);
 * the window of the current CLOSED era, which is lock-free on its own; the running counts
 * ({@link Totals}: striped like a {@code LongAdder}, all in one object); and the event dispatcher. Nothing else changes after
 * construction.
 *
 * <p><b>The protocol.</b> Every decision reads the snapshot, computes the next one and installs
 * it with one compare-and-set against the snapshot it read. A transition (any change of state, or
 * a reset) also increments the generation; the thread whose CAS succeeds is the only one that
 * performs that transition. A thread whose CAS fails re-reads and decides again against what the
 * winner installed: it never retries its own stale decision. Because a request or an outcome
 * makes at most one successful CAS that changes the generation, one observation causes at most
 * one transition (SPEC rule 5). The transition's event is built before the CAS and travels inside
 * the new snapshot, so publishing it cannot be lost (see {@link EventDispatcher}).
 *
 * <ul>
 * <li>CLOSED: {@link #tryAcquire()} is one volatile read and returns the generation's shared
 *     permit (with {@code trackedPermits}, a one-shot permit of its own). Outcomes go to the
 *     window only while the snapshot still carries the permit's generation; a trip is a CAS to
 *     OPEN. Each CLOSED era gets a new window, so closing needs no clearing and an outcome from
 *     an older era can only land in a discarded window. An era that ramps up after recovery
 *     carries a {@link Ramp} (one shared atomic credit) in its snapshot and takes the slower
 *     path until the ramp is over; then one CAS installs the same era without it (same
 *     generation, not a transition), so a trip that loses its CAS to that swap tries again.</li>
 * <li>OPEN: the cooldown is judged by {@code now - since < cooldown}, differences only, so a
 *     wrapping ticker is harmless. The first request at or after its end wins the CAS to a
 *     HALF_OPEN snapshot whose first permit it already holds; no timer thread exists.</li>
 * <li>HALF_OPEN: probe permits are counted in the snapshot, one CAS per grant, so N permits are
 *     granted per round however many threads ask. Each outcome is a CAS that updates the counts
 *     or, when the policy decides, transitions. A round older than the maximum half-open
 *     duration is failed by the next request or report that sees it.</li>
 * </ul>
 *
 * <p><b>Plugins that fail.</b> The ticker, the classifier, the policy and the window factory are
 * the user's code. Whatever they throw or answer, a granted permit is settled exactly once and a
 * decided transition still happens; the failure then propagates to the caller. A ticker that
 * fails when the breaker opens leaves the cooldown's start pending: the first good reading starts
 * it, so the cooldown is never shortened.
 *
 * <p><b>Why no lock.</b> The dependency is never called under anything held, and the only shared
 * writes are CASes on small immutable values (rare: transitions and probe bookkeeping) and the
 * window's own counters. A lock would put one serialisation point in front of every call.
 */
final class DefaultCircuitBreaker implements CircuitBreaker {

    private static final System.Logger LOG = System.getLogger("dev.breaker");
    private static final int STATES = State.values().length;
    private static final VarHandle TRANSITION_COUNTS;

    static {
        try {
            TRANSITION_COUNTS = MethodHandles.lookup()
                    .findVarHandle(DefaultCircuitBreaker.class, "transitionCounts", AtomicLongArray.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final String name;
    private final CircuitBreakerConfig config;
    private final WindowFactory windows;
    private final HalfOpenPolicy policy;
    /** The policy's answers, checked, its failures contained. */
    private final CheckedPolicy answers;
    /** The policy's calm period (SPEC rule 14), read once. */
    private final long calmNanos;
    /** The policy's ramp-up (SPEC rule 16), read once; 0 for none. */
    private final long rampNanos;

    private final FailureClassifier classifier;
    final Ticker ticker;
    /** Calls at least this long are slow; 0 when no threshold is set (then {@link #timed} is false). */
    private final long slowCallNanos;

    final boolean timed;
    private final long maxHalfOpenNanos;
    private final long backOffMaxNanos;
    private final boolean rejectionStackTraces;
    private final boolean trackedPermits;
    /** Null when there is no listener: publishing then costs nothing. */
    private final EventDispatcher events;
    /** Null when nobody observes calls: then a call pays one null check. */
    private final Observation observer;
    /** Transitions counted by (from, to), made at the first one (an idle breaker never needs it). */
    private volatile AtomicLongArray transitionCounts;

    /** The breaker's state: every change is one compare-and-set of this field ({@link #CURRENT}). */
    private volatile Snapshot current;

    private static final java.lang.invoke.VarHandle CURRENT;

    static {
        try {
            CURRENT = java.lang.invoke.MethodHandles.lookup()
                    .findVarHandle(DefaultCircuitBreaker.class, "current", Snapshot.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Every running count: calls by outcome, rejections, late and duplicate reports, a shadow's outcomes. */
    private final Totals totals = new Totals();
    /** Null unless a shadow breaker (SPEC rule 17): then what it hands calls it would reject. */
    private final ShadowPermit shadowPermit;
    /** The registry's open-share cap this breaker is under (SPEC rule 18), or null; read on rare paths only. */
    private volatile OpenShare.Member capped;

    /** What belongs to one breaker alone, beside its config. */
    record Wiring(
            Ticker ticker,
            List<BreakerListener> listeners,
            Executor eventExecutor,
            int eventBacklog,
            CallObserver observer) {}

    @SuppressWarnings("this-escape") // the first CLOSED snapshot's shared permit refers back to this breaker
    DefaultCircuitBreaker(String name, CircuitBreakerConfig config, Wiring wiring) {
        this.name = name;
        this.config = config;
        this.windows = config.window();
        this.policy = config.halfOpen();
        this.answers = new CheckedPolicy(name, policy);
        this.calmNanos = policy.calmPeriodNanos();
        this.rampNanos = policy.rampUpNanos();
        this.classifier = config.classifier();
        this.ticker = wiring.ticker();
        this.slowCallNanos = config.slowCallThreshold().map(Duration::toNanos).orElse(0L);
        this.timed = slowCallNanos > 0;
        this.maxHalfOpenNanos = config.maxHalfOpenDuration().toNanos();
        this.backOffMaxNanos = config.backOffMax().toNanos();
        this.rejectionStackTraces = config.rejectionStackTraces();
        this.trackedPermits = config.trackedPermits();
        boolean shadow = config.shadow();
        this.shadowPermit = shadow ? new ShadowPermit(this) : null;
        this.current = Snapshot.closed(this, 0, ticker.read(), true, newWindow(), 0, 0, null, null);
        this.observer = wiring.observer() == null ? null : new Observation(this, wiring.observer());
        this.events = wiring.listeners().isEmpty()
                ? null
                : new EventDispatcher(
                        name, wiring.listeners(), () -> current, wiring.eventExecutor(), wiring.eventBacklog());
    }

    /**
     * The config this breaker was built from.
     *
     * @return the config
     */
    @Override
    public CircuitBreakerConfig config() {
        return config;
    }

    /** A fresh window from the factory, checked. */
    private Window newWindow() {
        Window w = windows.create(ticker);
        if (w == null) {
            throw new IllegalStateException("window factory " + describe() + " returned null from create()");
        }
        // a window that can counts this breaker's calls itself; one that counts another's is refused
        WindowTotals.attach(w, totals);
        if (WindowTotals.countsForAnother(w, totals)) {
            throw new IllegalStateException(
                    "window factory " + describe()
                            + " returned a window another breaker already records into: create() must make a new window each time");
        }
        return w;
    }

    /** Whether every CLOSED call gets a permit of its own ({@code trackedPermits}). */
    boolean tracksPermits() {
        return trackedPermits;
    }

    /** Whether a window this breaker made counts its calls (then a call records into the window alone). */
    boolean countsInto(Window w) {
        return WindowTotals.countsInto(w, totals);
    }

    private WindowCounts counts(Window w) {
        WindowCounts c = w.counts();
        if (c == null) {
            throw new IllegalStateException("window of " + describe() + " returned null from counts()");
        }
        return c;
    }

    /** What an era leaving {@code s} keeps for the metrics, and the failures met on the way there. */
    private record Ending(WindowCounts frozen, Throwable failure) {}

    /**
     * The counts frozen when the era of {@code s} ends: those it froze already (HALF_OPEN keeps the
     * CLOSED era's that tripped), or its window's now. A window whose counts fail leaves empty
     * counts, and its failure joins {@code failure}: the transition must happen anyway.
     */
    private Ending ending(Snapshot s, Throwable failure) {
        if (s.frozen != null) {
            return new Ending(s.frozen, failure);
        }
        try {
            return new Ending(counts(s.window), failure);
        } catch (Throwable t) {
            return new Ending(WindowCounts.empty(), combine(failure, t));
        }
    }

    @Override
    public String name() {
        return name;
    }

    // ---------------------------------------------------------------- permission

    @Override
    public Permit tryAcquire() {
        return acquire();
    }

    /** The permit decision for {@link #tryAcquire()}: a rejection is a {@link RejectedPermit}. */
    private Permit acquire() {
        Snapshot s = current;
        Permit fast = s.fastPermit;
        if (fast != null) {
            return fast;
        }
        if (s.state == State.CLOSED && s.ramp == null) {
            return closedPermit(s);
        }
        return (Permit) acquireSlow(s, false);
    }

    /**
     * The permit decision for the execute methods: a granted {@link Permit}, or the
     * {@link CallNotPermittedException} to throw, built from the same clock reading and snapshot
     * that decided it. Returned, not thrown, so that the throw happens in the small execute
     * method, where the JIT can compile it with the caller's catch (a throw deep in the slow path
     * unwinds through the runtime, several times slower).
     */
    Object acquireForCall() {
        Snapshot s = current;
        Permit fast = s.fastPermit;
        if (fast != null) {
            return fast;
        }
        if (s.state == State.CLOSED && s.ramp == null) {
            return closedPermit(s);
        }
        return acquireSlow(s, true);
    }

    /** A CLOSED snapshot's permit for one call: the shared one, or one of its own with {@code trackedPermits}. */
    private Permit closedPermit(Snapshot s) {
        return trackedPermits ? new TrackedClosedPermit(this, s.generation, s.window, s.windowCounts) : s.closedPermit;
    }

    private Object acquireSlow(Snapshot s, boolean forCall) {
        for (; ; s = current) {
            if (s.state == State.CLOSED) {
                if (s.ramp == null) {
                    return closedPermit(s);
                }
                Object answer = rampAdmission(s, forCall);
                if (answer != null) {
                    return answer;
                }
                continue; // the ramp ended or started: read again
            }
            if (s.state == State.ISOLATED) {
                return reject(RejectedPermit.ISOLATED, forCall, -1);
            }
            long now = ticker.read(); // a throwing ticker propagates here: nothing was granted or changed
            if (!s.sinceKnown) { // OPEN, and the ticker failed when it opened: the cooldown starts now
                if (CURRENT.compareAndSet(this, s, s.startedAt(now))) {
                    return reject(RejectedPermit.OPEN, forCall, s.cooldownNanos);
                }
                continue;
            }
            long elapsed = Math.max(0, now - s.since); // a ticker that stepped back has not moved on
            if (s.state == State.OPEN) {
                if (elapsed < s.cooldownNanos) {
                    return reject(RejectedPermit.OPEN, forCall, s.cooldownNanos - elapsed);
                }
                Snapshot next = Snapshot.halfOpen(
                        s.generation + 1,
                        now,
                        s.cooldownNanos,
                        s.opens,
                        answers.probesFor(round(s.opens)),
                        s.window,
                        s.frozen,
                        event(s, State.HALF_OPEN, TransitionReason.COOLDOWN_ELAPSED, now, s.frozen));
                if (transition(s, next)) {
                    return new ProbePermit(this, next.generation);
                }
            } else if (elapsed >= maxHalfOpenNanos) { // HALF_OPEN, round expired
                Snapshot reopened = reopen(s, now, true, TransitionReason.HALF_OPEN_TIMEOUT, s.successes, s.failures);
                if (transition(s, reopened)) {
                    return reject(RejectedPermit.OPEN, forCall, reopened.cooldownNanos);
                }
            } else if (s.admitted >= s.roundProbes) {
                return reject(RejectedPermit.HALF_OPEN, forCall, maxHalfOpenNanos - elapsed);
            } else if (CURRENT.compareAndSet(this, s, s.withProbes(s.admitted + 1, s.successes, s.failures))) {
                return new ProbePermit(this, s.generation);
            }
        }
    }

    /**
     * Counts a rejection and answers it: the permit, or for a call the exception to throw.
     *
     * @param retryAfterNanos until a probe may be allowed, or -1 when only reset() will
     */
    private Object reject(RejectedPermit permit, boolean forCall, long retryAfterNanos) {
        totals.increment(Totals.REJECTED);
        if (observer != null) {
            observer.rejected(permit.state);
        }
        if (shadowPermit != null) {
            return shadowPermit; // rule 17: decided as a rejection, let through
        }
        if (forCall) {
            return new CallNotPermittedException(name, permit.state, retryAfterNanos, rejectionStackTraces);
        }
        return permit;
    }

    /**
     * A request while CLOSED and ramping up (SPEC rule 16): admitted when its share carries the
     * ramp's credit over a whole unit, else rejected as shed. Null when the snapshot was replaced
     * instead (the ramp is over, or its start is now known): the caller reads again.
     */
    private Object rampAdmission(Snapshot s, boolean forCall) {
        long now;
        try {
            now = ticker.read();
        } catch (Throwable e) { // a broken ticker must not shed traffic either: the ramp ends, admitting all
            endBrokenRamp(s, () -> "its ticker failed during the ramp", e);
            return null;
        }
        if (!s.sinceKnown) { // the ticker failed at the close: the ramp starts now
            CURRENT.compareAndSet(this, s, s.startedAt(now));
            return null;
        }
        Ramp ramp = s.ramp;
        long elapsed = Math.max(0, now - s.since); // a ticker that stepped back has not moved on
        if (elapsed >= ramp.nanos) {
            CURRENT.compareAndSet(this, s, s.rampEnded()); // not a transition: same generation, same permit
            return null;
        }
        double share;
        try {
            share = policy.rampShare(elapsed);
        } catch (Throwable e) { // an Error too: a broken policy must not shed traffic
            endBrokenRamp(
                    s,
                    () -> "half-open policy " + answers.describe() + " answered rampShare(" + elapsed
                            + ") with a failure",
                    e);
            return null;
        }
        if (!(share > 0 && share <= 1)) {
            double bad = share;
            endBrokenRamp(
                    s,
                    () -> "half-open policy " + answers.describe() + " answered rampShare(" + elapsed + ") = " + bad
                            + ", outside (0, 1]",
                    null);
            return null;
        }
        if (ramp.admit(share)) {
            return closedPermit(s);
        }
        return reject(RejectedPermit.RAMPING, forCall, ramp.nanos - elapsed);
    }

    /**
     * A ramp that cannot go on (the policy's share throws or leaves (0, 1], or the ticker fails):
     * it ends, every call is admitted, and the one thread whose CAS ends it logs why.
     */
    private void endBrokenRamp(Snapshot s, Supplier<String> why, Throwable failure) {
        if (CURRENT.compareAndSet(this, s, s.rampEnded())) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    () -> "breaker '" + name + "': " + why.get() + "; the ramp ends and every call is admitted",
                    failure);
        }
    }

    // ---------------------------------------------------------------- outcomes

    /**
     * The classifier's verdict on the unwrapped cause (SPEC rule 10). An {@link Error}, a
     * cancellation and an interruption are never shown to it: they release the permit. Throws
     * (naming the classifier) on a null answer.
     */
    Outcome classify(Object result, Throwable failure) {
        Throwable cause = failure == null ? null : Causes.unwrap(failure);
        if (cause instanceof Error || Causes.gaveUp(cause)) {
            return Outcome.IGNORED;
        }
        Outcome outcome = classifier.classify(result, cause);
        if (outcome == null) {
            throw new IllegalStateException(
                    "classifier " + classifier + " returned null for result " + result + " and exception " + failure);
        }
        return outcome;
    }

    boolean slow(long durationNanos) {
        return timed && durationNanos >= slowCallNanos;
    }

    /**
     * The duration a caller's timeout is recorded with: the slow-call threshold, so that a timeout is
     * slow whenever a threshold is set (SPEC rule 10). How long the caller waited tells no more: a
     * window sees only "failed" and "slow".
     */
    long timeoutNanos() {
        return timed ? slowCallNanos : 0;
    }

    /**
     * Records a CLOSED-era outcome into that era's window, unless the era is over (a late result).
     * The permit hands over the window and its counting mode itself rather than have them read
     * from the current snapshot: they are the era's, so equal to the snapshot's whenever the
     * generation matches, and the window's own loads then need not wait for the snapshot's (a
     * chain of dependent loads shorter by two on every call; measured at 1 thread, count 100,
     * 10% failures and 10% slow calls: 9.0 to 7.9 ns, with the snapshot's {@code fastPermit}).
     */
    void recordClosed(
            long generation,
            Window window,
            boolean windowCounts,
            Outcome outcome,
            long durationNanos,
            long endNanos,
            boolean endKnown) {
        if (outcome == Outcome.IGNORED) {
            totals.increment(Totals.IGNORED);
            if (observer != null) {
                observer.outcome(Outcome.IGNORED, false, durationNanos);
            }
            return; // a release carries no outcome, so it is never late either
        }
        Snapshot s = current;
        if (s.generation != generation) {
            lateResult(generation, s.generation, outcome);
            return;
        }
        boolean failed = outcome == Outcome.FAILURE;
        boolean slow = slow(durationNanos);
        if (!windowCounts) {
            totals.record(failed, slow);
        }
        try {
            if (endKnown ? window.recordAt(failed, slow, endNanos) : window.record(failed, slow)) {
                trip(s);
            }
        } finally { // a window or ticker that throws still leaves the call counted, so it is observed too
            if (observer != null) {
                observer.outcome(outcome, slow, durationNanos);
            }
        }
    }

    /**
     * CLOSED to OPEN after the window tripped. A failed CAS means another thread already moved on,
     * unless the generation is the same (a ramp ended meanwhile): then it tries again.
     */
    private void trip(Snapshot s) {
        OpenShare.Member cap = capped;
        if (cap != null && !cap.tryTake(s.generation)) { // rule 18: the cap is full; stay CLOSED, the window goes on
            if (cap.firstSuppression(s.generation) && events != null) {
                events.other(new TripSuppressed(name, s.generation, cap.taken(), cap.limit()));
            }
            return;
        }
        Reading clock = Reading.of(ticker); // a broken ticker opens anyway: the first good reading starts the cooldown
        boolean known = clock.known;
        Throwable failure = clock.failure;
        long generation = s.generation;
        do {
            long now = known ? clock.now : s.since;
            int carried = openingsCarried(s, now, known);
            int opens = saturatedIncrement(carried);
            // a failing policy: the last good cooldown of the openings carried, else the first
            long cooldown = answers.cooldownFor(opens, carried > 0 ? s.cooldownNanos : answers.firstCooldownNanos);
            Ending ending = ending(s, failure);
            if (transition(
                    s,
                    Snapshot.open(
                            s.generation + 1,
                            now,
                            known,
                            cooldown,
                            opens,
                            s.window,
                            ending.frozen(),
                            event(s, State.OPEN, TransitionReason.WINDOW_TRIPPED, now, ending.frozen())))) {
                failure = ending.failure();
                break;
            }
            s = current;
        } while (s.generation == generation);
        if (cap != null) { // the trip lost to a reset or a back-off, or a reset followed it: its place is not needed
            Snapshot now = current;
            cap.settleTrip(generation, now.state, now.generation);
        }
        rethrow(failure);
    }

    /**
     * The consecutive openings a CLOSED era carries at {@code now} (SPEC rule 14): those it began
     * with, or 0 once it has been CLOSED for the calm period (0: at once). With the time unknown
     * (a broken ticker) the count is carried: a broken clock never shortens a cooldown.
     */
    private int openingsCarried(Snapshot s, long now, boolean known) {
        if (calmNanos == 0 || (known && s.sinceKnown && now - s.since >= calmNanos)) {
            return 0;
        }
        return s.opens;
    }

    /**
     * The round a policy is asked about: the count of consecutive openings, at least 1 (a round
     * after a back-off from a breaker that had not opened since it last started over has a count
     * of 0: rule 19's opening does not count).
     */
    private static int round(int opens) {
        return Math.max(1, opens);
    }

    private static int saturatedIncrement(int opens) {
        return opens == Integer.MAX_VALUE ? opens : opens + 1;
    }

    /** The classifier's back-off verdict on a failed call, capped; 0 for an ordinary failure (SPEC rule 19). */
    long backOffNanos(Object result, Throwable failure) {
        long delay = classifier.retryAfterNanos(result, failure == null ? null : Causes.unwrap(failure));
        return delay <= 0 ? 0 : Math.min(delay, backOffMaxNanos);
    }

    /** The back-off a caller's own failure report asks for: only a {@link RetryAfter} exception's, capped. */
    long retryAfterOf(Throwable failure) {
        if (failure == null) {
            return 0;
        }
        long delay = dev.breaker.internal.DefaultClassifier.retryAfterNanos(Causes.unwrap(failure));
        return delay <= 0 ? 0 : Math.min(delay, backOffMaxNanos);
    }

    /** A CLOSED-era permit's back-off: open at once for the delay, unless its generation ended (late). */
    void backOffClosed(long generation, long delayNanos) {
        for (; ; ) {
            Snapshot s = current;
            if (s.generation != generation) {
                lateResult(generation, s.generation, Outcome.FAILURE);
                return;
            }
            if (openForBackOff(s, delayNanos)) {
                return;
            }
        }
    }

    /** A probe's back-off: open at once for the delay, unless its round ended (late). */
    void backOffProbe(ProbePermit permit, long delayNanos) {
        if (!permit.claimReport()) {
            duplicateReport();
            return;
        }
        for (; ; ) {
            Snapshot s = current;
            if (s.generation != permit.generation) {
                lateResult(permit.generation, s.generation, Outcome.FAILURE);
                return;
            }
            if (openForBackOff(s, delayNanos)) {
                return;
            }
        }
    }

    /**
     * OPEN for exactly the delay the dependency asked for (capped already), with its own reason;
     * the consecutive openings stay as they were (SPEC rules 14 and 19).
     *
     * @return false when another thread moved the breaker first (the caller re-reads)
     */
    private boolean openForBackOff(Snapshot s, long delayNanos) {
        Reading clock = Reading.of(ticker);
        long now = clock.known ? clock.now : s.since;
        Ending ending = ending(s, clock.failure);
        int opens = s.state == State.CLOSED ? openingsCarried(s, now, clock.known) : s.opens;
        boolean done = transition(
                s,
                Snapshot.open(
                        s.generation + 1,
                        now,
                        clock.known,
                        delayNanos,
                        opens,
                        s.window,
                        ending.frozen(),
                        s.state == State.HALF_OPEN
                                ? roundEvent(s, State.OPEN, TransitionReason.BACK_OFF, now, s.successes, s.failures + 1)
                                : event(s, State.OPEN, TransitionReason.BACK_OFF, now, ending.frozen())));
        if (done) {
            OpenShare.Member cap = capped;
            if (cap != null && s.state == State.CLOSED) {
                cap.backedOff(s.generation); // outside the cap: a racing trip of this era took a place for nothing
            }
            totals.record(true, false); // the call failed; how long it took is not known here
            if (observer != null) {
                observer.outcome(Outcome.FAILURE, false, -1);
            }
            rethrow(ending.failure());
        }
        return done;
    }

    /** The outcome of a call a shadow breaker would have rejected: counted apart, deciding nothing. */
    void shadowOutcome(Outcome outcome) {
        if (outcome == Outcome.SUCCESS) {
            totals.increment(Totals.SHADOW_SUCCESSES);
        } else if (outcome == Outcome.FAILURE) {
            totals.increment(Totals.SHADOW_FAILURES);
        }
    }

    void duplicateReport() {
        totals.increment(Totals.DUPLICATES);
    }

    void recordProbe(ProbePermit permit, Outcome outcome, long durationNanos) {
        if (!permit.claimReport()) {
            duplicateReport();
            return;
        }
        if (outcome == Outcome.IGNORED) {
            totals.increment(Totals.IGNORED);
            releaseProbe(permit.generation);
            if (observer != null) {
                observer.outcome(Outcome.IGNORED, false, durationNanos);
            }
            return;
        }
        Reading clock =
                Reading.of(ticker); // broken: judge without the timeout check; a reopening starts its cooldown later
        boolean known = clock.known;
        long now = clock.now;
        Throwable failure = clock.failure;
        boolean failed = outcome == Outcome.FAILURE || slow(durationNanos);
        for (; ; ) {
            Snapshot s = current;
            if (s.generation != permit.generation) {
                lateResult(permit.generation, s.generation, outcome);
                break;
            }
            if (known && now - s.since >= maxHalfOpenNanos) {
                if (transition(s, reopen(s, now, true, TransitionReason.HALF_OPEN_TIMEOUT, s.successes, s.failures))) {
                    counted(outcome, durationNanos);
                    break;
                }
                continue;
            }
            int successes = failed ? s.successes : s.successes + 1;
            int failures = failed ? s.failures + 1 : s.failures;
            HalfOpenPolicy.Verdict verdict;
            Window fresh = null;
            try {
                verdict = answers.decide(round(s.opens), successes, failures);
                if (verdict == HalfOpenPolicy.Verdict.CLOSE) {
                    fresh = newWindow();
                }
            } catch (Throwable t) { // no verdict can be had: give the slot back, then report the failure
                totals.increment(Totals.IGNORED);
                releaseProbe(permit.generation);
                if (observer != null) {
                    observer.outcome(Outcome.IGNORED, false, durationNanos);
                }
                rethrow(combine(failure, t));
                return;
            }
            long at = known ? now : s.since;
            boolean done = switch (verdict) {
                case CLOSE ->
                    transition(
                            s,
                            Snapshot.closed(
                                    this,
                                    s.generation + 1,
                                    at,
                                    known,
                                    fresh,
                                    s.opens,
                                    s.cooldownNanos,
                                    rampNanos > 0 ? new Ramp(rampNanos) : null,
                                    roundEvent(
                                            s,
                                            State.CLOSED,
                                            TransitionReason.PROBES_SUCCEEDED,
                                            at,
                                            successes,
                                            failures)));
                case OPEN -> transition(s, reopen(s, at, known, TransitionReason.PROBE_FAILED, successes, failures));
                case WAIT -> CURRENT.compareAndSet(this, s, s.withProbes(s.admitted, successes, failures));
            };
            if (done) {
                counted(outcome, durationNanos);
                break;
            }
        }
        rethrow(failure);
    }

    /** Gives a probe's slot back; a release is never late, so nothing happens once its round has ended. */
    private void releaseProbe(long generation) {
        for (; ; ) {
            Snapshot s = current;
            if (s.generation != generation
                    || CURRENT.compareAndSet(this, s, s.withProbes(s.admitted - 1, s.successes, s.failures))) {
                return;
            }
        }
    }

    /** A probe's outcome counted in the totals (it decided its round), and observed. */
    private void counted(Outcome outcome, long durationNanos) {
        boolean slow = slow(durationNanos);
        totals.record(outcome == Outcome.FAILURE, slow);
        if (observer != null) {
            observer.outcome(outcome, slow, durationNanos);
        }
    }

    private void lateResult(long permitGeneration, long currentGeneration, Outcome outcome) {
        totals.increment(Totals.LATE);
        if (observer != null) {
            observer.late(outcome);
        }
        if (events != null) {
            events.other(new LateResult(name, permitGeneration, currentGeneration));
        }
    }

    /**
     * OPEN again after a HALF_OPEN round: one more consecutive open, a cooldown from the policy,
     * starting at {@code at}. Should the policy fail, the cooldown before the round is used (a
     * HALF_OPEN snapshot carries it), even when it was 0.
     */
    private Snapshot reopen(Snapshot s, long at, boolean known, TransitionReason reason, int successes, int failures) {
        int opens = saturatedIncrement(s.opens);
        long cooldown = answers.cooldownFor(opens, s.cooldownNanos);
        return Snapshot.open(
                s.generation + 1,
                at,
                known,
                cooldown,
                opens,
                s.window,
                s.frozen,
                roundEvent(s, State.OPEN, reason, at, successes, failures));
    }

    /**
     * The event of a transition away from {@code s} decided on a window's counts (null: none), or
     * null when nobody listens.
     */
    private StateTransition event(Snapshot s, State to, TransitionReason reason, long at, WindowCounts counts) {
        if (events == null) {
            return null;
        }
        WindowCounts c = counts != null ? counts : WindowCounts.empty();
        return new StateTransition(
                name, s.state, to, s.generation + 1, reason, at, c.calls(), c.failureRate(), c.slowCallRate());
    }

    /** The event of a transition decided on a half-open round's probes, or null when nobody listens. */
    private StateTransition roundEvent(
            Snapshot s, State to, TransitionReason reason, long at, int successes, int failures) {
        if (events == null) {
            return null;
        }
        long calls = (long) successes + failures;
        double failureRate = calls == 0 ? 0.0 : (double) failures / calls;
        return new StateTransition(
                name, s.state, to, s.generation + 1, reason, at, calls, failureRate, Double.NaN); // slow = failed here
    }

    /** The figures a reset's event carries: those frozen, else the window's now (empty if it fails). */
    private WindowCounts figuresAtReset(Snapshot s) {
        if (events == null || s.frozen != null) {
            return s.frozen;
        }
        try {
            return counts(s.window);
        } catch (Throwable t) { // the reset happens anyway; the window's failure shows elsewhere
            return null;
        }
    }

    /** The only way the generation changes: one CAS; the new snapshot carries its event to the dispatcher. */
    private boolean transition(Snapshot from, Snapshot to) {
        EventDispatcher ev = events;
        if (ev != null) {
            ev.beforeTransition(from);
        }
        if (from.window != to.window) {
            // its calls move to the totals first; a failed CAS only leaves it counting there directly
            WindowTotals.retire(from.window, totals);
        }
        if (!CURRENT.compareAndSet(this, from, to)) {
            return false;
        }
        Races.at(Races.TRANSITIONED);
        countTransition(from.state, to.state);
        OpenShare.Member cap = capped;
        if (cap != null) {
            if (to.state == State.CLOSED) {
                cap.giveBackBefore(to.generation); // every way back to CLOSED gives the place back (rule 18)
            } else if (to.state == State.ISOLATED) {
                cap.take(to.generation); // never refused, and counted
                Snapshot now = current; // a reset may have closed it before the place was held
                cap.settle(now.state, now.generation);
            }
        }
        if (ev != null) {
            ev.afterTransition();
        }
        return true;
    }

    private void countTransition(State from, State to) {
        AtomicLongArray counts = transitionCounts;
        if (counts == null) {
            TRANSITION_COUNTS.compareAndSet(this, null, new AtomicLongArray(STATES * STATES)); // the first one wins
            counts = transitionCounts;
        }
        counts.incrementAndGet(from.ordinal() * STATES + to.ordinal());
    }

    @Override
    public long transitions(State from, State to) {
        java.util.Objects.requireNonNull(from, "from");
        java.util.Objects.requireNonNull(to, "to");
        AtomicLongArray counts = transitionCounts;
        return counts == null ? 0 : counts.get(from.ordinal() * STATES + to.ordinal());
    }

    /**
     * Puts this breaker under a registry's open-share cap (before anyone can use it).
     *
     * @return its membership, to {@linkplain OpenShare.Member#admit admit} once published
     */
    OpenShare.Member joinCap(OpenShare cap) {
        OpenShare.Member member = cap.join();
        capped = member;
        return member;
    }

    /** Takes this breaker out of its cap (removed or evicted): its place, if any, goes back. */
    void leaveCap() {
        OpenShare.Member cap = capped;
        if (cap != null) {
            cap.leave();
        }
    }

    // ---------------------------------------------------------------- manual control and reading

    @Override
    public void isolate() {
        Reading clock = Reading.of(ticker); // isolating must work even with a broken ticker
        boolean known = clock.known;
        long now = clock.now;
        Throwable failure = clock.failure;
        for (Snapshot s = current; s.state != State.ISOLATED; s = current) {
            Ending ending = ending(s, failure);
            failure = ending.failure();
            long at = known ? now : s.since;
            if (transition(
                    s,
                    Snapshot.isolated(
                            s.generation + 1,
                            at,
                            known,
                            s.window,
                            ending.frozen(),
                            event(s, State.ISOLATED, TransitionReason.ISOLATED, at, ending.frozen())))) {
                break;
            }
        }
        rethrow(failure);
    }

    @Override
    public void reset() {
        Window fresh = newWindow(); // a factory that fails leaves the breaker as it was
        Reading clock = Reading.of(ticker); // resetting must work even with a broken ticker
        boolean known = clock.known;
        long now = clock.now;
        Throwable failure = clock.failure;
        for (; ; ) {
            Snapshot s = current;
            long at = known ? now : s.since;
            if (transition(
                    s,
                    Snapshot.closed(
                            this,
                            s.generation + 1,
                            at,
                            known,
                            fresh,
                            0,
                            0,
                            null,
                            event(s, State.CLOSED, TransitionReason.RESET, at, figuresAtReset(s))))) {
                break;
            }
        }
        rethrow(failure);
    }

    @Override
    public State state() {
        return current.state;
    }

    @Override
    public long retryAfterNanos() {
        Snapshot s = current;
        if (s.state == State.ISOLATED) {
            return -1;
        }
        if (s.state != State.OPEN) {
            return 0;
        }
        if (!s.sinceKnown) { // the ticker failed when it opened: the cooldown starts at the next good reading
            return s.cooldownNanos;
        }
        Reading clock = Reading.of(ticker);
        if (!clock.known) { // a health check never fails with the ticker: no time known to have passed
            return s.cooldownNanos;
        }
        long elapsed = Math.max(0, clock.now - s.since); // as tryAcquire measures it
        return elapsed < s.cooldownNanos ? s.cooldownNanos - elapsed : 0;
    }

    /**
     * Every call counted so far, each outcome's count apart: values that move while the breaker
     * is used and stand still while it is idle (the registry's idle eviction compares it between
     * sweeps; nothing is added to a call for it).
     */
    long[] activity() {
        long[] each = java.util.Arrays.copyOf(WindowTotals.calls(current.window, totals), Totals.LATE + 1);
        for (int slot = Totals.IGNORED; slot <= Totals.LATE; slot++) {
            each[slot] = totals.sum(slot);
        }
        return each;
    }

    @Override
    public BreakerMetrics metrics() {
        Snapshot s = current;
        long[] calls =
                WindowTotals.calls(s.window, totals); // each read once: a subset read twice could exceed its total
        WindowCounts c = s.frozen != null ? s.frozen : counts(s.window);
        return new BreakerMetrics(
                s.state,
                s.generation,
                c.calls(),
                c.failures(),
                c.slowCalls(),
                c.failureRate(),
                c.slowCallRate(),
                totals.sum(Totals.REJECTED),
                totals.sum(Totals.LATE),
                totals.sum(Totals.DUPLICATES),
                s.admitted,
                s.successes,
                events == null ? 0 : events.dropped(),
                calls[Totals.FAST_SUCCESSES] + calls[Totals.SLOW_SUCCESSES],
                calls[Totals.FAST_FAILURES] + calls[Totals.SLOW_FAILURES],
                calls[Totals.SLOW_SUCCESSES],
                calls[Totals.SLOW_FAILURES],
                totals.sum(Totals.IGNORED),
                totals.sum(Totals.SHADOW_SUCCESSES),
                totals.sum(Totals.SHADOW_FAILURES));
    }

    // ---------------------------------------------------------------- execution (see Calls)

    @Override
    public <T> T call(Callable<T> callable) throws Exception {
        return Calls.call(this, callable);
    }

    @Override
    public <T> T get(Supplier<T> supplier) {
        return Calls.get(this, supplier);
    }

    @Override
    public void run(Runnable runnable) {
        Calls.run(this, runnable);
    }

    @Override
    public <T> T call(Callable<T> callable, Function<? super Exception, ? extends T> fallback) {
        return Calls.call(this, callable, fallback);
    }

    @Override
    public <T> T get(Supplier<T> supplier, Function<? super RuntimeException, ? extends T> fallback) {
        return Calls.get(this, supplier, fallback);
    }

    @Override
    public void run(Runnable runnable, Consumer<? super RuntimeException> fallback) {
        Calls.run(this, runnable, fallback);
    }

    @Override
    public <T> CompletionStage<T> callAsync(Supplier<? extends CompletionStage<T>> supplier) {
        return AsyncCall.start(this, supplier, null);
    }

    @Override
    public <T> CompletionStage<T> callAsync(
            Supplier<? extends CompletionStage<T>> supplier, Function<? super Throwable, ? extends T> fallback) {
        java.util.Objects.requireNonNull(fallback, "fallback");
        return AsyncCall.start(this, supplier, fallback);
    }

    @Override
    public String toString() {
        Snapshot s = current;
        return "CircuitBreaker[" + name + ", " + s.state + ", generation " + s.generation + ", " + describe() + "]";
    }

    /** The window and the policy, as they say; safe from a plugin whose description throws. */
    private String describe() {
        return Names.describe(windows::describe, windows) + ", " + answers.describe();
    }

    // ---------------------------------------------------------------- failures of plugins

    /** A reading of the ticker that may have failed: then {@code known} is false and {@code failure} says why. */
    private static final class Reading {
        final long now;
        final boolean known;
        final Throwable failure;

        private Reading(long now, boolean known, Throwable failure) {
            this.now = now;
            this.known = known;
            this.failure = failure;
        }

        static Reading of(Ticker ticker) {
            try {
                return new Reading(ticker.read(), true, null);
            } catch (Throwable t) {
                return new Reading(0, false, t);
            }
        }
    }

    /** Keeps the first failure, the later ones suppressed in it. */
    static Throwable combine(Throwable first, Throwable next) {
        if (first == null) {
            return next;
        }
        if (next != null && next != first) {
            first.addSuppressed(next);
        }
        return first;
    }

    /** Throws {@code failure} as it is (unchecked or not), if there is one. */
    static void rethrow(Throwable failure) {
        if (failure != null) {
            DefaultCircuitBreaker.<RuntimeException>sneaky(failure);
        }
    }

    @SuppressWarnings("unchecked")
    private static <E extends Throwable> void sneaky(Throwable failure) throws E {
        throw (E) failure;
    }
}
