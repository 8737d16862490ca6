package dev.breaker;

import dev.breaker.internal.ConsecutiveWindow;
import dev.breaker.internal.Discovery;
import dev.breaker.spi.WindowFactory;
import dev.breaker.spi.WindowProvider;
import java.util.Map;
import java.util.Objects;

/**
 * Ready-made windows, and lookup of windows from other modules by name.
 *
 * <p>{@link #consecutiveFailures(int)} is built in. The rate windows live in their own modules
 * ({@code breaker-window-count}: {@code "count"}; {@code breaker-window-time}: {@code "time"}),
 * which also offer typed builders.
 */
public final class Windows {

    private Windows() {}

    /**
     * The default window (SPEC rule 7): {@code threshold} failures in a row while CLOSED trip
     * the breaker; any success resets the count. Slow calls do not count.
     *
     * @param threshold failures in a row that trip, at least 1
     * @return the window factory
     * @throws IllegalArgumentException when threshold is below 1
     */
    public static WindowFactory consecutiveFailures(int threshold) {
        return ConsecutiveWindow.factory(threshold);
    }

    /**
     * Finds a window by name through {@link java.util.ServiceLoader}. Built in:
     * {@code "consecutive"} with setting {@code threshold}.
     *
     * @param name     the provider's name
     * @param settings the provider's settings (an unknown key is an error)
     * @return the window factory
     * @throws IllegalArgumentException when the name is unknown or taken twice, or a setting is
     *                                  bad; the message lists what is available
     */
    public static WindowFactory named(String name, Map<String, String> settings) {
        Objects.requireNonNull(settings, "settings");
        return Discovery.find(WindowProvider.class, "window", name, WindowProvider::name)
                .create(settings);
    }
}
