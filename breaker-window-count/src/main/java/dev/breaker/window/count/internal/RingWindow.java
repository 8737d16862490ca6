package dev.breaker.window.count.internal;

import dev.breaker.Ticker;
import dev.breaker.spi.CombiningWindow;
import dev.breaker.spi.RateThresholds;
import dev.breaker.spi.Window;
import dev.breaker.spi.WindowCounts;
import dev.breaker.spi.WindowFactory;

/**
 * The last {@code size} outcomes in a ring, with running totals.
 *
 * <p><b>Concurrency</b> is {@link CombiningWindow}'s: the ring, its cursor and the totals are plain
 * fields written by one thread at a time (the holder of the window's try-lock), which applies the
 * outcomes other threads buffered before its own and decides on exact totals. An outcome is
 * buffered only while the window could take it, and everything else buffered, without its trip
 * condition possibly holding: the margin is computed after every batch from the exact totals
 * ({@link #safeBadOutcomesLocked}). A ring full of plain successes takes one more plain success
 * without writing anything.
 *
 * <p><b>Exactness.</b> Recorded by one thread at a time, every decision is exact at the deciding
 * outcome. Under concurrent recording a decision may come later, by at most
 * {@link CombiningWindow#BUFFER} outcomes of a stripe; no outcome is lost and the counts at rest
 * are exact: the last {@code size} outcomes in an order consistent with real time.
 */
public final class RingWindow extends CombiningWindow {

    /** The largest ring. */
    public static final int MAX_SIZE = 1_000_000;

    private final int size;
    private final RateThresholds thresholds;
    /** A run of failures that also trips, or 0 for none. */
    private final int streakLimit;
    /** The fewest failures (slow calls) that trip a full ring. */
    private final int fullFailing;

    private final int fullSlow;
    private final int minimumCalls;
    // the exact state, written by the lock holder only
    private final byte[] ring;
    private int cursor;
    private int calls;
    private int failures;
    private int slowCalls;
    private int run;
    /** The fewest failing (slow) outcomes that trip at {@link #marginCalls} calls; valid while calls only grow. */
    private int marginFailing;

    private int marginSlow;
    private int marginCalls = -1;

    private RingWindow(int size, RateThresholds thresholds, int consecutiveFailures) {
        this.size = size;
        this.thresholds = thresholds;
        this.streakLimit = consecutiveFailures;
        this.ring = new byte[size];
        this.fullFailing = (int) thresholds.fewestFailuresTripping(size);
        this.fullSlow = (int) thresholds.fewestSlowCallsTripping(size);
        this.minimumCalls = thresholds.minimumCalls();
    }

    /**
     * Makes a factory of rings; arguments already validated by the builder or provider.
     *
     * @param size                1 to {@link #MAX_SIZE}
     * @param thresholds          the rate rule
     * @param consecutiveFailures a run that also trips, or 0 for none
     * @return the factory
     */
    public static WindowFactory factory(int size, RateThresholds thresholds, int consecutiveFailures) {
        if (size < 1 || size > MAX_SIZE) {
            throw new IllegalArgumentException("size must be in [1, " + MAX_SIZE + "], was " + size);
        }
        return new Factory(size, thresholds, consecutiveFailures);
    }

    @Override
    protected boolean applyLocked(int outcome, long stamp) {
        int at = cursor;
        cursor = at + 1 == size ? 0 : at + 1;
        boolean trips;
        if (calls == size) {
            int evicted = ring[at];
            if (evicted != outcome) { // the same outcome in and out changes no total
                ring[at] = (byte) outcome;
                failures += (outcome & FAILED) - (evicted & FAILED);
                slowCalls += ((outcome & SLOW) - (evicted & SLOW)) >> 1;
            }
            trips = (failures >= fullFailing || slowCalls >= fullSlow) && size >= minimumCalls;
        } else {
            calls++;
            ring[at] = (byte) outcome;
            failures += outcome & FAILED;
            slowCalls += (outcome & SLOW) >> 1;
            trips = thresholds.trips(calls, failures, slowCalls);
        }
        if (streakLimit > 0) {
            run = (outcome & FAILED) == 0 ? 0 : Math.min(run + 1, streakLimit);
            trips |= run >= streakLimit;
        }
        return trips;
    }

    @Override
    protected int safeBadOutcomesLocked() {
        int f;
        int s;
        if (calls == size) {
            f = fullFailing;
            s = fullSlow;
        } else {
            // calls only grow until the ring is full, and more calls need more bad outcomes to trip:
            // a margin computed at fewer calls is smaller, so still safe; recompute now and then
            int c = Math.max(thresholds.minimumCalls(), calls);
            if (marginCalls < 0 || c >= marginCalls + Math.max(1, marginCalls >> 3)) {
                marginCalls = c;
                marginFailing = (int) thresholds.fewestFailuresTripping(c);
                marginSlow = (int) thresholds.fewestSlowCallsTripping(c);
            }
            f = marginFailing;
            s = marginSlow;
        }
        int safe = Math.min(f - 1 - failures, s - 1 - slowCalls);
        return streakLimit > 0 ? Math.min(safe, streakLimit - 1 - run) : safe;
    }

    @Override
    protected boolean plainSuccessIsNoOp() {
        return calls == size && failures == 0 && slowCalls == 0; // a run of failures would be in the ring
    }

    @Override
    protected WindowCounts countsLocked() {
        return new WindowCounts(calls, failures, slowCalls);
    }

    @Override
    public WindowCounts counts() {
        return drainedCounts(() -> {});
    }

    private record Factory(int size, RateThresholds thresholds, int consecutiveFailures) implements WindowFactory {
        @Override
        public Window create(Ticker ticker) {
            return new RingWindow(size, thresholds, consecutiveFailures);
        }

        @Override
        public String describe() {
            return "count(size=" + size + ", " + thresholds
                    + (consecutiveFailures > 0 ? ", consecutiveFailures=" + consecutiveFailures : "") + ")";
        }
    }
}
