package dev.breaker.window.count;

import dev.breaker.spi.RateThresholds;
import dev.breaker.spi.RateWindowBuilder;
import dev.breaker.spi.WindowFactory;
import dev.breaker.window.count.internal.RingWindow;

/**
 * The count window: the last {@code size} outcomes of a breaker. It trips when it holds at least
 * {@code minimumCalls} outcomes and the failure rate or the slow-call rate is at or above its
 * threshold; optionally also on {@code consecutiveFailures} failures in a row, whichever comes
 * first ("5 in a row or 50% of the last 100").
 *
 * <pre>{@code
 * CircuitBreaker breaker = CircuitBreaker.builder("payments")
 *     .window(CountWindow.builder().size(100).failureRateThreshold(0.5).minimumCalls(20)
 *             .consecutiveFailures(5).build())
 *     .build();
 * }</pre>
 *
 * <p>Also found by name: {@code Windows.named("count", Map.of("size", "100", ...))} with the keys
 * {@code size}, {@code failureRateThreshold}, {@code slowCallRateThreshold}, {@code minimumCalls},
 * {@code consecutiveFailures}.
 */
public final class CountWindow {

    /** The largest size (a window of a million outcomes keeps up to a million bad ones, an int each). */
    public static final int MAX_SIZE = RingWindow.MAX_SIZE;
    /** The size when none is given. */
    public static final int DEFAULT_SIZE = 100;

    private CountWindow() {}

    /**
     * Starts a builder with the defaults: size 100, failure rate 0.5, slow-call rate 1.0,
     * minimum calls min(size, 100), no consecutive-failure limit.
     *
     * @return a builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /** Builds a count window factory; every setter checks its argument at once. */
    public static final class Builder extends RateWindowBuilder<Builder> {

        private int size = DEFAULT_SIZE;
        private int consecutiveFailures;

        private Builder() {}

        @Override
        protected Builder self() {
            return this;
        }

        /**
         * How many of the latest outcomes the window holds.
         *
         * @param size 1 to {@link #MAX_SIZE}
         * @return this builder
         */
        public Builder size(int size) {
            if (size < 1 || size > MAX_SIZE) {
                throw new IllegalArgumentException("size must be in [1, " + MAX_SIZE + "], was " + size);
            }
            this.size = size;
            return this;
        }

        /**
         * Also trip on this many failures in a row, whatever the rates say.
         *
         * @param threshold at least 1
         * @return this builder
         */
        public Builder consecutiveFailures(int threshold) {
            if (threshold < 1) {
                throw new IllegalArgumentException("consecutiveFailures must be >= 1, was " + threshold);
            }
            this.consecutiveFailures = threshold;
            return this;
        }

        /**
         * Checks the settings together and makes the factory.
         *
         * @return the factory, to give to {@code CircuitBreakerBuilder.window}
         * @throws IllegalArgumentException when minimumCalls exceeds size (the rates could never trip)
         */
        public WindowFactory build() {
            RateThresholds thresholds = thresholds(Math.min(size, 100));
            if (thresholds.minimumCalls() > size) {
                throw new IllegalArgumentException(
                        "minimumCalls must be <= size (" + size + "), was " + thresholds.minimumCalls());
            }
            return RingWindow.factory(size, thresholds, consecutiveFailures);
        }
    }
}
