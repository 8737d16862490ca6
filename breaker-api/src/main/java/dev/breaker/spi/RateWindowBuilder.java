package dev.breaker.spi;

/**
 * The settings every rate window's typed builder shares: the failure-rate and slow-call-rate
 * thresholds and the minimum number of calls (SPEC rule 8). Each setter checks its argument at
 * once and names the setting and the value.
 *
 * @param <B> the concrete builder, returned by every setter
 */
@Helper
public abstract class RateWindowBuilder<B extends RateWindowBuilder<B>> {

    private double failureRate = RateThresholds.DEFAULT_FAILURE_RATE;
    private double slowCallRate = RateThresholds.DEFAULT_SLOW_CALL_RATE;
    private Integer minimumCalls;

    /** For subclasses. */
    protected RateWindowBuilder() {}

    /**
     * This builder, as its concrete type.
     *
     * @return {@code this}
     */
    protected abstract B self();

    /**
     * The failure rate at or above which the window trips.
     *
     * @param rate in (0, 1]
     * @return this builder
     */
    public B failureRateThreshold(double rate) {
        this.failureRate = RateThresholds.checkRate(RateThresholds.FAILURE_RATE, rate);
        return self();
    }

    /**
     * The slow-call rate at or above which the window trips.
     *
     * @param rate in (0, 1]
     * @return this builder
     */
    public B slowCallRateThreshold(double rate) {
        this.slowCallRate = RateThresholds.checkRate(RateThresholds.SLOW_CALL_RATE, rate);
        return self();
    }

    /**
     * The minimum throughput: how many outcomes the window must hold before a rate can trip it.
     *
     * @param calls at least 1
     * @return this builder
     */
    public B minimumCalls(int calls) {
        if (calls < 1) {
            throw new IllegalArgumentException(RateThresholds.MINIMUM_CALLS + " must be >= 1, was " + calls);
        }
        this.minimumCalls = calls;
        return self();
    }

    /**
     * The thresholds as configured.
     *
     * @param defaultMinimumCalls the minimum calls when none was set
     * @return the thresholds
     */
    protected RateThresholds thresholds(int defaultMinimumCalls) {
        return new RateThresholds(failureRate, slowCallRate, minimumCalls != null ? minimumCalls : defaultMinimumCalls);
    }
}
