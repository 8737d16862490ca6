package dev.breaker.window.time;

import dev.breaker.spi.RateWindowBuilder;
import dev.breaker.spi.WindowFactory;
import dev.breaker.window.time.internal.BucketWindow;
import java.time.Duration;
import java.util.Objects;

/**
 * The time window: the outcomes of the last {@code length}, in {@code buckets} buckets of equal
 * width ({@code length / buckets}, rounded down to whole nanoseconds). An outcome lands in the
 * bucket of the time it is reported, read from the breaker's ticker; a bucket leaves the window
 * whole when its time is up. It trips when it holds at least {@code minimumCalls} outcomes and
 * the failure rate or the slow-call rate is at or above its threshold. No timer thread: buckets
 * are rotated by whoever records or reads, and an idle breaker does no work at all.
 *
 * <pre>{@code
 * CircuitBreaker breaker = CircuitBreaker.builder("search")
 *     .window(TimeWindow.builder().length(Duration.ofSeconds(10)).buckets(10)
 *             .failureRateThreshold(0.5).minimumCalls(20).build())
 *     .build();
 * }</pre>
 *
 * <p>Memory: three counters per bucket and a small buffer; threads that record at once are given
 * more buffers only when they are seen colliding (see {@code CombiningWindow}), so a window used
 * by one thread stays small. Rotation costs O(1) per outcome, amortized, whatever the number of
 * buckets.
 *
 * <p>Also found by name: {@code Windows.named("time", Map.of("length", "PT10S", ...))} with the
 * keys {@code length}, {@code buckets}, {@code failureRateThreshold}, {@code slowCallRateThreshold},
 * {@code minimumCalls}.
 */
public final class TimeWindow {

    /** The length when none is given. */
    public static final Duration DEFAULT_LENGTH = Duration.ofSeconds(10);
    /** The bucket count when none is given. */
    public static final int DEFAULT_BUCKETS = 10;
    /** The minimum calls when none is given. */
    public static final int DEFAULT_MINIMUM_CALLS = 100;
    /** The most buckets a window may have. */
    public static final int MAX_BUCKETS = 10_000;

    private TimeWindow() {}

    /**
     * Starts a builder with the defaults: 10 s in 10 buckets, failure rate 0.5, slow-call rate
     * 1.0, minimum calls 100.
     *
     * @return a builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /** Builds a time window factory; every setter checks its argument at once. */
    public static final class Builder extends RateWindowBuilder<Builder> {

        private Duration length = DEFAULT_LENGTH;
        private int buckets = DEFAULT_BUCKETS;

        private Builder() {}

        @Override
        protected Builder self() {
            return this;
        }

        /**
         * How far back the window looks.
         *
         * @param length longer than zero
         * @return this builder
         */
        public Builder length(Duration length) {
            Objects.requireNonNull(length, "length");
            if (length.isNegative() || length.isZero()) {
                throw new IllegalArgumentException("length must be > 0, was " + length);
            }
            if (length.compareTo(Duration.ofNanos(Long.MAX_VALUE)) > 0) {
                throw new IllegalArgumentException("length must be at most " + Duration.ofNanos(Long.MAX_VALUE)
                        + " (Long.MAX_VALUE nanoseconds, about 292 years), was " + length);
            }
            this.length = length;
            return this;
        }

        /**
         * Into how many buckets the length is split; more buckets slide more smoothly.
         *
         * @param buckets 1 to {@link #MAX_BUCKETS}, and at most the length in nanoseconds
         * @return this builder
         */
        public Builder buckets(int buckets) {
            if (buckets < 1 || buckets > MAX_BUCKETS) {
                throw new IllegalArgumentException("buckets must be in [1, " + MAX_BUCKETS + "], was " + buckets);
            }
            this.buckets = buckets;
            return this;
        }

        /**
         * Checks the settings together and makes the factory.
         *
         * @return the factory, to give to {@code CircuitBreakerBuilder.window}
         * @throws IllegalArgumentException when there are more buckets than nanoseconds in the length
         */
        public WindowFactory build() {
            long nanos = length.toNanos(); // the setter refused what does not fit
            if (buckets > nanos) {
                throw new IllegalArgumentException(
                        "buckets must be <= length in nanoseconds (" + nanos + "), was " + buckets);
            }
            return BucketWindow.factory(nanos / buckets, buckets, thresholds(DEFAULT_MINIMUM_CALLS));
        }
    }
}
