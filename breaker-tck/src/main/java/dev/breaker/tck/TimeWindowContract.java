package dev.breaker.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breaker.Ticker;
import dev.breaker.spi.Window;
import dev.breaker.spi.WindowCounts;
import dev.breaker.spi.WindowFactory;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import net.jqwik.api.Assume;
import net.jqwik.api.Example;

/**
 * A time window while time moves (the other contracts keep time still): outcomes older than the
 * window's length leave it, at most one bucket width late (SPEC rule 8), those younger than the
 * length less a bucket stay, and a decision after old outcomes left is taken on the young ones
 * only. The ticker starts just before it wraps past {@code Long.MAX_VALUE} and crosses the wrap
 * (a ticker's origin is arbitrary: only differences of readings mean anything). Every outcome is
 * recorded with {@link Window#recordAt} at the ticker's reading, as a breaker records the end of
 * a call, and {@link Window#counts()} read at the same instant.
 *
 * <p>An outcome may also come late: a thread that read the ticker at the end of its call and was
 * descheduled before it recorded brings a reading older than outcomes already recorded. Here one
 * thread hands the window such a reading (issue 10's second race, made deterministic), so SPEC rule
 * 8's exactness for one recording thread applies: while the reading is younger than the length
 * less a bucket width, the late outcome is in the very next decision and in the counts.
 *
 * <p>Since contract version 7 ({@link TckVersion}); late outcomes since 10.
 */
public abstract class TimeWindowContract {

    /** For subclasses. */
    protected TimeWindowContract() {}

    /**
     * A time window of this length and rule (slow-call threshold 1.0), on the given ticker.
     *
     * @param length               the window's length
     * @param failureRateThreshold the failure-rate threshold
     * @param minimumCalls         the minimum of calls
     * @return the factory
     */
    protected abstract WindowFactory window(Duration length, double failureRateThreshold, int minimumCalls);

    /**
     * How late an outcome may leave a window of this length: its bucket width ({@code
     * Duration.ZERO} for a window that keeps exact times).
     *
     * @param length the window's length
     * @return the width
     */
    protected abstract Duration bucketWidth(Duration length);

    /**
     * The length every test uses.
     *
     * @return 10 s unless a subclass says otherwise
     */
    protected Duration length() {
        return Duration.ofSeconds(10);
    }

    private final AtomicLong now = new AtomicLong();
    private final Ticker ticker = now::get;

    private Window fresh(double failureRateThreshold, int minimumCalls) {
        // the window's length before the wrap: every test crosses it
        now.set(Long.MAX_VALUE - length().toNanos() / 2);
        return window(length(), failureRateThreshold, minimumCalls).create(ticker);
    }

    private boolean record(Window w, boolean failure) {
        return w.recordAt(failure, false, now.get());
    }

    private void advance(Duration d) {
        now.addAndGet(d.toNanos());
    }

    /**
     * Outcomes older than the length, plus one bucket width, have left: the counts hold none of
     * them, and a new one counts alone.
     */
    @Example
    public void outcomesOlderThanTheLengthLeave() {
        Window w = fresh(0.5, 1_000);
        for (int i = 0; i < 5; i++) {
            assertFalse(record(w, true));
        }
        assertEquals(new WindowCounts(5, 5, 0), w.counts());
        advance(length().plus(bucketWidth(length())).plusNanos(1));
        assertEquals(new WindowCounts(0, 0, 0), w.counts(), "a length and a bucket later, none is left");
        assertFalse(record(w, false));
        assertEquals(new WindowCounts(1, 0, 0), w.counts());
    }

    /** Outcomes younger than the length less one bucket width are all still in the window. */
    @Example
    public void outcomesYoungerThanTheLengthLessABucketStay() {
        Window w = fresh(0.5, 1_000);
        for (int i = 0; i < 3; i++) {
            record(w, true);
            record(w, false);
            advance(Duration.ofMillis(1));
        }
        Duration width = bucketWidth(length());
        advance(length().minus(width).minusMillis(4));
        assertEquals(new WindowCounts(6, 3, 0), w.counts(), "all six, " + length().minus(width) + " on");
    }

    /**
     * A decision after old outcomes left is taken on the young ones alone: 20 successes, then a
     * length and a bucket later 10 failures, at 50% with at least 10 calls, trip at the tenth
     * failure (10 of 10), not before (fewer than 10 calls), and not never (a window that kept the
     * successes would see 10 of 30).
     */
    @Example
    public void aDecisionAfterOldOutcomesLeftCountsTheYoungOnly() {
        Window w = fresh(0.5, 10);
        for (int i = 0; i < 20; i++) {
            record(w, false);
        }
        advance(length().plus(bucketWidth(length())).plusNanos(1));
        for (int i = 1; i < 10; i++) {
            assertFalse(record(w, true), i + " failures: fewer than the minimum of calls");
        }
        assertTrue(record(w, true), "10 failures of 10");
    }

    /**
     * A late failure can complete a trip: at 50% with at least 6 calls, a success, then later 2
     * successes and 2 failures (5 calls: fewer than the minimum), then a failure with the first
     * success's reading: 3 failures of 6, and that very outcome trips. A window whose decisions
     * took the older buckets' sums once per bucket period would not see it in time.
     */
    @Example
    public void aLateFailureIsInTheVeryNextDecision() {
        Window w = fresh(0.5, 6);
        long early = now.get();
        assertFalse(record(w, false));
        advance(lateBy());
        assertFalse(record(w, false));
        assertFalse(record(w, true));
        assertFalse(record(w, false));
        assertFalse(record(w, true), "5 calls: fewer than the minimum");
        assertTrue(w.recordAt(true, false, early), "a late failure: 3 failures of 6");
        assertEquals(new WindowCounts(6, 3, 0), w.counts());
    }

    /**
     * A late success dilutes the rate at once: at 50% with at least 4 calls, a success, then later
     * a failure and a success, the late success with the first one's reading (4 calls, 1
     * failure), then a failure: 2 of 5, never a trip. A window that missed the straggler in its
     * decisions would see 2 of 4 at the last failure, a rate the window never held.
     */
    @Example
    public void aLateSuccessIsInTheVeryNextDecision() {
        Window w = fresh(0.5, 4);
        long early = now.get();
        assertFalse(record(w, false));
        advance(lateBy());
        assertFalse(record(w, true));
        assertFalse(record(w, false));
        assertFalse(w.recordAt(false, false, early), "1 failure of 4");
        assertFalse(record(w, true), "2 failures of 5: the window never held 2 of 4");
        assertEquals(new WindowCounts(5, 2, 0), w.counts());
    }

    /**
     * How late the late outcomes come: half of what the window keeps for sure (the length less a
     * bucket width), so that their readings are in the window whatever its buckets; the tests
     * are skipped for a window of one bucket, which keeps nothing for sure.
     */
    private Duration lateBy() {
        Duration sure = length().minus(bucketWidth(length()));
        Assume.that(sure.compareTo(Duration.ofNanos(2)) >= 0);
        return sure.dividedBy(2);
    }

    /**
     * A window that sees no outcome for a thousand lengths, then one, counts that one alone, and
     * decides on it.
     */
    @Example
    public void aLongSilenceEndsWithAWindowOfOne() {
        Window w = fresh(0.5, 1);
        record(w, true);
        advance(length().multipliedBy(1_000));
        assertFalse(record(w, false), "0 failures of 1");
        assertEquals(new WindowCounts(1, 0, 0), w.counts());
        assertTrue(record(w, true), "1 of 2: at 50%");
    }
}
