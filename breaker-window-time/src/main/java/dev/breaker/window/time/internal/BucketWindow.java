package dev.breaker.window.time.internal;

import dev.breaker.Ticker;
import dev.breaker.spi.CombiningWindow;
import dev.breaker.spi.RateThresholds;
import dev.breaker.spi.Window;
import dev.breaker.spi.WindowCounts;
import dev.breaker.spi.WindowFactory;
import java.time.Duration;

/**
 * Outcomes of the last {@code buckets * width} nanoseconds, in a ring of buckets rotated lazily.
 *
 * <p><b>Time.</b> The epoch of an instant is {@code (now - origin) / width}, where {@code origin}
 * is the ticker reading when the window was made: differences only, so a wrapping ticker is
 * harmless. At epoch {@code E} the window holds the buckets of epochs {@code E-buckets+1 .. E};
 * epoch {@code e} lives in slot {@code e % buckets}. An outcome is stamped with the epoch it was
 * reported in and lands in that epoch's bucket, even when it is applied a little later (a
 * straggler), unless that bucket has already left the window.
 *
 * <p><b>Concurrency</b> is {@link CombiningWindow}'s: the buckets and the sums over the buckets
 * in the window are plain fields written by one thread at a time, which applies what others
 * buffered before its own outcome and decides on exact sums (no read skew, no straggler left
 * out). Outcomes are buffered only within the margin computed for the current epoch; the first
 * outcome of a new epoch is decided, since buckets leaving the window can raise a rate.
 *
 * <p><b>Plain successes without the lock.</b> While no plain success can trip the window at its
 * current epoch (it holds at least {@code minimumCalls} calls, and no rate at its threshold), a
 * plain success of the current epoch is only counted
 * ({@link CombiningWindow#plainSuccessNeedsNoLock}): one compare-and-set, no lock, which at one
 * thread saves about 4 ns of a 35 ns call (most of it the ticker's read). The holder adds what was
 * counted to the current bucket before it applies, decides or moves to another epoch, and moves
 * the count to the new epoch in the same step, so each such success lands in the bucket of the
 * epoch it was counted at. A success of another epoch (a straggler, or the first of a new epoch)
 * takes the usual way. Bad outcomes are still buffered within their budgets, which hold for any
 * number of successes in any order: the buckets keep only counts, so no order among a thread's
 * outcomes is lost ({@link CombiningWindow#successesKeepOrder}). The count is an object of its
 * own (about 64 B); the window keeps no epoch per slot to make room for it (see {@link #order}).
 *
 * <p><b>Rotation</b> costs O(1) per outcome, amortized, whatever the number of buckets: the slots
 * that hold outcomes are kept in a queue in epoch order, and moving to a later epoch pops the
 * ones that leave (an empty bucket costs nothing to leave). Nothing is done while idle; no thread
 * exists. Finding the epoch needs no division while time stays in the latest epoch.
 *
 * <p><b>Exactness.</b> Recorded by one thread at a time, every decision is exact at the deciding
 * outcome. Under concurrent recording a decision may come later, by at most
 * {@link CombiningWindow#BUFFER} outcomes of a stripe or one bucket width; no outcome is lost and
 * the counts at rest are exact (at bucket granularity).
 */
public final class BucketWindow extends CombiningWindow {

    private final Ticker ticker;
    private final long origin;
    private final long width;
    private final int buckets;
    private final RateThresholds thresholds;
    /** The latest epoch the holder moved to, for the record path's division-free epoch. */
    private volatile long latest;

    // the exact state, written by the lock holder only
    private long current;

    /**
     * Per slot, three counters in a row: calls, failures, slow calls; ints until one would pass
     * 2^31 - 1, then null ({@link #wideCounts} instead).
     */
    private int[] slotCounts;

    /** The same as longs, once a bucket held more than an int counts (null until then). */
    private long[] wideCounts;
    /**
     * The slots holding outcomes (those with calls), oldest epoch first: a ring queue. A slot's
     * epoch is not kept: every slot holding outcomes has an epoch in the window, the one of its
     * residue ({@link #slotEpoch(int)}), since moving on empties those that leave.
     */
    private final int[] order;

    private int orderHead;
    private int orderSize;
    private long calls;
    private long failures;
    private long slowCalls;
    /** Slots visited by rotation and by stragglers' queue inserts, for the tests that hold rotation to O(1). */
    long rotationSteps;
    /** The fewest failing (slow) outcomes that trip at {@link #marginCalls} calls; valid in this epoch while calls only grow. */
    private long marginFailing;

    private long marginSlow;
    private long marginCalls = -1;

    private BucketWindow(Ticker ticker, long width, int buckets, RateThresholds thresholds) {
        this.ticker = ticker;
        this.origin = ticker.read();
        this.width = width;
        this.buckets = buckets;
        this.thresholds = thresholds;
        this.slotCounts = new int[3 * buckets];
        this.order = new int[buckets];
    }

    /**
     * Makes a factory; arguments already validated by the builder or provider.
     *
     * @param width      bucket width in nanoseconds, at least 1
     * @param buckets    at least 1
     * @param thresholds the rate rule
     * @return the factory
     */
    public static WindowFactory factory(long width, int buckets, RateThresholds thresholds) {
        if (width < 1 || buckets < 1) {
            throw new IllegalArgumentException("width and buckets must be >= 1, was " + width + " and " + buckets);
        }
        return new Factory(width, buckets, thresholds);
    }

    @Override
    protected long stampNow() {
        return epochOf(ticker.read());
    }

    @Override
    protected long stampAt(long nowNanos) {
        return epochOf(nowNanos);
    }

    /** The epoch of a reading; it stops at {@link #MAX_STAMP} (36 years of 1 ns buckets), which no real ticker reaches. */
    private long epochOf(long nowNanos) {
        long elapsed = Math.max(0, nowNanos - origin);
        long e = latest;
        long start = e * width;
        return elapsed >= start && elapsed - start < width ? e : Math.min(MAX_STAMP, elapsed / width);
    }

    @Override
    protected boolean applyLocked(int outcome, long epoch) {
        if (epoch > current) {
            moveTo(epoch);
        } else {
            addCounted(takeCountedSuccesses());
        }
        if (epoch > current - buckets) { // else its bucket has already left the window: dropped
            int slot = (int) (epoch % buckets);
            if (isEmpty(slot)) {
                occupy(slot, epoch);
            }
            int at = 3 * slot;
            add(at, 1);
            calls++;
            if ((outcome & FAILED) != 0) {
                add(at + 1, 1);
                failures++;
            }
            if ((outcome & SLOW) != 0) {
                add(at + 2, 1);
                slowCalls++;
            }
        }
        return thresholds.trips(calls, failures, slowCalls);
    }

    /**
     * Computes the fewest failing (slow) outcomes that trip anew when the window has no such
     * figures for this epoch, or holds an eighth more calls than they were computed for: within
     * an epoch calls only grow, and more calls need more of them to trip, so figures computed at
     * fewer calls are a lower bound, safe for a margin.
     */
    private void refreshMargin() {
        long c = Math.max(thresholds.minimumCalls(), calls);
        if (marginCalls < 0 || c >= marginCalls + Math.max(1, marginCalls >> 3)) {
            marginCalls = c;
            marginFailing = thresholds.fewestFailuresTripping(c);
            marginSlow = thresholds.fewestSlowCallsTripping(c);
        }
    }

    /** Moves the window to a later epoch: the buckets that leave it are taken out of the sums. */
    private void moveTo(long epoch) {
        addCounted(takeCountedSuccessesMovedTo(epoch)); // counted at the old epoch, from now on at the new one
        long leaves = epoch - buckets; // epochs at or before this leave
        while (orderSize > 0) {
            int slot = order[orderHead];
            if (slotEpoch(slot) > leaves) {
                break;
            }
            rotationSteps++;
            int at = 3 * slot;
            calls -= clear(at);
            failures -= clear(at + 1);
            slowCalls -= clear(at + 2);
            orderHead = orderHead + 1 == buckets ? 0 : orderHead + 1;
            orderSize--;
        }
        current = epoch;
        latest = epoch;
        marginCalls = -1; // buckets left: calls may have fallen, so the margin is computed afresh
    }

    /** Adds plain successes counted without the lock, all at the current epoch, to its bucket. */
    private void addCounted(long n) {
        if (n == 0) {
            return;
        }
        int slot = (int) (current % buckets);
        if (isEmpty(slot)) {
            occupy(slot, current);
        }
        add(3 * slot, n);
        calls += n;
    }

    /**
     * Adds to a bucket's counter. The counters are ints, half the bytes of longs (a time-window
     * breaker's budget of 1 KB needs them), until one would pass 2^31 - 1: then every counter
     * moves to longs, once. A bucket of a minute at 36 million outcomes a second, or of an hour
     * at 600 thousand, gets there; a counter that wrapped would corrupt the window's calls when
     * its bucket left, and one that wrapped to 0 would read as an empty slot (found by review).
     */
    private void add(int at, long n) {
        if (wideCounts == null) {
            long v = slotCounts[at] + n;
            if (v <= Integer.MAX_VALUE) {
                slotCounts[at] = (int) v;
                return;
            }
            widen();
        }
        wideCounts[at] += n;
    }

    /** Moves every counter to longs; holder only, once in a window's life. */
    private void widen() {
        long[] w = new long[slotCounts.length];
        for (int i = 0; i < w.length; i++) {
            w[i] = slotCounts[i];
        }
        wideCounts = w;
        slotCounts = null;
    }

    /** Whether a slot holds no outcome (its calls are 0): it is not in the queue. */
    private boolean isEmpty(int slot) {
        return wideCounts == null ? slotCounts[3 * slot] == 0 : wideCounts[3 * slot] == 0;
    }

    /**
     * The epoch of a slot that holds outcomes: the one in the window ({@code current - buckets}
     * excluded, {@code current} included) whose residue it is.
     */
    private long slotEpoch(int slot) {
        return current - Math.floorMod(current - slot, (long) buckets);
    }

    /** A counter's value, set back to 0. */
    private long clear(int at) {
        long v;
        if (wideCounts == null) {
            v = slotCounts[at];
            slotCounts[at] = 0;
        } else {
            v = wideCounts[at];
            wideCounts[at] = 0;
        }
        return v;
    }

    /** Gives an empty slot to an epoch in the window, keeping the queue in epoch order (a straggler goes back). */
    private void occupy(int slot, long epoch) {
        int at = orderSize;
        while (at > 0 && slotEpoch(order[(orderHead + at - 1) % buckets]) > epoch) {
            order[(orderHead + at) % buckets] = order[(orderHead + at - 1) % buckets];
            at--;
            rotationSteps++;
        }
        order[(orderHead + at) % buckets] = slot;
        orderSize++;
    }

    @Override
    protected int safeBadOutcomesLocked() {
        addCounted(takeCountedSuccesses()); // more calls, a margin no smaller
        refreshMargin();
        long f = marginFailing - 1 - failures;
        long s = marginSlow - 1 - slowCalls;
        return (int) Math.max(-1, Math.min(Integer.MAX_VALUE, Math.min(f, s)));
    }

    @Override
    protected long stampLocked() {
        return current;
    }

    /**
     * Whether a plain success of the current epoch may only be counted: while the window holds at
     * least {@code minimumCalls} calls and does not trip (a success
     * then only lowers the rates). Below the minimum a success may be the one that reaches it, and
     * is decided. Successes counted but not yet added only make {@code calls} larger, so the
     * answer, taken on fewer calls, is the safe one.
     */
    @Override
    protected boolean plainSuccessNeedsNoLock() {
        return calls >= thresholds.minimumCalls() && !thresholds.trips(calls, failures, slowCalls);
    }

    /** The buckets keep counts only: a counted success needs no order with its thread's bad outcomes. */
    @Override
    protected boolean successesKeepOrder() {
        return false;
    }

    @Override
    protected WindowCounts countsLocked() {
        addCounted(takeCountedSuccesses());
        return new WindowCounts(calls, failures, slowCalls);
    }

    @Override
    public WindowCounts counts() {
        long epoch = epochOf(ticker.read());
        return drainedCounts(() -> {
            if (epoch > current) {
                moveTo(epoch);
            }
        });
    }

    private record Factory(long width, int buckets, RateThresholds thresholds) implements WindowFactory {
        @Override
        public Window create(Ticker ticker) {
            return new BucketWindow(ticker, width, buckets, thresholds);
        }

        @Override
        public String describe() {
            return "time(length=" + Duration.ofNanos(width * buckets) + ", buckets=" + buckets + ", " + thresholds
                    + ")";
        }
    }
}
