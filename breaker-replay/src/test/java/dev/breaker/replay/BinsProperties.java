package dev.breaker.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;

/** However the times fall, the bins lose nothing, stay within their size and keep round widths. */
class BinsProperties {

    @Property
    void widenedBinsKeepEveryCountInTheBinOfItsTime(
            @ForAll @Size(min = 1, max = 300) List<@LongRange(min = 0, max = 5_000_000_000_000L) Long> gaps) {
        Bins bins = new Bins(1, 1);
        long t = gaps.get(0);
        long first = t;
        long[] times = new long[gaps.size()];
        for (int i = 0; i < gaps.size(); i++) {
            if (i > 0) {
                t += gaps.get(i) / (1 + i % 7) / (i % 3 == 0 ? 1_000_000 : 1);
            }
            times[i] = t;
            bins.add(0, bins.at(t), 1);
            bins.addSum(0, bins.at(t), 0.5);
        }
        assertTrue(bins.used() >= 1 && bins.used() <= Bins.MAX_BINS);
        long width = bins.width();
        String digits = Long.toString(width).replace("0", "");
        assertTrue(digits.equals("1") || digits.equals("2"), "a round width: " + width);
        assertTrue(bins.start() <= first && first < bins.start() + width);
        assertTrue(t < bins.start() + bins.used() * width);
        long[] expected = new long[Bins.MAX_BINS];
        for (long time : times) {
            expected[(int) ((time - bins.start()) / width)]++;
        }
        long total = 0;
        for (int i = 0; i < Bins.MAX_BINS; i++) {
            assertEquals(expected[i], bins.count(0, i), "bin " + i);
            assertEquals(expected[i] * 0.5, bins.sum(0, i), 1e-9);
            total += bins.count(0, i);
        }
        assertEquals(times.length, total);
    }

    @Property
    void spreadSharesAnIntervalOutByOverlap(
            @ForAll @LongRange(min = 0, max = 1_000_000_000L) long from,
            @ForAll @LongRange(min = 0, max = 1_000_000_000L) long length) {
        Bins bins = new Bins(0, 1);
        bins.at(from);
        bins.at(from + length);
        bins.spread(0, from, from + length);
        double total = 0;
        for (int i = 0; i < bins.used(); i++) {
            double inBin = bins.sum(0, i);
            assertTrue(inBin <= bins.width() / 1e6 + 1e-9);
            total += inBin;
        }
        assertEquals(length / 1e6, total, 1e-6);
    }
}
