package dev.breaker.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.breaker.BreakerEvent;
import dev.breaker.BreakerListener;
import dev.breaker.CallObserver;
import dev.breaker.CircuitBreaker;
import dev.breaker.LateResult;
import dev.breaker.Outcome;
import dev.breaker.Permit;
import dev.breaker.State;
import dev.breaker.StateTransition;
import dev.breaker.TransitionReason;
import dev.breaker.TripSuppressed;
import dev.breaker.Windows;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The contract every {@link BreakerListener} keeps (and, when it is one too, every
 * {@link CallObserver}), as one abstract test class each implementation extends. Shipped in
 * {@code breaker-tck}; the {@code breaker-events} bus and sinks pass it.
 *
 * <p>What it holds a listener to (SPEC rule 13 seen from the listener's side):
 * <ul>
 * <li>it takes every kind of {@link BreakerEvent} there is, the figures of a half-open round
 *     ({@code NaN} slow-call rate) and extreme values included, without throwing; the contract
 *     fails when a kind is added to the sealed family that it does not try;</li>
 * <li>it is safe to call from many breakers' threads at once, and a flood of events from them
 *     does not hold the publishing threads (100,000 events from 4 threads within 30 s, generous
 *     on purpose: it catches a listener that waits per event, not one that is merely slow);</li>
 * <li>attached to a real breaker, with or without other listeners, the breaker decides exactly as
 *     without it, through a trip, a failed probe, a recovery, isolation and reset, and none of its
 *     events is dropped because of it;</li>
 * <li>as a call observer, it takes racing outcomes, rejections and late results without throwing,
 *     and a breaker it observes counts every call as one without it would.</li>
 * </ul>
 */
public abstract class BreakerListenerContract {

    private final List<AutoCloseable> made = new ArrayList<>();

    /** For subclasses. */
    protected BreakerListenerContract() {}

    /**
     * A fresh listener for one check. If it is {@link AutoCloseable}, the contract closes it after
     * the check.
     *
     * @return the listener under test
     */
    protected abstract BreakerListener listener();

    private BreakerListener fresh() {
        BreakerListener l = listener();
        if (l instanceof AutoCloseable c) {
            made.add(c);
        }
        return l;
    }

    /**
     * Closes what the checks made.
     *
     * @throws Exception when something fails
     */
    @AfterEach
    public void closeListeners() throws Exception {
        for (AutoCloseable c : made) {
            c.close();
        }
        made.clear();
    }

    /** One example of every kind of event, with ordinary and extreme values. */
    static List<BreakerEvent> everyKind() {
        return List.of(
                new StateTransition("tck", State.CLOSED, State.OPEN, 1, TransitionReason.WINDOW_TRIPPED, 5, 10, 0.5, 0),
                new StateTransition(
                        "tck",
                        State.HALF_OPEN,
                        State.CLOSED,
                        3,
                        TransitionReason.PROBES_SUCCEEDED,
                        9,
                        2,
                        0,
                        Double.NaN),
                new StateTransition(
                        "tck with spaces/and\u00e9",
                        State.ISOLATED,
                        State.CLOSED,
                        Long.MAX_VALUE,
                        TransitionReason.RESET,
                        Long.MIN_VALUE,
                        Long.MAX_VALUE,
                        1.0,
                        1.0),
                new StateTransition("tck", State.CLOSED, State.CLOSED, 2, TransitionReason.RESET, 0),
                new LateResult("tck", 1, 7),
                new TripSuppressed("tck", 4, 3, 2));
    }

    /** The contract covers every kind of event the sealed family has. */
    @Test
    public void everyKindOfEventIsTried() {
        Set<String> tried =
                everyKind().stream().map(e -> e.getClass().getName()).collect(Collectors.toSet());
        for (Class<?> kind : BreakerEvent.class.getPermittedSubclasses()) {
            assertTrue(tried.contains(kind.getName()), "the contract does not try " + kind.getName());
        }
    }

    /** Every kind of event is taken without throwing. */
    @Test
    public void takesEveryKindOfEvent() {
        BreakerListener l = fresh();
        for (BreakerEvent e : everyKind()) {
            try {
                l.onEvent(e);
            } catch (Throwable t) {
                fail("the listener threw on " + e, t);
            }
        }
    }

    /**
     * Many breakers' threads publish at once; the flood does not hold them.
     *
     * @throws Exception when something fails
     */
    @Test
    public void takesAFloodFromManyThreadsWithoutHoldingThem() throws Exception {
        BreakerListener l = fresh();
        int threads = 4;
        int each = 25_000;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CyclicBarrier start = new CyclicBarrier(threads);
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                String name = "tck-" + t;
                done.add(pool.submit(() -> {
                    start.await(10, TimeUnit.SECONDS);
                    for (int i = 1; i <= each; i++) {
                        l.onEvent(
                                i % 10 == 0
                                        ? new LateResult(name, i - 1, i)
                                        : new StateTransition(
                                                name,
                                                i % 2 == 0 ? State.OPEN : State.CLOSED,
                                                i % 2 == 0 ? State.CLOSED : State.OPEN,
                                                i,
                                                TransitionReason.RESET,
                                                i));
                    }
                    return null;
                }));
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            for (Future<?> f : done) {
                f.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** Through a real breaker's life the breaker decides as it would without the listener. */
    @Test
    public void aBreakerDecidesTheSameWithIt() {
        AtomicLong now = new AtomicLong();
        BreakerListener l = fresh();
        List<State> withIt = script(l, now);
        List<State> without = script(null, new AtomicLong());
        assertEquals(without, withIt);
    }

    private List<State> script(BreakerListener l, AtomicLong now) {
        var builder = CircuitBreaker.builder("tck-life")
                .window(Windows.consecutiveFailures(2))
                .cooldown(Duration.ofNanos(10))
                .ticker(now::get);
        if (l != null) {
            builder.listener(l).listener(e -> {}); // another listener beside it
            if (l instanceof CallObserver o) {
                builder.observer(o);
            }
        }
        CircuitBreaker b = builder.build();
        List<State> states = new ArrayList<>();
        b.tryAcquire().onFailure(0, null);
        b.tryAcquire().onFailure(0, null);
        states.add(b.state());
        states.add(b.tryAcquire().granted() ? State.CLOSED : State.OPEN);
        now.addAndGet(10);
        b.tryAcquire().onFailure(0, null);
        states.add(b.state());
        now.addAndGet(10);
        b.tryAcquire().onSuccess(0);
        states.add(b.state());
        b.isolate();
        states.add(b.state());
        b.reset();
        states.add(b.state());
        assertEquals(0, b.metrics().droppedEvents(), "no event dropped");
        return states;
    }

    /**
     * As a call observer, racing calls are taken, and the breaker's counts are those without it.
     *
     * @throws Exception when something fails
     */
    @Test
    public void asACallObserverItTakesRacingCalls() throws Exception {
        BreakerListener l = fresh();
        if (!(l instanceof CallObserver o)) {
            return; // not an observer: nothing to hold it to here
        }
        CircuitBreaker b = CircuitBreaker.builder("tck-observed")
                .window(Windows.consecutiveFailures(3))
                .cooldown(Duration.ofNanos(1))
                .listener(l)
                .observer(o)
                .build();
        int threads = 4;
        int each = 20_000;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CyclicBarrier start = new CyclicBarrier(threads);
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int seed = t;
                done.add(pool.submit(() -> {
                    start.await(10, TimeUnit.SECONDS);
                    for (int i = 0; i < each; i++) {
                        o.onRejected(b, State.OPEN); // direct calls, as a breaker makes them
                        o.onOutcome(b, Outcome.values()[(i + seed) % 3], i % 7 == 0, i);
                        o.onLate(b, Outcome.SUCCESS);
                        Permit p = b.tryAcquire();
                        if (p.granted()) {
                            if ((i + seed) % 4 == 0) {
                                p.onFailure(0, null);
                            } else {
                                p.onSuccess(0);
                            }
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        var m = b.metrics();
        assertEquals(
                (long) threads * each,
                m.totalSuccesses() + m.totalFailures() + m.totalIgnored() + m.rejectedCalls() + m.lateResults(),
                "every call counted once: " + m);
    }
}
