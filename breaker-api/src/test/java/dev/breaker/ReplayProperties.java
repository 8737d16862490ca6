package dev.breaker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

/**
 * For random traces (probes = 1), the breaker answers exactly as a tiny sequential model of the
 * SPEC does, wherever the ticker starts, including just before it wraps.
 */
class ReplayProperties {

    /** The SPEC's replay semantics in a dozen lines, on unbounded time (no wrap). */
    static List<String> model(int threshold, long cooldown, List<long[]> calls) {
        List<String> out = new ArrayList<>();
        boolean open = false;
        int run = 0;
        long openedAt = 0;
        for (long[] call : calls) {
            long t = call[0];
            boolean ok = call[1] == 1;
            if (open && t - openedAt < cooldown) {
                out.add("rejected");
                continue;
            }
            boolean probe = open;
            out.add(ok ? "ok" : "fail");
            if (ok) {
                open = false;
                run = 0;
            } else if (probe) {
                openedAt = t;
            } else if (++run >= threshold) {
                open = true;
                openedAt = t;
            }
        }
        return out;
    }

    @Property(tries = 400)
    void breakerMatchesModel(
            @ForAll @IntRange(min = 1, max = 5) int threshold,
            @ForAll @LongRange(min = 0, max = 40) long cooldown,
            @ForAll("traces") List<long[]> calls,
            @ForAll("offsets") long offset) {
        List<Replay.Call> replay = new ArrayList<>();
        for (long[] c : calls) {
            replay.add(new Replay.Call(c[0], c[1] == 1));
        }
        assertEquals(model(threshold, cooldown, calls), Replay.run(threshold, cooldown, 1, offset, replay));
    }

    /** Non-decreasing times (steps of 0 to 15 units, often 0), random outcomes, failure-heavy. */
    @Provide
    Arbitrary<List<long[]>> traces() {
        Arbitrary<long[]> step = Combinators.combine(
                        Arbitraries.frequency(
                                net.jqwik.api.Tuple.of(3, 0L),
                                net.jqwik.api.Tuple.of(5, 1L),
                                net.jqwik.api.Tuple.of(2, 10L)),
                        Arbitraries.longs().between(0, 5),
                        Arbitraries.integers().between(0, 9))
                .as((base, extra, coin) -> new long[] {base + extra, coin < 6 ? 0 : 1});
        return step.list().ofMaxSize(60).map(steps -> {
            long t = 0;
            List<long[]> calls = new ArrayList<>();
            for (long[] s : steps) {
                t += s[0];
                calls.add(new long[] {t, s[1]});
            }
            return calls;
        });
    }

    @Provide
    Arbitrary<Long> offsets() {
        return Arbitraries.oneOf(
                Arbitraries.just(0L),
                Arbitraries.longs().between(Long.MAX_VALUE - 200, Long.MAX_VALUE),
                Arbitraries.longs().between(Long.MIN_VALUE, Long.MIN_VALUE + 200),
                Arbitraries.longs());
    }
}
