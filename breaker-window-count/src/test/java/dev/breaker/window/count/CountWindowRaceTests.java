package dev.breaker.window.count;

import dev.breaker.spi.CombiningWindow;
import dev.breaker.tck.RateWindowRaceContract;
import dev.breaker.tck.WindowContract.Recorded;

/** The count window under racing writers (SPEC rule 8). */
class CountWindowRaceTests extends RateWindowRaceContract {

    @Override
    protected Subject subject(double failureRateThreshold, double slowCallRateThreshold, int minimumCalls) {
        return new Subject(
                CountWindow.builder()
                        .size(minimumCalls)
                        .minimumCalls(minimumCalls)
                        .failureRateThreshold(failureRateThreshold)
                        .slowCallRateThreshold(slowCallRateThreshold)
                        .build(),
                outcomes -> Recorded.countsOfLast(outcomes, minimumCalls));
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
