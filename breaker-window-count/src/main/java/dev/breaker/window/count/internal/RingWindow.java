package dev.breaker.window.count.internal;

import dev.breaker.Ticker;
import dev.breaker.spi.CombiningWindow;
import dev.breaker.spi.RateThresholds;
import dev.breaker.spi.Window;
import dev.breaker.spi.WindowCounts;
import dev.breaker.spi.WindowFactory;

/**
 * The last {@code size} outcomes, kept as a count of every outcome and a queue of the bad ones
 * (failed, slow or both) with their positions.
 *
 * <p><b>Why positions.</b> The n-th outcome the window takes has position n, and the window holds
 * positions {@code n - size + 1} to {@code n}. Only a bad outcome needs to be remembered: a plain
 * success only moves the window on, and what it pushes out is found from the positions of the bad
 * outcomes. So once a plain success can no longer make the trip condition hold (the window has its
 * minimum of calls, or can never reach it, and does not hold the condition already), plain
 * successes need no lock at all:
 * {@link CombiningWindow} only counts them ({@link #countedSuccesses()}), and the position of an
 * outcome applied under the lock is the number applied under it plus the number counted. A bad
 * outcome pushes out the bad outcomes that have left, in one pass over the front of the queue:
 * each bad outcome is queued once and pushed out once, so the cost per call does not grow with
 * the size (one call may push out many, paid for by the calls that queued them).
 *
 * <p><b>Concurrency</b> is {@link CombiningWindow}'s: the queue and the counts are plain fields
 * written by one thread at a time (the holder of the window's try-lock), which applies the
 * outcomes other threads buffered before its own and decides on exact counts. Its stamps are all
 * 0, so the successes a stripe buffers in a row are taken as one run
 * ({@link #applySuccessesLocked}): a run moves the window on once. A plain success
 * that is only counted is ordered at its count; the holder reads the count once per outcome it
 * applies, and a count read a moment late only places the successes counted meanwhile after that
 * outcome, as their threads' timing allows.
 *
 * <p><b>Exactness.</b> Recorded by one thread at a time, every decision is exact at the deciding
 * outcome. Under concurrent recording a decision may come later, by at most
 * {@link CombiningWindow#BUFFER} bad outcomes and {@link CombiningWindow#RUN_BUFFER} plain
 * successes of a stripe. After recorders collide (one finds another holding the lock), each
 * stripe's budget is at least {@value #CONTENDED_LAG} bad outcomes (its share of the margin, if
 * larger) for a few batches, the usual case of that lag, unless a run of failures is what binds
 * (see {@link #contendedLagLocked()}); threads that take turns are exact, and a thread that goes
 * on alone right after a collision is exact again once that grant's batches are spent
 * ({@link CombiningWindow}'s class comment). No outcome is lost and the counts at rest
 * are exact: the last {@code size} outcomes in an order that keeps each thread's own, as the TCK
 * reads SPEC rule 8 (outcomes pending in one stripe may be applied after later ones of another
 * thread; not necessarily real time's order).
 *
 * <p><b>Memory.</b> The queue starts empty, takes 8 entries at the first bad outcome and doubles
 * when one finds it full, up to the power of two at or above the size (4 MB for a million bad
 * outcomes at once; it never shrinks, and the window lasts one CLOSED era). A window that never
 * holds more than a few bad outcomes keeps a small array, one int each.
 */
public final class RingWindow extends CombiningWindow {

    /** The largest ring. */
    public static final int MAX_SIZE = 1_000_000;

    /** A position keeps 30 bits in a queue entry: enough, as entries in the window are less than 2 sizes apart. */
    private static final int POSITION_MASK = (1 << 30) - 1;

    private static final int FIRST_CAPACITY = 8;

    private static final int[] EMPTY = new int[0];

    /** No outcome at the position {@link #moveTo} moves to: it only catches up with counted successes. */
    private static final int NONE = -1;

    private final int size;
    private final RateThresholds thresholds;
    /** A run of failures that also trips, or 0 for none. */
    private final int streakLimit;
    /** The fewest failures (slow calls) that trip a full ring. */
    private final int fullFailing;

    private final int fullSlow;
    private final int minimumCalls;
    /** Whether the rate rule can ever trip: the ring reaches the minimum of calls ({@code size >= minimumCalls}). */
    private final boolean fullRingCanTrip;

    // the exact state, written by the lock holder only
    /** Outcomes applied under the lock. */
    private long applied;
    /** The position of the latest outcome the holder took into account (and evicted up to). */
    private long latest;
    /** Bad outcomes in the window, oldest first: {@code (position << 2 | outcome)}, 30 bits of the position. */
    private int[] bad = EMPTY;

    private int head;
    private int queued;
    private int failures;
    private int slowCalls;
    /** The position of the latest failure, and the failures in a row that end there. */
    private long lastFailure = -1;

    private int run;
    /** Whether the condition held after the latest outcome applied. */
    private boolean tripping;
    /** The fewest failing (slow) outcomes that trip at {@link #marginCalls} calls; valid while calls only grow. */
    private int marginFailing;

    private int marginSlow;
    private int marginCalls = -1;
    /** Whether the last margin was the run of failures' rather than the rates': then no lag is granted. */
    private boolean streakBinds;

    /**
     * The budget of bad outcomes each stripe has at least, whatever its share of the margin,
     * after recorders collide ({@link CombiningWindow#contendedLagLocked()}). Near the threshold the margin is a few
     * outcomes, and a hold every few bad outcomes cost more than a lock: 2 threads, 40% failures at
     * 50%, a ring of 50 or 100, took 135 and 88 ns a call with none and about 45 with this, against
     * 55 and 57 for Resilience4j in the same runs (8 and 32 measured worse or no better).
     */
    static final int CONTENDED_LAG = 16;

    private RingWindow(int size, RateThresholds thresholds, int consecutiveFailures) {
        super(true); // every stamp is 0: buffered successes are taken as runs
        this.size = size;
        this.thresholds = thresholds;
        this.streakLimit = consecutiveFailures;
        this.fullFailing = (int) thresholds.fewestFailuresTripping(size);
        this.fullSlow = (int) thresholds.fewestSlowCallsTripping(size);
        this.minimumCalls = thresholds.minimumCalls();
        this.fullRingCanTrip = size >= minimumCalls;
    }

    /**
     * {@value #CONTENDED_LAG}, whatever the size (a quarter of a ring of 50, 12, measured 58 ns
     * against 49); none while a run of failures is nearer its limit than the rates are to their
     * thresholds: a dependency that is down trips on its streak as soon as one thread alone would.
     */
    @Override
    protected int contendedLagLocked() {
        return streakBinds ? 0 : CONTENDED_LAG;
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
        return moveTo(++applied + countedSuccesses(), outcome);
    }

    /**
     * A run of plain successes moves the window on at once. Along such a run the condition can
     * only fall once the window has its minimum of calls (more calls at the same bad outcomes, or
     * bad outcomes pushed out), and cannot hold before: so it is decided at the first position of
     * the run that has the minimum, then the window moves to the run's end.
     */
    @Override
    protected boolean applySuccessesLocked(int count) {
        long first = applied + 1 + countedSuccesses();
        applied += count;
        long last = first + count - 1;
        long firstThatCanTrip = Math.max(first, minimumCalls);
        boolean trips = firstThatCanTrip < last && moveTo(firstThatCanTrip, 0);
        return moveTo(last, 0) | trips;
    }

    /**
     * Moves the window on to end at position {@code n}: the bad outcomes at or before
     * {@code n - size} leave, the outcome at {@code n} is queued if bad, and the condition is
     * decided.
     *
     * <p>One method on purpose: at over 325 bytes of bytecode, C2's limit for inlining a hot
     * method, it stays a call, so the breaker's path for a counted plain success, which inlines
     * everything down to {@link #applyLocked}, stays small enough to be inlined into its caller
     * in turn (measured: about 2 ns of 8 at 1 thread).
     *
     * @param n       the position of the latest outcome, counted successes included
     * @param outcome the outcome at {@code n}, or {@link #NONE} to only catch up with counted successes
     * @return whether the condition holds at {@code n}
     */
    private boolean moveTo(long n, int outcome) {
        if (n - latest >= size) { // everything queued is at or before the old latest, so it leaves
            queued = 0;
            failures = 0;
            slowCalls = 0;
        } else if (queued > 0) {
            // every queued position p has latest - size < p <= latest, so n - p < 2 * size fits 30 bits
            int last = (int) n;
            int mask = bad.length - 1;
            do {
                int e = bad[head];
                if (((last - (e >>> 2)) & POSITION_MASK) < size) {
                    break;
                }
                failures -= e & FAILED;
                slowCalls -= (e & SLOW) >> 1;
                head = (head + 1) & mask;
            } while (--queued > 0);
        }
        latest = n;
        if (outcome > 0) {
            if (queued == bad.length) {
                grow();
            }
            bad[(head + queued) & (bad.length - 1)] = ((int) n << 2) | outcome;
            queued++;
            failures += outcome & FAILED;
            slowCalls += (outcome & SLOW) >> 1;
        }
        boolean trips = n >= size
                ? (failures >= fullFailing || slowCalls >= fullSlow) && fullRingCanTrip
                : thresholds.trips(n, failures, slowCalls);
        if (streakLimit > 0) {
            if (outcome == 0 || outcome == SLOW) {
                run = 0;
            } else if (outcome != NONE) {
                run = lastFailure == n - 1 ? Math.min(run + 1, streakLimit) : 1;
                lastFailure = n;
            }
            trips |= lastFailure == n && run >= streakLimit; // a run counts only while it ends at the latest outcome
        }
        tripping = trips;
        return trips;
    }

    /**
     * Moves the window on past the successes counted since the last outcome applied, which may
     * have pushed bad ones out; holder only.
     *
     * @return the position of the latest outcome
     */
    private long catchUp() {
        long n = applied + countedSuccesses();
        moveTo(n, NONE);
        return n;
    }

    /** Doubles the queue, oldest entry first again; the window holds at most {@code size} entries, so it stops there. */
    private void grow() {
        int[] more = new int[Math.max(FIRST_CAPACITY, bad.length << 1)];
        for (int i = 0; i < queued; i++) {
            more[i] = bad[(head + i) & (bad.length - 1)];
        }
        bad = more;
        head = 0;
    }

    /** Queue entries {@link #leavingMargin} looks at, at most: a budget beyond a few buffers' worth is never spent. */
    private static final int LEAVING_LOOKS = 4 * BUFFER;

    @Override
    protected int safeBadOutcomesLocked() {
        long n = catchUp();
        int safe;
        if (n >= size) {
            safe = leavingMargin(n, fullFailing - 1 - failures, fullSlow - 1 - slowCalls);
        } else {
            // calls only grow until the ring is full, and more calls need more bad outcomes to trip:
            // a margin computed at fewer calls is smaller, so still safe; recompute now and then
            int c = (int) Math.max(thresholds.minimumCalls(), n);
            if (marginCalls < 0 || c >= marginCalls + Math.max(1, marginCalls >> 3)) {
                marginCalls = c;
                marginFailing = (int) thresholds.fewestFailuresTripping(c);
                marginSlow = (int) thresholds.fewestSlowCallsTripping(c);
            }
            safe = Math.min(marginFailing - 1 - failures, marginSlow - 1 - slowCalls);
        }
        int runNow = lastFailure == n ? run : 0; // a success since the latest failure ended its run
        int streakSafe = streakLimit > 0 ? streakLimit - 1 - runNow : Integer.MAX_VALUE;
        streakBinds = streakSafe <= safe; // a tie too: the run may trip first
        return Math.min(safe, streakSafe);
    }

    /**
     * The margin of a full window: each outcome that comes pushes out the oldest, so {@code b} more
     * bad outcomes, with any successes in any order, add at most {@code b - L(b)} failures, where
     * {@code L(b)} is the failures among the {@code b} oldest positions (the worst order has the bad
     * outcomes first: a success before them pushes out a position for nothing). So the margin is
     * the largest {@code b} with {@code b - L(b)} at most what the threshold leaves
     * ({@code needFailing}), which grows by one for each failure among the positions it spans: a
     * window near its threshold whose failures are spread out can take about
     * {@code needFailing / (1 - rate)} more bad outcomes, not {@code needFailing}. The same for slow
     * calls; the smaller answer holds for both. One pass over the front of the queue, cut short
     * after {@link #LEAVING_LOOKS} entries (a smaller answer is always safe).
     */
    private int leavingMargin(long n, int needFailing, int needSlow) {
        if (needFailing < 0 || needSlow < 0) {
            return Math.min(needFailing, needSlow);
        }
        int leavingFailing = 0;
        int leavingSlow = 0;
        int start = (int) (n - size); // the position just before the oldest in the window
        int mask = bad.length - 1;
        for (int i = 0, at = head, looks = Math.min(queued, LEAVING_LOOKS); i < looks; i++, at = (at + 1) & mask) {
            int e = bad[at];
            int leavesAt = ((e >>> 2) - start) & POSITION_MASK; // the new outcome that pushes it out: 1 to size
            boolean failingCounts = leavesAt <= needFailing + leavingFailing + 1;
            boolean slowCounts = leavesAt <= needSlow + leavingSlow + 1;
            if (!failingCounts && !slowCounts) {
                break; // every later entry leaves later still
            }
            if (failingCounts && (e & FAILED) != 0) {
                leavingFailing++;
            }
            if (slowCounts && (e & SLOW) != 0) {
                leavingSlow++;
            }
        }
        return Math.min(needFailing + leavingFailing, needSlow + leavingSlow);
    }

    /**
     * True once a plain success cannot make the condition hold: the window has its minimum of
     * calls (or can never reach it), and the condition does not hold already (a trip the breaker
     * did not take, such as one its open cap refused, is reported again by the next outcome).
     *
     * <p>Once threads were seen colliding on the window, only if it also holds no bad outcome (a
     * full window of plain successes): while successes are counted, a bad outcome cannot be
     * buffered and waits for the lock, which costs more under contention than buffering the
     * successes with it (measured at 2 threads, 10% failures and 10% slow calls: 50 ns per call
     * with buffering, 130 ns with counting). Deciding by the buffering mode instead made the
     * window switch back and forth, slower still.
     */
    @Override
    protected boolean plainSuccessNeedsNoLock() {
        return !tripping && (latest >= minimumCalls || !fullRingCanTrip) && (queued == 0 || !everContended());
    }

    @Override
    protected WindowCounts countsLocked() {
        long n = catchUp();
        return new WindowCounts(Math.min(n, size), failures, slowCalls);
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
