package dev.breaker;

import java.util.concurrent.atomic.AtomicLong;

/** A ticker the test moves by hand. Arithmetic wraps like the real one may. */
final class FakeTicker implements Ticker {

    private final AtomicLong now;

    FakeTicker() {
        this(0);
    }

    FakeTicker(long start) {
        now = new AtomicLong(start);
    }

    @Override
    public long read() {
        return now.get();
    }

    void set(long nanos) {
        now.set(nanos);
    }

    void advance(long nanos) {
        now.addAndGet(nanos);
    }

    void advanceMillis(long millis) {
        advance(millis * 1_000_000L);
    }
}
