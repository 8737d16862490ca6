package dev.breaker.window.count;

import dev.breaker.spi.CombiningWindow;
import dev.breaker.spi.WindowCounts;
import dev.breaker.tck.RateWindowRaceContract;
import dev.breaker.tck.WindowContract.Recorded;
import java.util.List;

/** The count window under racing writers (SPEC rule 8). */
class CountWindowRaceTests extends RateWindowRaceContract {

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
                CountWindow.builder()
                        .size(minimumCalls)
                        .minimumCalls(minimumCalls)
                        .failureRateThreshold(failureRateThreshold)
                        .slowCallRateThreshold(slowCallRateThreshold)
                        .build(),
                outcomes -> {
                    List<Recorded> last =
                            outcomes.subList(Math.max(0, outcomes.size() - minimumCalls), outcomes.size());
                    return new WindowCounts(
                            last.size(),
                            last.stream().filter(Recorded::failure).count(),
                            last.stream().filter(Recorded::slow).count());
                });
    }

    /** At most {@link CombiningWindow#BUFFER} bad outcomes and {@link CombiningWindow#RUN_BUFFER} plain successes per stripe, as {@code RingWindow} documents; a stripe serves one thread or more. */
    @Override
    protected int lagPerRecordingThread() {
        return CombiningWindow.BUFFER + CombiningWindow.RUN_BUFFER;
    }

    /** At most {@link CombiningWindow#BUFFER} bad outcomes per stripe. */
    @Override
    protected int badOutcomeLagPerRecordingThread() {
        return CombiningWindow.BUFFER;
    }
}
