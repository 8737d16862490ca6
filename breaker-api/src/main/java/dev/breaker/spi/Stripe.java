package dev.breaker.spi;

import static dev.breaker.spi.CombiningWindow.BUFFER;
import static dev.breaker.spi.CombiningWindow.FAILED;
import static dev.breaker.spi.CombiningWindow.RUN_BUFFER;
import static dev.breaker.spi.CombiningWindow.SLOW;
import static dev.breaker.spi.CombiningWindow.STAMP_SHIFT;

import dev.breaker.internal.race.Races;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One stripe of a {@link CombiningWindow}'s buffers (its class comment tells the whole protocol:
 * who appends here, when, and who drains): a bounded queue with many producers (threads that hash here) and one
 * consumer (the lock holder). {@code tail} packs, so that one compare-and-set claims a slot and
 * checks and charges everything: the entries ever claimed (16 bits, modulo 2^16), the bad ones
 * among them (16 bits, modulo 2^16), the plain successes taken as a run (16 bits, modulo 2^16,
 * below), the <i>budget</i> (how many more bad outcomes may be buffered, 14 bits) and a "closed
 * to bad outcomes" bit. {@code head} packs what the consumer has drained the same way.
 *
 * <p><b>Runs of successes.</b> For a window whose stamps are all 0 (a count window), a plain
 * success needs no entry: it only adds one to the stripe's count of successes, in the same
 * compare-and-set, and a bad outcome's entry keeps that count as it was when its slot was
 * claimed. The word's compare-and-sets put the stripe's outcomes in one order, so the consumer
 * knows how many successes came before each entry and after the last, and applies each run of
 * them at once ({@link CombiningWindow#applySuccessesLocked}): the holder's work per success
 * is gone, and so are the entry's write here and its read there. A stripe takes at most
 * {@code RUN_BUFFER} successes beside its {@code BUFFER} entries before it is full.
 *
 * <p>The budget is set by the holder after each batch, to its share of the margin less the
 * bad outcomes already pending here, and only appends spend it: a drain does not give it back.
 * So every bad outcome buffered since a holder computed a margin counts against that margin,
 * even one appended with a gate read before the holder changed it; and a holder that sets a
 * new budget changes the word, so an appender that read the old one fails its compare-and-set
 * and reads again.
 *
 * <p>A claimed slot is written right after the claim; a consumer that finds it still empty
 * waits for the write (a thread's outcomes must be applied in its order), as JCTools' MPSC
 * queues do.
 */
final class Stripe {
    static final int TAKEN = 0;
    static final int FULL = 1;
    static final int CLOSED = 2;
    private static final int MASK = BUFFER - 1;
    private static final int SIXTEEN = 0xFFFF;
    /**
     * The largest budget: pending entries never pass {@code BUFFER}, and a holder that drains sets
     * a new budget, so a larger one would be spent no sooner (a smaller one is always safe).
     */
    private static final int BUDGET_MAX = (1 << 14) - 1;

    private static final int BUDGET_SHIFT = 48;
    /** One more success in a run: the successes' field of {@code tail}. */
    private static final long ONE_SUCCESS = 1L << 32;
    /** The successes' field of {@code tail}. */
    private static final long SUCCESSES = 0xFFFFL << 32;

    private static final long NO_BAD = 1L << 62;
    /**
     * Not yet in the holder's {@code known}. A stripe is visible to other threads from the
     * moment its maker installs it, and its maker flags {@code stripesChanged} only after
     * that: an entry appended in between, by another thread of the same index, would sit where
     * no drain looks, and that thread's later outcome could be applied before it (found by
     * review). So every appender that finds this bit flags {@code stripesChanged} itself
     * before its append; the next drain lists the stripe (clears the bit) and drains it.
     */
    private static final long UNLISTED = 1L << 63;

    private static final VarHandle TAIL;
    private static final VarHandle HEAD;
    private static final VarHandle ENTRIES = MethodHandles.arrayElementVarHandle(long[].class);

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            TAIL = lookup.findVarHandle(Stripe.class, "tail", long.class);
            HEAD = lookup.findVarHandle(Stripe.class, "head", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Starts unlisted and closed, with no budget: a holder lists and opens it and sets its budget at its next batch. */
    @SuppressWarnings("unused") // accessed through TAIL
    private volatile long tail = UNLISTED | NO_BAD;

    @SuppressWarnings("unused") // accessed through HEAD
    private volatile long head;

    private final long[] entries = new long[BUFFER];

    /** Whether plain successes are taken as runs, with no entry (see the class comment). */
    private final boolean runs;

    /**
     * A stripe, closed and unlisted.
     *
     * @param runs whether plain successes are taken as runs: only for a window whose stamps are all 0
     */
    Stripe(boolean runs) {
        this.runs = runs;
    }

    private static int position(long packed) {
        return (int) packed & SIXTEEN;
    }

    private static int bad(long packed) {
        return (int) (packed >>> 16) & SIXTEEN;
    }

    private static int successes(long packed) {
        return (int) (packed >>> 32) & SIXTEEN;
    }

    private static int budgetOf(long packed) {
        return (int) (packed >>> BUDGET_SHIFT) & BUDGET_MAX;
    }

    private static long pack(int position, int bad, int successes, int budget, long flags) {
        return (position & SIXTEEN)
                | ((long) (bad & SIXTEEN) << 16)
                | ((long) (successes & SIXTEEN) << 32)
                | ((long) budget << BUDGET_SHIFT)
                | flags;
    }

    /**
     * Appends an entry if there is room and, for a bad one, if the stripe is open to bad
     * outcomes and has budget left ({@code urgent}: whatever the budget; it is to be decided
     * at once by whoever holds the lock).
     */
    int offer(CombiningWindow window, long entry, boolean isBad, boolean urgent) {
        for (; ; ) {
            long t = (long) TAIL.getVolatile(this);
            if (t < 0 && !window.stripesChanged) { // UNLISTED: have the next drain list it, before appending
                window.stripesChanged = true;
            }
            long h = (long) HEAD.getVolatile(this);
            if (runs && !isBad) { // one more success in the current run: no entry
                if (((successes(t) - successes(h)) & SIXTEEN) >= RUN_BUFFER) {
                    return FULL;
                }
                // the field wraps modulo 2^16 without carrying into the budget above it
                if (TAIL.compareAndSet(this, t, (t & ~SUCCESSES) | ((t + ONE_SUCCESS) & SUCCESSES))) {
                    return TAKEN;
                }
                continue;
            }
            if (((position(t) - position(h)) & SIXTEEN) >= BUFFER) {
                return FULL;
            }
            int badCount = bad(t);
            int budget = budgetOf(t);
            if (isBad) {
                if ((t & NO_BAD) != 0) {
                    return CLOSED;
                }
                if (budget == 0) {
                    if (!urgent) {
                        return FULL;
                    }
                } else {
                    budget--;
                }
                badCount++;
            }
            if (TAIL.compareAndSet(
                    this, t, pack(position(t) + 1, badCount, successes(t), budget, t & (NO_BAD | UNLISTED)))) {
                // in runs, the entry keeps the successes taken before it in place of its stamp (all 0 there)
                ENTRIES.setRelease(
                        entries,
                        position(t) & MASK,
                        runs ? (entry & ~(-1L << STAMP_SHIFT)) | ((long) successes(t) << STAMP_SHIFT) : entry);
                return TAKEN;
            }
        }
    }

    /**
     * Sets the budget to {@code share} less the bad outcomes pending here (none for a negative
     * share); holder only.
     *
     * @param share what this stripe may hold of bad outcomes, those pending included
     * @return the bad outcomes pending here and the new budget, together
     */
    int budget(int share) {
        return budget(share, Integer.MAX_VALUE);
    }

    /**
     * Sets the budget to {@code share} less the bad outcomes pending here (none for a negative
     * share), and no more than leaves {@code most} pending and allowed together; holder only.
     *
     * @param share what this stripe may hold of bad outcomes, those pending included
     * @param most the most pending and allowed together (at least 0)
     * @return the bad outcomes pending here and the new budget, together
     */
    int budget(int share, int most) {
        for (; ; ) {
            long t = (long) TAIL.getVolatile(this);
            int pending = (bad(t) - bad((long) HEAD.getOpaque(this))) & SIXTEEN;
            int b = (int) Math.min(BUDGET_MAX, Math.max(0, Math.min((long) share, most) - pending));
            Races.at(Races.BUDGET_READ); // a race point: nothing unless -Ddev.breaker.races=true
            if (budgetOf(t) == b
                    || TAIL.compareAndSet(this, t, pack(position(t), bad(t), successes(t), b, t & NO_BAD))) {
                return pending + b;
            }
        }
    }

    /**
     * The bad outcomes pending here and the budget left, together: an append within the budget
     * moves one from the budget to the pending, so only a drain or a new budget changes it; holder
     * only.
     *
     * @return pending and budget
     */
    int committed() {
        long t = (long) TAIL.getVolatile(this);
        return ((bad(t) - bad((long) HEAD.getOpaque(this))) & SIXTEEN) + budgetOf(t);
    }

    /** Closes the stripe to bad outcomes if none is pending; holder only. */
    boolean close() {
        for (; ; ) {
            long t = (long) TAIL.getVolatile(this);
            if ((t & NO_BAD) != 0) {
                return true;
            }
            if (((bad(t) - bad((long) HEAD.getVolatile(this))) & SIXTEEN) != 0) {
                return false;
            }
            Races.at(Races.CLOSE_READ); // a race point: nothing unless -Ddev.breaker.races=true
            if (TAIL.compareAndSet(this, t, t | NO_BAD)) {
                return true;
            }
        }
    }

    /** Lets the stripe take entries: it is in the holder's {@code known}; holder only. */
    void list() {
        for (; ; ) {
            long t = (long) TAIL.getVolatile(this);
            if ((t & UNLISTED) == 0 || TAIL.compareAndSet(this, t, t & ~UNLISTED)) {
                return;
            }
        }
    }

    /** Opens the stripe to bad outcomes again; holder only. */
    void open() {
        for (; ; ) {
            long t = (long) TAIL.getVolatile(this);
            if ((t & NO_BAD) == 0 || TAIL.compareAndSet(this, t, t & ~NO_BAD)) {
                return;
            }
        }
    }

    /** Outcomes drained so far (entries and successes taken as runs), modulo 2^16; holder only. */
    int drainedSoFar() {
        long h = (long) HEAD.getOpaque(this);
        return (position(h) + successes(h)) & SIXTEEN;
    }

    /**
     * The entry in a claimed slot. One claimed and not yet written means its writer is between two
     * instructions: skipping it would let a later outcome of the same thread be applied first, so
     * wait (spins, then yields and parks: the writer was preempted there).
     */
    private long awaitEntry(int slot) {
        long entry = (long) ENTRIES.getAcquire(entries, slot);
        for (int spins = 0; entry == 0; spins++) {
            Pause.pause(spins);
            entry = (long) ENTRIES.getAcquire(entries, slot);
        }
        return entry;
    }

    /** Applies what is buffered, in order; holder only. */
    boolean drain(CombiningWindow window) {
        long h = (long) HEAD.getOpaque(this);
        long t = (long) TAIL.getVolatile(this);
        int claimed = position(t);
        int at = position(h);
        if (runs) {
            return drainRuns(window, h, t);
        }
        if (at == claimed) {
            return false;
        }
        int drainedBad = 0;
        boolean trips = false;
        try {
            do {
                int slot = at & MASK;
                long entry = awaitEntry(slot);
                entries[slot] = 0;
                at = (at + 1) & SIXTEEN; // consumed even should applying it throw: a zeroed slot behind head would hang
                // the next drain
                int outcome = (int) entry & (FAILED | SLOW);
                if (outcome != 0) {
                    drainedBad++;
                }
                trips |= window.applyLocked(outcome, entry >>> STAMP_SHIFT);
            } while (at != claimed);
        } finally {
            // after the zeroing, so a producer reusing a slot finds it empty
            HEAD.setRelease(this, pack(at, bad(h) + drainedBad, 0, 0, 0));
        }
        return trips;
    }

    /**
     * {@link #drain} for a stripe that takes successes as runs: every entry is a bad outcome that
     * keeps the successes taken before it, so each run is applied just before the entry that
     * ended it, and the last run after the last entry, all as the tail word read here has them.
     */
    private boolean drainRuns(CombiningWindow window, long h, long t) {
        int claimed = position(t);
        int at = position(h);
        int lastRun = successes(t);
        int ran = successes(h);
        if (at == claimed && ran == lastRun) {
            return false;
        }
        boolean trips = false;
        try {
            while (at != claimed) {
                int slot = at & MASK;
                long entry = awaitEntry(slot);
                int before = (int) (entry >>> STAMP_SHIFT) & SIXTEEN;
                int run = (before - ran) & SIXTEEN;
                // the run first, while the entry stays in its slot: a run whose applying throws is
                // consumed (as an entry is), and the entry after it waits for the next drain
                ran = before;
                if (run > 0) {
                    trips |= window.applySuccessesLocked(run);
                }
                entries[slot] = 0;
                at = (at + 1) & SIXTEEN;
                trips |= window.applyLocked((int) entry & (FAILED | SLOW), 0);
            }
            int run = (lastRun - ran) & SIXTEEN;
            ran = lastRun;
            if (run > 0) {
                trips |= window.applySuccessesLocked(run);
            }
        } finally {
            // entries here are all bad: the bad ones drained are the entries drained
            HEAD.setRelease(this, pack(at, at, ran, 0, 0));
        }
        return trips;
    }
}
