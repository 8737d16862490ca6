package dev.breaker.micrometer;

import dev.breaker.BreakerMetrics;
import dev.breaker.CircuitBreaker;
import dev.breaker.CircuitBreakerConfig;
import dev.breaker.Permit;
import dev.breaker.State;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * A breaker whose readings the test sets: a state, a metrics snapshot and transition counts, each
 * of which may be made to throw. Calls are not supported.
 */
final class StubBreaker implements CircuitBreaker {

    private final String name;
    volatile State state = State.CLOSED;
    volatile BreakerMetrics metrics = metrics(State.CLOSED, 0);
    volatile RuntimeException failure;
    private final Map<State, Map<State, Long>> transitions = new EnumMap<>(State.class);

    StubBreaker(String name) {
        this.name = name;
    }

    /**
     * A snapshot whose every field differs from the others: {@code base + 1} for the generation,
     * {@code base + 2} for buffered calls, and so on in declaration order; the rates are
     * {@code 0.25} and {@code 0.125}.
     */
    static BreakerMetrics metrics(State state, long base) {
        return new BreakerMetrics(
                state,
                base + 1,
                base + 2,
                base + 3,
                base + 4,
                0.25,
                0.125,
                base + 5,
                base + 6,
                base + 7,
                (int) base + 8,
                (int) base + 9,
                base + 10,
                base + 11,
                base + 12,
                base + 13,
                base + 14,
                base + 15,
                base + 16,
                base + 17);
    }

    synchronized void transitions(State from, State to, long count) {
        transitions.computeIfAbsent(from, f -> new EnumMap<>(State.class)).put(to, count);
    }

    @Override
    public synchronized long transitions(State from, State to) {
        throwIfFailing();
        return transitions.getOrDefault(from, Map.of()).getOrDefault(to, 0L);
    }

    @Override
    public State state() {
        throwIfFailing();
        return state;
    }

    @Override
    public BreakerMetrics metrics() {
        throwIfFailing();
        return metrics;
    }

    private void throwIfFailing() {
        RuntimeException f = failure;
        if (f != null) {
            throw f;
        }
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public CircuitBreakerConfig config() {
        return CircuitBreakerConfig.defaults();
    }

    @Override
    public Permit tryAcquire() {
        throw new UnsupportedOperationException();
    }

    @Override
    public <T> T call(Callable<T> callable) {
        throw new UnsupportedOperationException();
    }

    @Override
    public <T> T get(Supplier<T> supplier) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void run(Runnable runnable) {
        throw new UnsupportedOperationException();
    }

    @Override
    public <T> CompletionStage<T> callAsync(Supplier<? extends CompletionStage<T>> supplier) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void isolate() {
        throw new UnsupportedOperationException();
    }

    @Override
    public void reset() {
        throw new UnsupportedOperationException();
    }
}
