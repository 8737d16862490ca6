package dev.breaker.window.time;

import dev.breaker.spi.CombiningWindow;
import dev.breaker.tck.RateWindowRaceContract;
import dev.breaker.tck.WindowContract.Recorded;
import java.time.Duration;

/** The time window under racing writers (SPEC rule 8); time stands still, so every outcome stays in. */
class TimeWindowRaceTests extends RateWindowRaceContract {

    @Override
    protected Subject subject(double failureRateThreshold, double slowCallRateThreshold, int minimumCalls) {
        return new Subject(
                TimeWindow.builder()
                        .length(Duration.ofSeconds(10))
                        .buckets(10)
                        .minimumCalls(minimumCalls)
                        .failureRateThreshold(failureRateThreshold)
                        .slowCallRateThreshold(slowCallRateThreshold)
                        .build(),
                outcomes -> Recorded.countsOfLast(outcomes, Integer.MAX_VALUE)); // time stands still: all of them
    }

    /** At most {@link CombiningWindow#BUFFER} outcomes per stripe, as {@code BucketWindow} documents (time standing still, the bucket width plays no part); a stripe serves one thread or more. */
    @Override
    protected int lagPerRecordingThread() {
        return CombiningWindow.BUFFER;
    }
}
