package dev.breaker.spi;

import dev.breaker.internal.Stripes;
import dev.breaker.internal.Totals;
import dev.breaker.internal.WindowTotals;
import dev.breaker.internal.race.Races;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A window whose exact state has one writer at a time, fed by striped buffers: the base of the
 * count and time windows. Subclasses keep the state in plain fields and say how one outcome
 * changes it ({@link #applyLocked}); this class decides who applies what, and when.
 *
 * <p><b>Why.</b> A lock-free window that updates shared counters on every call makes every call
 * fight for a few cache lines as soon as two threads record at once, and reading several counters
 * at different moments can show a rate the window never held. A plain lock is exact but
 * serialises every call. Here one thread at a time (the holder of a try-lock) applies outcomes to
 * the exact state and decides; the other threads append theirs to a small buffer of their own
 * stripe and go on, and the holder applies the buffers before its own outcome.
 *
 * <p><b>Two modes.</b> While one thread at a time records, every outcome takes the lock and is
 * applied at once: one uncontended compare-and-set, no buffer. The first thread that finds the
 * lock busy switches the window to buffering (below); a long run of holds that found no other
 * thread's entries switches it back.
 *
 * <p><b>When an outcome may wait in a buffer.</b> Only when it cannot matter yet. After every
 * batch the holder computes, from the exact state, how many more bad outcomes (failed or slow) the
 * window could take, together with any number of successes in any order, without its trip
 * condition possibly holding ({@link #safeBadOutcomesLocked}); each stripe gets a budget of its
 * share of that margin, less what it already has pending. A bad outcome within its stripe's
 * budget is buffered and spends it (a success needs none): whatever order the pending outcomes
 * are applied in, no trip is missed, so deferring them decides nothing differently, and a single
 * thread's decisions stay exact at the deciding outcome (a subclass may trade some of that for
 * fewer holds while other threads record: see the lag below). A bad outcome beyond the budget takes
 * the lock and is decided at once, after everything buffered before it. A drain does not give
 * budget back; only the next holder's new budget, computed on the state the drain made, does.
 *
 * <p><b>Plain successes that cannot trip take no lock.</b> When no number of plain successes
 * could make the trip condition hold ({@link #plainSuccessNeedsNoLock}: a count window that has
 * its minimum of calls, and does not hold the condition), a plain success is only counted, in a
 * striped count of the window's own ({@link #countedSuccesses}), which the subclass reads under
 * the lock: a count window learns from it how far the window has moved on. One uncontended
 * compare-and-set, in an object of its own, made when first needed. Each such success is ordered at its count; one that a retired
 * window's closed count refuses is applied under the lock as usual, since the window may still
 * decide until the breaker's move to another lands. For a window whose state keeps the order of
 * its outcomes (a count window's ring, {@link #successesKeepOrder}) that is right only while no
 * bad outcome is pending, or a thread's success could be ordered before its own earlier failure.
 * So before raising the flag that allows it, the holder closes every stripe to bad outcomes (a
 * bit in the stripe's tail, set by compare-and-set only while none is pending); a bad outcome
 * then goes through the lock, and the holder lowers the flag before it opens the stripes again.
 * (Clearing the flag after appending, from the appender's side, leaves an instant where a holder
 * that raised it has not yet seen the append; the race contract of the TCK caught that.) A window
 * on which a plain success changes nothing at all may ignore the count.
 *
 * <p><b>Counted successes and stamps.</b> A window whose stamps change (a time window's epochs)
 * counts only successes of the stamp the holder last published ({@code published}, read by an
 * offer before the flags): the count's words carry the low 32 bits of their stamp, an add names
 * its own and is refused by a word at another, and the holder moves the words to its new stamp
 * ({@link #takeCountedSuccessesMovedTo}) before it publishes that stamp, taking what they held
 * for the old one. Each counted success is thus in the state at the stamp it was counted at; one
 * of another stamp takes the usual way. When the window is no longer healthy at the new stamp the
 * flag goes down before the stamp is published, so an offer that reads the new stamp sees it.
 * Such a window keeps only counts per stamp, so its stripes stay open to bad outcomes while
 * successes are counted: their budgets hold for any number of successes in any order. A bad
 * outcome appended beyond its budget (the busy path below) is not covered, and its thread's later
 * successes, applied before it, could dilute its trip away: so that thread takes the flag down
 * with the urgent bit, in one step, and its later successes queue behind it; the holder raises
 * the flag again only while the urgent bit is down, that is after the drain that took it. Nor are
 * bad outcomes that were buffered within the budgets of a larger margin (a stamp before buckets
 * left): the holder keeps what is pending and allowed within the margin, and otherwise takes the
 * flag down the same way before it publishes a new stamp ({@code budgetWithinTheMargin}). Reviews
 * found each of these ({@code UnorderedCountedSuccessesTests}). The mapping of stamps to words is
 * modulo 2^32: a success whose stamp the window left exactly a multiple of 2^32 stamps ago, by a
 * thread stalled that long between reading the published stamp and adding, lands in the current
 * stamp's state instead of being dropped.
 *
 * <p><b>Contention.</b> When the lock is busy, an outcome that should be decided is buffered
 * anyway and raises the urgent bit of the flags word, which every offer reads: a holder drains
 * again before it leaves if it sees the bit, and the next offer, by any thread, that finds the
 * lock free takes it and drains. (One that finds another recorder holding it goes the usual way,
 * since that holder drains before it leaves, or the next offer does if the holder's unfenced
 * check missed the bit: sending it down the urgent path too kept the bit up and the holder
 * draining for as long as the other threads' offers came.) So such a decision is late by at most
 * one outcome; a full buffer makes its writer wait for the lock, so at most {@value #BUFFER}
 * outcomes per stripe are ever pending (with runs, {@value #BUFFER} bad outcomes and
 * {@value #RUN_BUFFER} plain successes): the lag of SPEC rule 8, documented by each window. No
 * outcome is lost, and at rest {@link #drainedCounts} drains first, so the counts are exact. A
 * reader of the counts holds the lock as a reader: a recorder that finds it so waits for the short
 * hold rather than buffer, so a metrics gauge never delays a lone recorder's trip.
 *
 * <p><b>Lag while others record.</b> Near its threshold a window's margin is a few bad outcomes,
 * shared among the stripes, and a hold every two or three of them made a mostly failing mix
 * slower than a plain lock. So a subclass may name a lag ({@link #contendedLagLocked}): a
 * recorder that finds another recorder holding the lock (their calls overlap) raises the
 * {@code collided} flag, and the next holder to publish budgets clears it and, in that batch and
 * the next seven ({@link #LAG_BATCHES}), gives every stripe a budget of at least that many, less
 * what the stripe has pending. Decisions may then come that many bad outcomes per stripe late,
 * as SPEC rule 8 allows under concurrent recording,
 * within the bound below; such a deciding outcome waits in its stripe with no urgent bit, so its
 * trip is reported by the drain that applies it (the next hold, or a reader's drain and then the
 * next offer), and if calls stop meanwhile the breaker stays closed until then. Threads that
 * only take turns never find the lock held by another recorder, nor does a recorder beside a
 * reader of the counts, so they are decided at the margin as before. One case is left: a thread
 * that goes on alone right after others stopped may spend the lag that the last collision granted,
 * until those batches are spent (at most {@link #LAG_BATCHES} holds of its own, each decision
 * late by at most the lag); from then on it is exact again (tested in {@code ContendedLagTests}).
 *
 * <p><b>Waiting for a holder's budgets.</b> An outcome that its stripe refused (no budget left,
 * or no room) while another recorder holds the lock spins a little for that holder, which
 * publishes new budgets (after its drain) before it leaves, and is buffered as usual if its
 * stripe then takes it, within the new budget, to wait for the next drain like any buffered
 * outcome; only then the urgent path. Under a mostly failing mix, where budgets run out every few
 * calls, the urgent path made a second hold of half of all holds. (A stripe refused for want of
 * room that the holder's drain already passed finds none: it spins its 128 pauses for nothing,
 * then goes on.)
 *
 * <p><b>Stale reads.</b> The budget lives in the word an append compare-and-sets, so an appender
 * can never spend a budget the holder has since replaced. The gate (may this stamp buffer at
 * all?) is read before: a thread may read it, then a holder ends the buffering mode and drains,
 * then the thread appends, and holders without buffering drain only their own stripe. So an
 * appender reads the gate again after its append and raises the urgent bit if buffering ended;
 * and the holder that ends it raises the bit itself after writing the gate. Either the appender
 * sees the new gate or its append comes before the holder's write, and then before the drain
 * that the urgent bit brings: no entry is stranded.
 *
 * <p><b>Order.</b> A thread always uses the same stripe, a stripe's buffer is first in, first
 * out, and the holder drains every stripe before applying its own outcome: each thread's
 * outcomes are applied in the thread's order, and a trip is decided on counts that an
 * interleaving of the threads' outcomes produces. Outcomes of different threads that were
 * buffered may be applied later than outcomes recorded after them by other threads, by at most
 * the buffer: that is the lag SPEC rule 8 allows, never an invented count.
 *
 * <p><b>Runs of successes.</b> A window whose stamps are all 0 (a count window) is made with
 * {@code successRuns}: a buffered plain success then writes no entry, it only adds one to its
 * stripe's count of successes in the compare-and-set that would have claimed a slot, and each
 * bad outcome's entry keeps that count. The holder applies the successes a stripe took in a row
 * at once ({@link #applySuccessesLocked}), in their place among the stripe's entries, so a
 * holder's work grows with the bad outcomes it applies, not with the calls. Under contention
 * with a window that always holds a few bad outcomes, every success is buffered, and the holder
 * applying them one by one while the other threads' stripes filled was the whole of the cost
 * (measured at 2 threads, count 100, 2% failures and 2% slow calls: 129 to 53 ns per call).
 *
 * <p><b>Memory.</b> A thread's stripe is fixed by a hash of its id (no per-thread state, so
 * millions of virtual threads cost nothing more) among at most twice the processors, and made
 * when a thread first needs it: a window used by one thread at a time has none, nor the array of
 * them. A thread never moves to another stripe, which keeps its outcomes in order. Until a holder
 * has listed a new stripe among those it drains, each thread appending to it flags the change
 * itself before appending: its maker flags it only after installing it, and an entry taken in
 * between could otherwise wait where no drain looks.
 *
 * <p><b>The breaker's running counts.</b> A breaker counts every call by outcome
 * ({@code BreakerMetrics}' totals); a window of this class counts them for it, so that a call pays
 * no atomic add of its own. An outcome applied under the lock is counted there, in plain 16-bit
 * lanes of one field that the holder hands to the breaker's striped totals when a lane fills; a
 * plain success only counted is in {@link #countedSuccesses}, which the breaker's reads add and
 * which is handed over (and closed to later adds) when the window is retired; an outcome that is
 * buffered, or whose stamp could not be taken, or a counted success refused by a retired window,
 * is added to the totals at once by its own thread. So every {@link #record} and {@link #recordAt} is
 * counted exactly once, whatever a subclass or a ticker throws after. When the breaker moves to a
 * new window it retires this one under the lock: the lanes go to the totals and any later call is
 * added there directly; a reader of the counts takes the lock too, so it finds each call in one
 * place (see {@code dev.breaker.internal.WindowTotals}).
 */
@Helper
public abstract class CombiningWindow extends CombiningWindowPadding {

    /** Outcome bit: the call failed. */
    protected static final int FAILED = 1;
    /** Outcome bit: the call was slow. */
    protected static final int SLOW = 2;
    /** The largest stamp: an entry keeps 60 bits of it (a time window saturates its epochs there). */
    protected static final long MAX_STAMP = (1L << 60) - 1;
    /** Entries buffered per stripe at most. */
    public static final int BUFFER = 64;
    /**
     * Plain successes a stripe of a window made with {@code successRuns} takes as runs before it
     * is full, beside its {@value #BUFFER} entries: they cost no entry, and a fuller stripe is
     * drained less often (measured at 2 threads, count 100: {@code HEALTHY} 74 and 47 ns became
     * 34 and 34 in alternating rounds, and no better at 1,024).
     */
    public static final int RUN_BUFFER = 256;

    private static final int PRESENT = 4;
    static final int STAMP_SHIFT = 3;
    /** {@link #lock} held by a recorder. */
    private static final int WRITER = 1;
    /** {@link #lock} held by a reader of the counts: short, so a recorder waits for it rather than buffer. */
    static final int READER = 2;
    /** Spins before a waiting thread yields (see {@link Pause}); also the most an outcome waits for a holder's budgets. */
    private static final int SPINS = Pause.SPINS;

    private static final int MAX_STRIPES = Stripes.MAX;

    /** {@link #known} before the first stripe: shared, so a window used by one thread carries no array for it. */
    private static final Stripe[] NO_STRIPES = new Stripe[0];

    /** Flag: a plain success is only counted (it cannot trip), and nothing bad is pending. */
    private static final int HEALTHY = 1;
    /** Flag: a drain made for another thread found the trip condition; the next offer reports it. */
    private static final int TRIP_PENDING = 2;
    /** Flag: an outcome that should be decided was buffered while the lock was busy. */
    private static final int URGENT = 4;

    private static final VarHandle LOCK;
    private static final VarHandle FLAGS;
    private static final VarHandle STRIPES;
    private static final VarHandle STRIPE = MethodHandles.arrayElementVarHandle(Stripe[].class);

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            LOCK = lookup.findVarHandle(CombiningWindowFields.class, "lock", int.class);
            FLAGS = lookup.findVarHandle(CombiningWindowFields.class, "flags", int.class);
            STRIPES = lookup.findVarHandle(CombiningWindowFields.class, "stripes", Stripe[].class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
        WindowTotals.register(CombiningWindow.class, new WindowCounting());
    }

    // holder-only state: plain fields, ordered by the lock
    /** Holds in a row that found no other thread's entries; enough of them end the buffering mode. */
    private int quietHolds;
    /** Whether the window ever buffered: then a stale append may still come, and holders drain their own stripe. */
    private boolean everBuffered;
    /** The stripes made so far, as the holder last saw them. */
    private Stripe[] known = NO_STRIPES;
    /** Whether the holder declared the window healthy (stripes closed to bad outcomes). */
    private boolean declaredHealthy;
    /**
     * Calls applied under the lock and not yet in {@link #sink}: four 16-bit lanes, one per outcome
     * bits, each handed over before it reaches 2^15 ({@link #LANES_FULL}, which is also its value
     * once retired, so that every count then takes the slow path to the sink).
     */
    long lanes;
    /** Whether the breaker moved to another window: calls are counted in the sink directly. */
    boolean retired;

    /** Whether the stripes take plain successes as runs, with no entry each (see {@link #CombiningWindow(boolean)}). */
    private final boolean runs;

    /** For subclasses: every plain success buffered has an entry of its own, with its stamp. */
    protected CombiningWindow() {
        this(false);
    }

    /**
     * For subclasses.
     *
     * @param successRuns true for a window whose stamps are all 0 (a count window): a buffered
     *     plain success then has no entry, only a count in its stripe, and the holder applies the
     *     successes a stripe took in a row at once, through {@link #applySuccessesLocked}; false to
     *     have each applied on its own, with its stamp. Not checked: in this mode an entry's stamp
     *     bits carry its run, and every buffered outcome reaches {@link #applyLocked} at stamp 0,
     *     so a window with other stamps must not use it. A subclass whose applying throws loses
     *     the rest of that run from the window (each call stays counted in the breaker's totals),
     *     as a throwing entry is lost.
     */
    protected CombiningWindow(boolean successRuns) {
        this.runs = successRuns;
    }

    /**
     * Whether outcomes are being buffered (threads were seen colliding); for tests and metrics.
     *
     * @return true in the buffering mode
     */
    public final boolean isBuffering() {
        return buffering;
    }

    // ---------------------------------------------------------------- for subclasses

    /**
     * Whether threads were ever seen colliding on this window (it buffered at least once); for
     * the holder, in {@link #plainSuccessNeedsNoLock()} say. It never goes back to false.
     *
     * @return true once the window has buffered
     */
    protected final boolean everContended() {
        return everBuffered;
    }

    /**
     * Applies one outcome to the exact state; called by the lock holder only, one at a time.
     *
     * @param outcome {@link #FAILED} and {@link #SLOW} bits
     * @param stamp   the stamp the outcome was offered with, 0 to {@link #MAX_STAMP}
     * @return whether the trip condition holds after it
     */
    protected abstract boolean applyLocked(int outcome, long stamp);

    /**
     * Applies {@code count} plain successes in a row, at stamp 0; called by the lock holder only,
     * for a window made with {@code successRuns}. The default applies them one at a time; a window
     * that can move past a run at once should, since this is most of a holder's work.
     *
     * @param count how many, at least 1
     * @return whether the trip condition held after any of them
     */
    protected boolean applySuccessesLocked(int count) {
        boolean trips = false;
        for (int i = 0; i < count; i++) {
            trips |= applyLocked(0, 0);
        }
        return trips;
    }

    /**
     * How many more bad outcomes (failed, slow, or both) the exact state could take, together with
     * any number of plain successes in any order, without the trip condition possibly holding,
     * as long as the stamp stays {@link #stampLocked()}; negative when even a success could trip.
     * Called by the lock holder after every batch: keep it cheap (a conservative, smaller answer
     * is always allowed).
     *
     * @return the margin
     */
    protected abstract int safeBadOutcomesLocked();

    /**
     * How many bad outcomes each stripe may buffer beyond its share of the margin after recorders
     * were seen colliding: the lag SPEC rule 8 allows under concurrent recording, spent to hold
     * the lock less often when the margin is small (a rate near its threshold). The holder grants
     * it for {@link #LAG_BATCHES} batches from each collision seen, as a share of at least this many;
     * decisions may then come later by up to this many bad outcomes per stripe (never past
     * {@link #BUFFER}). None is invented: the holder still applies every outcome in an order that
     * keeps each thread's own, and decides after each. 0 (the default) decides every outcome at
     * the margin. Called by the holder right after {@link #safeBadOutcomesLocked()} in the same
     * batch, in the {@link #LAG_BATCHES} batches from a collision, while the margin is not negative.
     *
     * @return the allowance, 0 to {@link #BUFFER} (more is taken as {@link #BUFFER})
     */
    protected int contendedLagLocked() {
        return 0;
    }

    /**
     * The stamp at which {@link #safeBadOutcomesLocked()} holds (the time window's current epoch;
     * always 0 for a window without time).
     *
     * @return the stamp, 0 to {@link #MAX_STAMP}
     */
    protected long stampLocked() {
        return 0;
    }

    /**
     * Whether plain successes may skip the lock for now: each is then only counted, in
     * {@link #countedSuccesses()}, and never passed to {@link #applyLocked}. True only while no
     * number of plain successes could make the trip condition hold. Called by the holder after a
     * batch; until it answers false again, any number of plain successes may be counted.
     *
     * <p>A window on which a plain success changes nothing (say, one full of plain successes)
     * may ignore the count; one that must know how many outcomes it took (a count window, to know
     * which outcomes have left it) reads it under the lock.
     *
     * @return true when plain successes may be counted rather than applied
     */
    protected boolean plainSuccessNeedsNoLock() {
        return false;
    }

    /**
     * The plain successes counted without the lock (see {@link #plainSuccessNeedsNoLock()}) so
     * far; for the holder. Each is ordered at its count: one counted while this runs may or may
     * not be in the answer, and is in every later one.
     *
     * @return the count
     */
    protected final long countedSuccesses() {
        CountedSuccesses c = successes;
        return c == null ? 0 : c.sum();
    }

    /**
     * The plain successes counted without the lock since the last take, for a window that adds
     * them to its state itself rather than reading the running total (a time window adds them to
     * the bucket of the stamp they were counted at, {@link #stampLocked()}); for the holder. Each
     * success is in exactly one answer of this or of {@link #takeCountedSuccessesMovedTo}.
     *
     * @return how many, 0 while none are counted
     */
    protected final long takeCountedSuccesses() {
        CountedSuccesses c = successes;
        return c == null ? 0 : c.take();
    }

    /**
     * Moves the count of plain successes to a new stamp (a time window moving to a later epoch)
     * and takes what was counted at the old one; for the holder, before its state moves on. From
     * now on only successes of {@code stamp} are counted; one of the old stamp that comes later is
     * refused, and its caller has it applied through {@link #applyLocked} at its own stamp. So the
     * answer is every success counted at the old stamp since the last take, and none of another.
     *
     * @param stamp the new stamp, 0 to {@link #MAX_STAMP}
     * @return the successes counted since the last take
     */
    protected final long takeCountedSuccessesMovedTo(long stamp) {
        CountedSuccesses c = successes;
        if (c == null) {
            return 0;
        }
        c.restamp(stamp);
        return c.take();
    }

    /**
     * Whether a counted success must not be ordered before a bad outcome its own thread recorded
     * earlier: true (the default) for a window whose state keeps the order of its outcomes (a
     * count window's ring), which then closes its stripes to bad outcomes while successes are
     * counted, so that each bad outcome takes the lock. A window whose state is only counts per
     * stamp (a time window's buckets) answers false: its bad outcomes are still buffered within
     * their budgets, which hold whatever successes come in whatever order.
     *
     * @return whether counted successes must keep their order with bad outcomes
     */
    protected boolean successesKeepOrder() {
        return true;
    }

    /**
     * The exact state's counts after every pending outcome is applied; called under the lock.
     *
     * @return the counts
     */
    protected abstract WindowCounts countsLocked();

    /**
     * Records an outcome at the stamp {@link #stampNow()} gives: {@link #offer}s it.
     *
     * @param failure whether the call failed
     * @param slow whether the call was slow
     * @return whether the trip condition held at some outcome this call applied
     */
    @Override
    public final boolean record(boolean failure, boolean slow) {
        int outcome = (failure ? FAILED : 0) | (slow ? SLOW : 0);
        long stamp;
        try {
            stamp = stampNow();
        } catch (Throwable e) { // a checked one too, thrown sneakily by a ticker in another language
            countAside(outcome); // the call happened: the breaker's totals count it, the window cannot
            throw e;
        }
        return offer(outcome, stamp);
    }

    /**
     * Records an outcome at the stamp {@link #stampAt} gives for the breaker's reading.
     *
     * @param failure whether the call failed
     * @param slow whether the call was slow
     * @param nowNanos the breaker's ticker reading at the end of the call
     * @return whether the trip condition held at some outcome this call applied
     */
    @Override
    public final boolean recordAt(boolean failure, boolean slow, long nowNanos) {
        int outcome = (failure ? FAILED : 0) | (slow ? SLOW : 0);
        long stamp;
        try {
            stamp = stampAt(nowNanos);
        } catch (Throwable e) {
            countAside(outcome);
            throw e;
        }
        return offer(outcome, stamp);
    }

    /**
     * The stamp of an outcome recorded now: a time window reads its ticker; 0 by default.
     *
     * @return the stamp, 0 to {@link #MAX_STAMP}
     */
    protected long stampNow() {
        return 0;
    }

    /**
     * The stamp of an outcome at a ticker reading the breaker took; {@link #stampNow()} by default.
     *
     * @param nowNanos the reading
     * @return the stamp, 0 to {@link #MAX_STAMP}
     */
    protected long stampAt(long nowNanos) {
        return stampNow();
    }

    /**
     * Offers one outcome: buffers it when it cannot matter yet, else applies it (after everything
     * buffered) and decides. Each offer is counted once in the breaker's totals (see the class
     * comment): a subclass offers each outcome it records exactly once.
     *
     * @param outcome {@link #FAILED} and {@link #SLOW} bits
     * @param stamp   a stamp for the outcome (the time window's epoch), 0 to {@link #MAX_STAMP}
     * @return whether the trip condition held at some outcome this call applied
     */
    protected final boolean offer(int outcome, long stamp) {
        long p = published; // before the flags: see published
        int f = (int) FLAGS.getVolatile(this);
        if (f == HEALTHY && outcome == 0 && stamp == p && successes.increment(stamp)) {
            return false; // ordered at its count, at its stamp, and it cannot trip
        }
        if ((f & ~HEALTHY) == 0 && !buffering && tryLock()) {
            return holdAlone(outcome, stamp); // one thread at a time, nothing pending or urgent
        }
        return offerFlagged(f, p, outcome, stamp);
    }

    /**
     * The lone writer's hold, the common case kept short: taken with no flag up and buffering off.
     * The holder's own earlier outcomes must be applied before this one; one of them can wait in a
     * stripe only if the window ever buffered (an append through the gate), or with the urgent
     * bit up (an append on the busy path), which kept this offer off this path. Entries of other
     * threads that appear meanwhile, with the urgent bit, are drained by {@link #release} or the
     * next offer, as after any hold (SPEC rule 8's lag), and a new stripe is refreshed by the next
     * drain. So there is nothing to drain first, and of what {@link #publish} keeps only the
     * health flag can change: the gate stays "no buffering" while buffering is off.
     */
    private boolean holdAlone(int outcome, long stamp) {
        if (everBuffered) { // an entry of this thread's may wait in its stripe: the general hold drains it first
            return holdAndApply((stamp << STAMP_SHIFT) | PRESENT | outcome);
        }
        boolean trips;
        try {
            count(outcome);
            trips = applyLocked(outcome, stamp);
            if (plainSuccessNeedsNoLock() != declaredHealthy || published != stampLocked()) {
                publishChanges();
            }
        } finally {
            release(WRITER);
        }
        return trips;
    }

    /** {@link #offer} when a flag is up, buffering is on, or the lock was busy. */
    private boolean offerFlagged(int f, long p, int outcome, long stamp) {
        long entry = (stamp << STAMP_SHIFT) | PRESENT | outcome;
        if (f != 0) {
            Races.at(Races.FLAGS_READ); // a race point: nothing unless -Ddev.breaker.races=true
            if ((f & TRIP_PENDING) != 0 && ((int) FLAGS.getAndBitwiseAnd(this, ~TRIP_PENDING) & TRIP_PENDING) != 0) {
                decide(entry, outcome != 0);
                return true; // found by a drain that had no caller to tell: this caller tells
            }
            if ((f & URGENT) != 0) { // an outcome waits for a decision: take the lock path
                if (tryLock()) {
                    return holdAndApply(entry);
                }
                if ((int) LOCK.getOpaque(this) != WRITER) {
                    return decide(entry, outcome != 0);
                }
                noteCollision(); // another recorder holds the lock: calls overlap
                // another recorder holds the lock and drains it before it leaves (or, should its
                // unfenced check miss the bit, the next offer does: see release): this outcome
                // goes the usual way (buffered if it may be), not through the urgent path, whose
                // appends would keep the bit up and the holder draining for as long as they come
            }
            if (outcome == 0 && (f & HEALTHY) != 0 && stamp == p && successes.increment(stamp)) {
                return false; // ordered at its count, and no bad outcome is pending
            }
            // a count that refused it belongs to a retired window, which may still decide (the
            // breaker's move to another window may not have landed yet), or is at another stamp,
            // full, or wants cells from the holder: it is applied as usual
        }
        long g = gate;
        if ((int) g >= 0 && (int) (g >>> 32) == (int) stamp) {
            Races.at(Races.GATE_READ); // a race point: nothing unless -Ddev.breaker.races=true
            Stripe s = stripeAt(index());
            if (s != null && s.offer(this, entry, outcome != 0, false) == Stripe.TAKEN) {
                countAside(outcome);
                if ((int) gate < 0) {
                    // buffering ended (or the margin vanished) around this append, and the holder
                    // may have drained before it: have the next offer drain and decide
                    FLAGS.getAndBitwiseOr(this, URGENT);
                }
                return false;
            }
        }
        return decide(entry, outcome != 0);
    }

    /** The number of holds in a row without another thread's entries after which buffering stops. */
    private static final int QUIET_HOLDS = 4096;

    /**
     * Drains every buffer, runs {@code before} (a time window moves to the present), then reads
     * the counts: exact at rest.
     *
     * @param before changes the exact state first, under the lock; may be a no-op
     * @return the counts
     */
    protected final WindowCounts drainedCounts(Runnable before) {
        lockWaiting(READER);
        WindowCounts c;
        try {
            if (drainAll()) {
                FLAGS.getAndBitwiseOr(this, TRIP_PENDING);
            }
            before.run();
            publish();
            c = countsLocked();
        } finally {
            release(READER);
        }
        return c;
    }

    // ---------------------------------------------------------------- the lock path

    /** Notes that this thread found another recorder holding the lock (read first: the line is every offer's). */
    private void noteCollision() {
        if (!collided) {
            collided = true;
        }
    }

    private boolean decide(long entry, boolean bad) {
        if (tryLock()) {
            return holdAndApply(entry);
        }
        int held = (int) LOCK.getOpaque(this);
        if (held == READER && waitForReader()) {
            return holdAndApply(entry); // a reader's hold is short: a lone recorder stays exact
        }
        if (held == 0 && tryLock()) {
            // a hold ended meanwhile: no collision (a lone recorder beside a reader meets this)
            return holdAndApply(entry);
        }
        if ((int) LOCK.getOpaque(this) == WRITER) {
            noteCollision(); // another recorder holds the lock: calls overlap
        }
        if (buffering) {
            if (awaitedTheHolder(entry, bad)) {
                return false;
            }
            if (tryLock()) {
                return holdAndApply(entry); // the holder left without a budget for it
            }
        }
        // busy: threads collide. Buffer it anyway and raise the urgent bit, so the next offer or
        // the holder decides it; and have outcomes buffered from now on, within their margins
        if (!buffering) {
            buffering = true;
        }
        Stripe s = stripeOf(index());
        for (int spins = 0; ; spins++) {
            if (s.offer(this, entry, bad, true) == Stripe.TAKEN) {
                break;
            }
            // full, or closed to bad outcomes while the window is healthy: wait for the lock
            if (tryLock()) {
                return holdAndApply(entry);
            }
            Pause.pause(spins);
        }
        countAside(outcome(entry));
        markUrgent(bad);
        Races.at(Races.URGENT_MARKED); // a race point: nothing unless -Ddev.breaker.races=true
        for (int spins = 0; ; spins++) {
            if (tryLock()) { // the holder left meanwhile: decide it here
                boolean trips;
                try {
                    trips = drainAll();
                    // a reader's drain may have decided it meanwhile, with nobody to tell: tell it
                    // here. Read first: the bit is set only under the lock, which this thread holds,
                    // and an atomic write to the flags word, which every offer reads, takes its line
                    // from every other thread
                    if (((int) FLAGS.getVolatile(this) & TRIP_PENDING) != 0) {
                        trips |= ((int) FLAGS.getAndBitwiseAnd(this, ~TRIP_PENDING) & TRIP_PENDING) != 0;
                    }
                    publish();
                } finally {
                    release(WRITER);
                }
                return trips;
            }
            if ((int) LOCK.getOpaque(this) == WRITER) {
                return false; // another recorder holds it: it sees the urgent bit before it leaves
            }
            Pause.pause(spins); // free, or a reader's short hold: wait, so that a lone recorder stays exact
        }
    }

    /**
     * Raises the urgent bit after an outcome was appended beyond its stripe's budget. A bad one
     * also takes the {@code HEALTHY} bit down, in the same atomic step, when a window whose
     * stripes stay open while successes are counted ({@link #successesKeepOrder} false) has it
     * up: this thread's next successes must not be counted, and so applied, before this outcome,
     * whose trip they could dilute away (a budget holds for any order of successes, but this
     * outcome is beyond it). The holder raises the bit again only while the urgent bit is down,
     * that is after a drain that took this outcome ({@link #publishHealth}).
     */
    private void markUrgent(boolean bad) {
        // (also the holder's, for bad outcomes pending beyond the margin: see budgetWithinTheMargin)
        for (; ; ) {
            int f = (int) FLAGS.getVolatile(this);
            int to = bad && (f & HEALTHY) != 0 && !successesKeepOrder() ? (f | URGENT) & ~HEALTHY : f | URGENT;
            if (f == to) { // read first: under contention the bit is mostly up already
                return;
            }
            if (FLAGS.compareAndSet(this, f, to)) {
                return;
            }
        }
    }

    /**
     * Another recorder holds the lock, and this outcome found its stripe out of budget (or full):
     * the holder publishes new budgets before it leaves. So spin a little while it holds, and
     * buffer the outcome as usual once the stripe takes it (within the new budget: the next drain
     * applies it). Buffering it at once on the urgent path instead would raise the urgent bit and
     * have the holder take the lock again to drain it: under a mostly failing mix, where budgets
     * run out every few calls, that second hold followed half of all holds. False if the holder
     * left, or held too long, with the stripe still refusing: the caller goes on to the lock.
     */
    private boolean awaitedTheHolder(long entry, boolean bad) {
        Stripe s = stripeAt(index());
        if (s == null) {
            return false;
        }
        int stamp = (int) (entry >>> STAMP_SHIFT);
        for (int spins = 0; spins < SPINS && (int) LOCK.getOpaque(this) == WRITER; spins++) {
            Races.at(Races.HOLDER_AWAITED); // a race point: nothing unless -Ddev.breaker.races=true
            Thread.onSpinWait();
            long g = gate;
            if ((int) g >= 0 && (int) (g >>> 32) == stamp && s.offer(this, entry, bad, false) == Stripe.TAKEN) {
                countAside(outcome(entry));
                if ((int) gate < 0) { // as after any append through the gate: see offerFlagged
                    FLAGS.getAndBitwiseOr(this, URGENT);
                }
                return true;
            }
        }
        return false;
    }

    private boolean holdAndApply(long entry) {
        boolean trips = false;
        try {
            count(outcome(entry));
            // without buffering, entries reach a stripe only through the busy path, which raises
            // the urgent bit after appending: nothing to drain unless one of these says so
            if (buffering || ((int) FLAGS.getOpaque(this) & URGENT) != 0 || stripesChanged) {
                trips = drainAll();
            } else if (everBuffered) {
                // after buffering stopped, a thread that read the old gate may still append: the
                // holder's own earlier outcomes must be applied before this one
                Stripe mine = stripeAt(index());
                if (mine != null) {
                    trips = mine.drain(this);
                }
            }
            trips |= applyLocked(outcome(entry), entry >>> STAMP_SHIFT);
            publish();
        } finally {
            release(WRITER);
        }
        return trips;
    }

    private static int outcome(long entry) {
        return (int) entry & (FAILED | SLOW);
    }

    // ---------------------------------------------------------------- the breaker's running counts

    /** Every lane at 2^15: a lane that reaches it is handed over. */
    static final long LANES_FULL = 0x8000_8000_8000_8000L;

    /** Counts an outcome applied under the lock; holder only. */
    private void count(int outcome) {
        long l = lanes + (1L << (outcome << 4));
        if ((l & LANES_FULL) == 0) {
            lanes = l;
        } else {
            handOver(l, outcome);
        }
    }

    /** A lane filled, or the window was retired; holder only. */
    private void handOver(long l, int outcome) {
        if (retired) {
            lanes = LANES_FULL;
            countAside(outcome);
            return;
        }
        lanes = l;
        addLanes();
    }

    /** Moves every lane to the sink (dropped without one), each cleared once added: a failing add loses nothing. */
    void addLanes() {
        Totals to = sink;
        for (int o = FAILED | SLOW; o >= 0; o--) {
            long n = (lanes >>> (o << 4)) & 0xFFFF;
            if (n != 0) {
                if (to != null) {
                    to.add(o, n);
                }
                lanes &= ~(0xFFFFL << (o << 4));
            }
        }
    }

    /** Counts an outcome straight into the breaker's totals: any thread, no lock. */
    private void countAside(int outcome) {
        Totals to = sink;
        if (to != null) {
            to.increment(outcome);
        }
    }

    /**
     * Ends a hold that applied nothing and must not run a subclass's code (an attach, before the
     * window is published; a retire, inside the breaker's transition). An urgent entry that came
     * meanwhile is left for the next offer, which sees the bit and drains it: a decision that was
     * due may wait for that offer (as one found by a reader's drain waits, see
     * {@link #drainedCounts}), and a retired window's decisions no longer matter.
     */
    void unlock() {
        LOCK.setRelease(this, 0);
    }

    private boolean tryLock() {
        return (int) LOCK.getOpaque(this) == 0 && LOCK.compareAndSet(this, 0, WRITER);
    }

    void lockWaiting(int as) {
        for (int spins = 0; (int) LOCK.getOpaque(this) != 0 || !LOCK.compareAndSet(this, 0, as); spins++) {
            Races.at(Races.LOCK_AWAITED); // a race point: nothing unless -Ddev.breaker.races=true
            Pause.pause(spins);
        }
    }

    /** Takes the lock as a writer once a reader's hold ends; false if another writer got it first. */
    private boolean waitForReader() {
        for (int spins = 0; ; spins++) {
            Races.at(Races.READER_AWAITED); // a race point: nothing unless -Ddev.breaker.races=true
            int l = (int) LOCK.getOpaque(this);
            if (l == 0 && LOCK.compareAndSet(this, 0, WRITER)) {
                return true;
            }
            if (l == WRITER) {
                return false;
            }
            Pause.pause(spins);
        }
    }

    /**
     * Releases the lock, then drains again while an urgent outcome came in during the hold, in the
     * same role (a reader's drains stay reader holds, which a lone recorder waits for). The release
     * needs no fence: an urgent outcome this check misses is seen by the next offer.
     */
    void release(int role) {
        LOCK.setRelease(this, 0);
        if (((int) FLAGS.getOpaque(this) & URGENT) != 0) {
            releaseUrgent(role);
        }
    }

    /** {@link #release} when an outcome waits for a decision: take the lock back, drain, and leave again. */
    private void releaseUrgent(int role) {
        for (; ; ) {
            if (((int) FLAGS.getOpaque(this) & URGENT) == 0
                    || (int) LOCK.getOpaque(this) != 0
                    || !LOCK.compareAndSet(this, 0, role)) {
                return;
            }
            try {
                if (drainAll()) {
                    FLAGS.getAndBitwiseOr(this, TRIP_PENDING); // nobody to tell now: the next offer reports it
                }
                publish();
            } catch (RuntimeException | Error e) {
                LOCK.setRelease(this, 0);
                throw e;
            }
            LOCK.setRelease(this, 0); // and look again: an outcome may have been marked meanwhile
        }
    }

    private boolean drainAll() {
        if (((int) FLAGS.getOpaque(this) & URGENT) != 0) {
            FLAGS.getAndBitwiseAnd(this, ~URGENT); // before draining: an outcome appended after is marked again
        }
        if (stripesChanged) {
            refreshKnown();
        }
        boolean trips = false;
        int drained = 0;
        for (Stripe s : known) {
            int before = s.drainedSoFar();
            trips |= s.drain(this);
            drained += (s.drainedSoFar() - before) & 0xFFFF;
        }
        lastDrained = drained;
        return trips;
    }

    /** Entries the last {@link #drainAll} applied (holder only). */
    private int lastDrained;

    /**
     * Batches whose budgets a collision lets take the lag, counted from the one that sees it:
     * under steady contention recorders collide every few batches, and a grant that lasted one
     * batch (or two) came and went with them (2 threads, 40% failures, rings of 50 and 100: 50 and
     * 50 ns a call with 2, 46 and 47 with 8, no better with 32).
     */
    static final int LAG_BATCHES = 8;

    /** Batches left that grant the lag, since the last collision seen (holder only). */
    private int lagBatches;

    private void refreshKnown() {
        stripesChanged = false;
        Stripe[] now = new Stripe[MAX_STRIPES];
        int n = 0;
        for (int i = 0; i < MAX_STRIPES; i++) { // one pass: stripes may be made meanwhile
            Stripe s = stripeAt(i);
            if (s != null) {
                now[n++] = s;
            }
        }
        known = java.util.Arrays.copyOf(now, n);
        for (Stripe s : known) {
            s.list(); // drained from now on: it may take entries
            // a new stripe starts closed: open it unless the window is declared healthy and its
            // counted successes keep their order with bad outcomes (so those take the lock)
            if (!declaredHealthy || !successesKeepOrder()) {
                s.open();
            }
        }
    }

    /** The stripe at {@code i}, made if it does not exist yet. */
    private Stripe stripeOf(int i) {
        Stripe s = stripeAt(i);
        if (s == null) {
            Stripe[] all = stripes;
            if (all == null) {
                STRIPES.compareAndSet(this, null, new Stripe[MAX_STRIPES]);
                all = stripes;
            }
            STRIPE.compareAndSet(all, i, null, new Stripe(runs)); // closed to bad outcomes until a holder opens it
            s = (Stripe) STRIPE.getVolatile(all, i);
            Races.at(Races.STRIPE_INSTALLED); // a race point: nothing unless -Ddev.breaker.races=true
            stripesChanged = true;
        }
        return s;
    }

    /** The stripe at {@code i}, or null if none was made there (or none at all yet). */
    private Stripe stripeAt(int i) {
        Stripe[] all = stripes;
        return all == null ? null : (Stripe) STRIPE.getVolatile(all, i);
    }

    /** The gate while nothing may be buffered. */
    private static final long NO_BUFFERING = 0xFFFF_FFFFL;

    /**
     * After a batch: publish the gate, each stripe's budget and the health of the window; holder
     * only. Kept small enough to inline: one thread recording alone, with its health unchanged,
     * has nothing to publish.
     */
    private void publish() {
        if (stripesChanged
                || buffering
                || gate != NO_BUFFERING
                || plainSuccessNeedsNoLock() != declaredHealthy
                || published != stampLocked()
                || (declaredHealthy && ((int) FLAGS.getOpaque(this) & HEALTHY) == 0)) { // taken down by markUrgent
            publishChanges();
        }
    }

    private void publishChanges() {
        if (buffering && stripeAt(index()) == null) {
            stripeOf(index()); // the holder's own stripe, listed just below, so its next outcomes can be buffered
        }
        if (stripesChanged) {
            refreshKnown();
        }
        long g;
        if (buffering) {
            if (lastDrained == 0 && ++quietHolds >= QUIET_HOLDS) {
                buffering = false; // one thread at a time again: back to taking the lock
            } else if (lastDrained != 0) {
                quietHolds = 0;
            }
        }
        int share = -1; // no buffering: every outcome takes the lock
        int safe = -1;
        if (buffering) {
            everBuffered = true;
            long both = shareLocked();
            share = (int) both;
            safe = (int) (both >>> 32);
            g = ((long) (int) stampLocked() << 32) | (share & 0xFFFF_FFFFL);
        } else {
            g = NO_BUFFERING;
            lagBatches = 0; // one thread at a time again: a collision noted before grants nothing later
            if (collided) {
                collided = false;
            }
        }
        boolean ended = false;
        if (g != gate) { // only changes are written: every offer reads this line
            gate = g;
            ended = !buffering && everBuffered;
        }
        if (buffering || ended) {
            if (successesKeepOrder()) {
                for (Stripe st : known) {
                    st.budget(
                            share,
                            Integer.MAX_VALUE); // what each stripe may still buffer of bad outcomes, beyond this exact
                    // state
                }
            } else {
                budgetWithinTheMargin(share, safe);
            }
        }
        if (ended) {
            // buffering just ended: a thread that read the old gate may have appended after this
            // hold's drain without seeing the new gate; the next offer (or release) drains all
            FLAGS.getAndBitwiseOr(this, URGENT);
        }
        publishHealth();
    }

    /**
     * The budgets of a window whose stripes stay open while successes are counted
     * ({@link #successesKeepOrder} false): every bad outcome pending in a stripe, and every one
     * the budgets still allow, must fit in the margin together, or a thread's counted success,
     * applied before its own earlier bad outcome, could dilute a trip that every order of its
     * outcomes reaches. A drain and the appends within budgets keep that true while the stamp
     * stays; a move to a stamp whose margin is smaller (buckets left), the end of buffering with
     * outcomes still pending, or a margin computed on fewer calls can break it. So, before any
     * budget is raised: when what is pending and allowed is more than the margin, the pending
     * outcomes are decided now, as urgent, with the {@code HEALTHY} flag down (and before the new
     * stamp is published, after this), if the window may count successes. Then each stripe gets
     * its share less its pending outcomes, capped so that the total stays within the margin (so a
     * subclass's lag gives such a window nothing beyond its margin). Found by three reviews, each
     * a hole in the one before: budgets set before the flag went down; a margin of -1 with
     * outcomes pending; the end of buffering.
     */
    private void budgetWithinTheMargin(int share, int safe) {
        long room = Math.max(0, safe); // -1 when buffering ends, or when even a success could trip
        for (Stripe st : known) {
            room -= st.committed();
        }
        if (room < 0 && (declaredHealthy || plainSuccessNeedsNoLock())) {
            markUrgent(true);
        }
        for (Stripe st : known) {
            long before = st.committed(); // as in the first pass, unless a drain or an urgent append came between
            int after = st.budget(share, (int) Math.max(0, Math.min(Integer.MAX_VALUE, room + before)));
            room -= after - before;
        }
    }

    /**
     * Publishes the stamp and the health of the window, in the order {@link #published} needs: the
     * flag down first if the window is no longer healthy, then the count of successes and the
     * published stamp moved together, then the flag up if it became healthy.
     */
    private void publishHealth() {
        boolean healthy = plainSuccessNeedsNoLock();
        boolean ordered = successesKeepOrder();
        // an outcome beyond its budget may have taken the bit down (markUrgent): declared again below
        if (declaredHealthy && (!healthy || ((int) FLAGS.getVolatile(this) & HEALTHY) == 0)) {
            declaredHealthy = false;
            FLAGS.getAndBitwiseAnd(this, ~HEALTHY);
            if (ordered) {
                openAll(); // after the flag is down: no bad outcome is pending while the flag is up
            }
        }
        long now = stampLocked();
        if (published != now) {
            if (successes != null) {
                successes.restamp(now); // normally done already, by the subclass as it moved on
            }
            published = now;
        }
        if (healthy && !declaredHealthy) {
            if (successes == null) {
                successes = new CountedSuccesses(now); // before the flag that lets offers use it
            }
            if (ordered) {
                if (closeAll()) {
                    declaredHealthy = true;
                    FLAGS.getAndBitwiseOr(this, HEALTHY);
                }
            } else if (raiseHealthy()) {
                declaredHealthy = true;
            }
        }
    }

    /**
     * Raises the {@code HEALTHY} bit, for a window whose stripes stay open while successes are
     * counted, unless the urgent bit is up: an outcome beyond its budget
     * waits, and the drain that takes it (which lowers the urgent bit first) must come before any
     * success of its thread is counted (see {@link #markUrgent}).
     */
    private boolean raiseHealthy() {
        for (; ; ) {
            int f = (int) FLAGS.getVolatile(this);
            if ((f & URGENT) != 0) {
                return false;
            }
            if (FLAGS.compareAndSet(this, f, f | HEALTHY)) {
                return true;
            }
        }
    }

    /**
     * Each stripe's share of the margin, at least the subclass's lag in the {@link #LAG_BATCHES}
     * batches from a collision (none where the margin is negative: even a success could trip);
     * holder only, while buffering.
     *
     * @return the margin in the high 32 bits, the share in the low 32
     */
    private long shareLocked() {
        int safe = safeBadOutcomesLocked();
        int count = Math.max(1, known.length);
        int share = safe < 0 ? -1 : count == 1 ? safe : safe / count;
        if (collided) {
            collided = false; // consumed: later batches grant a lag only if recorders collide again
            lagBatches = LAG_BATCHES;
        }
        if (lagBatches > 0) {
            lagBatches--;
            if (share >= 0) {
                share = Math.max(share, Math.min(BUFFER, contendedLagLocked()));
            }
        }
        return ((long) safe << 32) | (share & 0xFFFF_FFFFL);
    }

    /**
     * Closes every stripe to bad outcomes, if none has one pending: then none can be appended
     * while the window is healthy. False (and every stripe open again) when some stripe has one.
     */
    private boolean closeAll() {
        for (Stripe s : known) {
            if (!s.close()) {
                openAll();
                return false;
            }
        }
        return true;
    }

    private void openAll() {
        for (Stripe s : known) {
            s.open();
        }
    }

    /** The calling thread's stripe index: fixed for the thread's life (package-private for tests). */
    static int index() {
        return Stripes.index();
    }
}
