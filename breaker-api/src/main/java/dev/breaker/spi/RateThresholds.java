package dev.breaker.spi;

/**
 * The trip rule of rate windows (SPEC rules 8 and 9): after an outcome is recorded, the window
 * trips when it holds at least {@code minimumCalls} outcomes and the failure rate, or the
 * slow-call rate, is at or above its threshold.
 *
 * <p>Rates are compared as {@code (double) count / calls >= threshold}: a correctly rounded
 * quotient equals the threshold parsed from the same decimal whenever the true ratio does, so
 * 3 failures of 10 trip a threshold of 0.3 (a product {@code 0.3 * 10} would not).
 *
 * @param failureRateThreshold  in (0, 1]
 * @param slowCallRateThreshold in (0, 1]
 * @param minimumCalls          at least 1
 */
@Helper
public record RateThresholds(double failureRateThreshold, double slowCallRateThreshold, int minimumCalls) {

    /** Setting key of the failure-rate threshold. */
    public static final String FAILURE_RATE = "failureRateThreshold";
    /** Setting key of the slow-call-rate threshold. */
    public static final String SLOW_CALL_RATE = "slowCallRateThreshold";
    /** Setting key of the minimum number of calls. */
    public static final String MINIMUM_CALLS = "minimumCalls";
    /** Failure-rate threshold when none is given. */
    public static final double DEFAULT_FAILURE_RATE = 0.5;
    /** Slow-call-rate threshold when none is given: only a window of nothing but slow calls trips. */
    public static final double DEFAULT_SLOW_CALL_RATE = 1.0;

    /**
     * Validates the thresholds.
     *
     * @param failureRateThreshold  in (0, 1]
     * @param slowCallRateThreshold in (0, 1]
     * @param minimumCalls          at least 1
     * @throws IllegalArgumentException naming the setting and value
     */
    public RateThresholds {
        checkRate(FAILURE_RATE, failureRateThreshold);
        checkRate(SLOW_CALL_RATE, slowCallRateThreshold);
        if (minimumCalls < 1) {
            throw new IllegalArgumentException(MINIMUM_CALLS + " must be >= 1, was " + minimumCalls);
        }
    }

    /**
     * Reads the three settings, with defaults.
     *
     * @param settings            the provider's settings
     * @param defaultMinimumCalls the minimum calls when the key is absent
     * @return the thresholds
     * @throws IllegalArgumentException naming the key and value
     */
    public static RateThresholds from(Settings settings, int defaultMinimumCalls) {
        return new RateThresholds(
                settings.rate(FAILURE_RATE, DEFAULT_FAILURE_RATE),
                settings.rate(SLOW_CALL_RATE, DEFAULT_SLOW_CALL_RATE),
                settings.intValue(MINIMUM_CALLS, defaultMinimumCalls, 1));
    }

    /**
     * Checks a rate threshold.
     *
     * @param name the setting's name, for the message
     * @param rate the value
     * @return the value
     * @throws IllegalArgumentException when the value is not in (0, 1]
     */
    public static double checkRate(String name, double rate) {
        if (!(rate > 0.0 && rate <= 1.0)) {
            throw new IllegalArgumentException(name + " must be in (0, 1], was " + rate);
        }
        return rate;
    }

    /**
     * Applies the rule.
     *
     * @param calls     outcomes in the window
     * @param failures  of those, failed
     * @param slowCalls of those, slow
     * @return true when the window trips
     */
    public boolean trips(long calls, long failures, long slowCalls) {
        if ((failures | slowCalls) == 0 || calls < minimumCalls) {
            return false; // a healthy window (thresholds are above 0) decides without dividing
        }
        return (double) failures / calls >= failureRateThreshold || (double) slowCalls / calls >= slowCallRateThreshold;
    }

    /**
     * The fewest failures among {@code calls} outcomes whose rate reaches the failure-rate
     * threshold, compared exactly as {@link #trips} compares: a window that must not trip yet can
     * take one less. Windows use it for their margins (see {@link CombiningWindow}).
     *
     * @param calls outcomes in the window, at least 1
     * @return between 1 and {@code calls}
     * @throws IllegalArgumentException when {@code calls} is below 1
     */
    public long fewestFailuresTripping(long calls) {
        return fewestReaching(failureRateThreshold, calls);
    }

    /**
     * The fewest slow calls among {@code calls} outcomes whose rate reaches the slow-call-rate
     * threshold, compared exactly as {@link #trips} compares.
     *
     * @param calls outcomes in the window, at least 1
     * @return between 1 and {@code calls}
     * @throws IllegalArgumentException when {@code calls} is below 1
     */
    public long fewestSlowCallsTripping(long calls) {
        return fewestReaching(slowCallRateThreshold, calls);
    }

    /** From the product's rounding, step to the exact answer of {@code (double) f / calls >= threshold}. */
    private static long fewestReaching(double threshold, long calls) {
        if (calls < 1) {
            throw new IllegalArgumentException("calls must be >= 1, was " + calls);
        }
        long f = (long) Math.ceil(threshold * calls);
        while (f > 1 && (double) (f - 1) / calls >= threshold) {
            f--;
        }
        while (f < calls && (double) f / calls < threshold) {
            f++;
        }
        return f;
    }

    @Override
    public String toString() {
        return FAILURE_RATE + "=" + failureRateThreshold + ", " + SLOW_CALL_RATE + "=" + slowCallRateThreshold + ", "
                + MINIMUM_CALLS + "=" + minimumCalls;
    }
}
