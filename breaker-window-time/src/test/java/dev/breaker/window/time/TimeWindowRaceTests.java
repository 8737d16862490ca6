package dev.breaker.window.time;

import dev.breaker.spi.CombiningWindow;
import dev.breaker.spi.WindowCounts;
import dev.breaker.tck.RateWindowRaceContract;
import dev.breaker.tck.WindowContract.Recorded;
import java.time.Duration;

/** The time window under racing writers (SPEC rule 8); time stands still, so every outcome stays in. */
class TimeWindowRaceTests extends RateWindowRaceContract {

    @Override
    protected Subject subject(double failureRateThreshold, int minimumCalls) {
        return subject(failureRateThreshold, 1.0, minimumCalls);
    }

    @Override
    protected Subject slowCallSubject(double slowCallRateThreshold, int minimumCalls) {
        return subject(1.0, slowCallRateThreshold, minimumCalls);
    }

    private static Subject subject(double failureRateThreshold, double slowCallRateThreshold, int minimumCalls) {
        return new Subject(
                TimeWindow.builder()
                        .length(Duration.ofSeconds(10))
                        .buckets(10)
                        .minimumCalls(minimumCalls)
                        .failureRateThreshold(failureRateThreshold)
                        .slowCallRateThreshold(slowCallRateThreshold)
                        .build(),
                outcomes -> new WindowCounts(
                        outcomes.size(),
                        outcomes.stream().filter(Recorded::failure).count(),
                        outcomes.stream().filter(Recorded::slow).count()));
    }

    /** At most {@link CombiningWindow#BUFFER} outcomes per stripe, as {@code BucketWindow} documents (time standing still, the bucket width plays no part); a stripe serves one thread or more. */
    @Override
    protected int lagPerRecordingThread() {
        return CombiningWindow.BUFFER;
    }
}
