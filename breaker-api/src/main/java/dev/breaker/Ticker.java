package dev.breaker;

/**
 * A source of monotonic time in nanoseconds. The breaker reads time only through its ticker,
 * so tests inject a fake one and never sleep.
 *
 * <p>Only differences between two readings carry meaning: the breaker compares
 * {@code now - since} with a duration, so a ticker whose value wraps past
 * {@link Long#MAX_VALUE} still gives correct decisions as long as the real spans involved are
 * below about 292 years.
 */
@FunctionalInterface
public interface Ticker {

    /**
     * Reads the current time.
     *
     * @return monotonic nanoseconds from an arbitrary origin
     */
    long read();

    /**
     * The ticker backed by {@link System#nanoTime()}.
     *
     * @return the system ticker, a singleton
     */
    static Ticker system() {
        return SystemTicker.INSTANCE;
    }
}

/** The only place in the project that reads {@link System#nanoTime()}. */
enum SystemTicker implements Ticker {
    INSTANCE;

    @Override
    public long read() {
        return System.nanoTime();
    }
}
