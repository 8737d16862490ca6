package dev.breaker.micrometer;

import dev.breaker.Ticker;
import java.util.concurrent.atomic.AtomicLong;

/** A ticker the test moves by hand, in nanoseconds. */
final class ManualTicker implements Ticker {

    static final long MILLI = 1_000_000L;

    private final AtomicLong now = new AtomicLong();

    @Override
    public long read() {
        return now.get();
    }

    void atMillis(long millis) {
        now.set(millis * MILLI);
    }

    void advanceMillis(long millis) {
        now.addAndGet(millis * MILLI);
    }
}
