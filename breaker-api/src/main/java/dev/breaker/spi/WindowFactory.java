package dev.breaker.spi;

import dev.breaker.Ticker;

/**
 * A validated window configuration that makes one {@link Window} per CLOSED era. Obtained from
 * {@code Windows} or a window module's typed builder, and given to the breaker's builder.
 */
public interface WindowFactory {

    /**
     * Makes an empty window.
     *
     * @param ticker the breaker's ticker, for windows that need time
     * @return a new, empty window
     */
    Window create(Ticker ticker);

    /**
     * A short human description, such as {@code consecutive(threshold=5)}.
     *
     * @return the description
     */
    String describe();
}
