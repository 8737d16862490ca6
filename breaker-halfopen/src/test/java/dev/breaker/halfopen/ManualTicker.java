package dev.breaker.halfopen;

import dev.breaker.Ticker;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A ticker the test moves by hand, in nanoseconds from an origin of its choosing. Arithmetic wraps
 * like a real ticker may: {@link #at} adds the origin to a time without overflow checks.
 */
final class ManualTicker implements Ticker {

    static final long MILLI = 1_000_000L;
    static final long SECOND = 1_000_000_000L;

    private final long origin;
    private final AtomicLong now;

    /** Starts at {@code origin}, which {@link #at} treats as time 0. */
    ManualTicker(long origin) {
        this.origin = origin;
        this.now = new AtomicLong(origin);
    }

    @Override
    public long read() {
        return now.get();
    }

    /** Sets the reading to {@code origin + nanos} (wrapping). */
    void at(long nanos) {
        now.set(origin + nanos);
    }
}
