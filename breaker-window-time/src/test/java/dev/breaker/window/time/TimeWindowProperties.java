package dev.breaker.window.time;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.breaker.spi.Window;
import dev.breaker.spi.WindowCounts;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

/**
 * For random clock steps and outcomes, the time window's trip answers and counts equal those of
 * a naive model: a list of timestamped outcomes, of which the window holds the ones whose bucket
 * (elapsed time / width) is one of the last {@code buckets}. The ticker may start anywhere,
 * wrapping included.
 */
class TimeWindowProperties {

    record Step(long advance, boolean failure, boolean slow) {}

    @Property(tries = 300)
    void windowMatchesTimestampedListModel(
            @ForAll @IntRange(min = 1, max = 6) int buckets,
            @ForAll @LongRange(min = 1, max = 7) long width,
            @ForAll @IntRange(min = 1, max = 6) int minimumCalls,
            @ForAll("steps") List<Step> steps,
            @ForAll("starts") long start) {
        AtomicLong clock = new AtomicLong(start);
        Window window = TimeWindow.builder()
                .length(Duration.ofNanos(width * buckets))
                .buckets(buckets)
                .failureRateThreshold(0.5)
                .slowCallRateThreshold(0.75)
                .minimumCalls(minimumCalls)
                .build()
                .create(clock::get);
        List<long[]> model = new ArrayList<>(); // {elapsed, failure, slow}
        long elapsed = 0;
        for (Step s : steps) {
            elapsed += s.advance();
            clock.set(start + elapsed);
            model.add(new long[] {elapsed, s.failure() ? 1 : 0, s.slow() ? 1 : 0});
            WindowCounts expected = modelCounts(model, elapsed, width, buckets);
            boolean trips = expected.calls() >= minimumCalls
                    && (2 * expected.failures() >= expected.calls()
                            || 4 * expected.slowCalls() >= 3 * expected.calls());
            assertEquals(trips, window.record(s.failure(), s.slow()), "trip at elapsed " + elapsed);
            assertEquals(expected, window.counts(), "counts at elapsed " + elapsed);
        }
        // and after the clock runs on with no outcome, buckets leave the window whole
        for (int i = 0; i <= buckets; i++) {
            elapsed += width;
            clock.set(start + elapsed);
            assertEquals(modelCounts(model, elapsed, width, buckets), window.counts(), "idle at " + elapsed);
        }
    }

    static WindowCounts modelCounts(List<long[]> outcomes, long now, long width, int buckets) {
        long current = now / width;
        long calls = 0;
        long failures = 0;
        long slow = 0;
        for (long[] o : outcomes) {
            long bucket = o[0] / width;
            if (bucket > current - buckets && bucket <= current) {
                calls++;
                failures += o[1];
                slow += o[2];
            }
        }
        return new WindowCounts(calls, failures, slow);
    }

    @Provide
    Arbitrary<List<Step>> steps() {
        return Combinators.combine(
                        Arbitraries.frequencyOf(
                                net.jqwik.api.Tuple.of(5, Arbitraries.just(0L)),
                                net.jqwik.api.Tuple.of(4, Arbitraries.longs().between(1, 4)),
                                net.jqwik.api.Tuple.of(1, Arbitraries.longs().between(5, 60))),
                        Arbitraries.integers().between(0, 9).map(i -> i < 5),
                        Arbitraries.integers().between(0, 9).map(i -> i < 3))
                .as(Step::new)
                .list()
                .ofMaxSize(80);
    }

    @Provide
    Arbitrary<Long> starts() {
        return Arbitraries.oneOf(
                Arbitraries.just(0L),
                Arbitraries.longs(),
                Arbitraries.longs().between(Long.MAX_VALUE - 100, Long.MAX_VALUE));
    }
}
