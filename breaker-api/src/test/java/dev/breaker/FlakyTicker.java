package dev.breaker;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/** A fake ticker that can be told to fail its next N readings. */
final class FlakyTicker implements Ticker {

    private final AtomicLong now = new AtomicLong();
    private final AtomicInteger failures = new AtomicInteger();
    private final AtomicInteger goodFirst = new AtomicInteger();

    @Override
    public long read() {
        if (goodFirst.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            return now.get();
        }
        if (failures.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            throw new TickerBroke();
        }
        return now.get();
    }

    /** After {@code good} more good readings, the next {@code n} throw. */
    void failAfter(int good, int n) {
        goodFirst.set(good);
        failures.set(n);
    }

    /** The next {@code n} readings throw {@link TickerBroke}. */
    void failNext(int n) {
        failures.set(n);
    }

    void failForever() {
        failures.set(Integer.MAX_VALUE);
    }

    void heal() {
        failures.set(0);
    }

    void advance(long nanos) {
        now.addAndGet(nanos);
    }

    /** What the broken ticker throws. */
    static final class TickerBroke extends RuntimeException {
        private static final long serialVersionUID = 1L;

        TickerBroke() {
            super("ticker broke");
        }
    }
}
