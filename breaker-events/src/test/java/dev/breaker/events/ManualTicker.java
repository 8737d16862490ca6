package dev.breaker.events;

import dev.breaker.Ticker;
import java.util.concurrent.atomic.AtomicLong;

/** A ticker the test moves by hand, in nanoseconds; safe to read from any thread. */
final class ManualTicker implements Ticker {

    static final long MILLI = 1_000_000L;
    static final long SECOND = 1_000_000_000L;

    private final AtomicLong now;

    ManualTicker(long start) {
        this.now = new AtomicLong(start);
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
}
