package dev.breaker.internal.race;

import java.util.function.IntConsumer;

/**
 * Race points: named places between two steps of a lock-free protocol, where a test can hold a
 * thread while other threads act, so that an interleaving the protocol must survive is forced
 * rather than hoped for. A race test meets such an interleaving now and then; a test with a race
 * point meets it every run, and a mutation run can count on its verdict.
 *
 * <p><b>Off unless asked for.</b> A point is written {@code Races.at(Races.X);}, one line that the
 * mutation profile leaves unmutated (it is scaffolding for tests, not behaviour). {@link #ON} is
 * read once, from the system property {@code dev.breaker.races}, which only
 * each library module's race-point test execution and the mutation profile set: every other test
 * runs the code as it ships. Off, {@link #at} tests a constant, and the JIT, which inlines so
 * small a static method, compiles the whole point away. On, a point reads one volatile field and
 * goes on while no test has installed a handler.
 *
 * <p><b>Who uses it.</b> The package is exported to {@code dev.breaker.events} alone, whose
 * asynchronous bus and logger have points of their own; each module names its points, this class
 * those of {@code dev.breaker} (1 to 99) and {@code dev.breaker.events} its own (from 100), and
 * only their tests install a handler.
 */
public final class Races {

    /** Whether race points call the handler: the system property {@code dev.breaker.races}. */
    public static final boolean ON = on();

    private static boolean on() {
        try {
            return Boolean.getBoolean("dev.breaker.races");
        } catch (SecurityException e) { // a security manager that hides properties: off
            return false;
        }
    }

    /**
     * {@code CombiningWindow}: a thread has installed a new stripe, which others of the same
     * stripe index can now append to, and has not yet told the holder that the stripes changed.
     */
    public static final int STRIPE_INSTALLED = 1;

    /**
     * {@code CombiningWindow}: an offer read the window's flags and found one up; it has not yet
     * acted on them (a trip found by a drain, an urgent outcome, the healthy mode).
     */
    public static final int FLAGS_READ = 2;

    /**
     * {@code Stripe}: the lock holder read a stripe's tail to set its budget for the next batch,
     * and has not yet written it; appenders may spend the old budget meanwhile.
     */
    public static final int BUDGET_READ = 3;

    /**
     * {@code Stripe}: the lock holder, declaring the window healthy, read a stripe's tail with no
     * bad outcome pending and has not yet closed the stripe to bad outcomes.
     */
    public static final int CLOSE_READ = 4;

    /**
     * {@code CombiningWindow}: a recorder found a reader of the counts holding the lock and waits
     * for it, about to look at the lock again (a writer may have taken it meanwhile).
     */
    public static final int READER_AWAITED = 5;

    /**
     * {@code CombiningWindow}: an offer read the gate open for its stamp and has not yet appended
     * to its stripe; a holder may end buffering meanwhile.
     */
    public static final int GATE_READ = 6;

    /**
     * {@code OpenShare}: a trip or an isolation, about to hold a place under a registry's open-share
     * cap, read which era holds the breaker's place and has not yet acted on it; a close may give
     * that place back, or the registry remove the breaker, meanwhile.
     */
    public static final int PLACE_READ = 7;

    /**
     * {@code DefaultCircuitBreaker}: a transition's compare-and-set succeeded and the breaker has
     * not yet settled its place under the open-share cap (given it back on entering CLOSED, taken
     * it on entering ISOLATED); other transitions and trips may run meanwhile.
     */
    public static final int TRANSITIONED = 8;

    /**
     * {@code EventDispatcher}: a thread about to try a transition read the ring slot of its
     * snapshot's event and found it free for that event; it has not yet stored it. Another thread
     * may store an older generation's event there, or the drainer empty it, meanwhile.
     */
    public static final int RING_READ = 9;

    /**
     * {@code EventDispatcher}: the elected drainer ended a round (delivering, or dropping on its way
     * down) and has not yet subtracted the arrivals it accounted for; more may arrive meanwhile.
     */
    public static final int DRAINED_ROUND = 10;

    /**
     * {@code CombiningWindow}: a breaker attaching the window to its totals found it free and has
     * not yet taken it; another breaker given the same window may try to attach it meanwhile.
     */
    public static final int ATTACHING = 11;

    /**
     * {@code CombiningWindow}: a thread that must hold the window's lock (an attach, a retire, a
     * reader of the counts) found it taken and waits, about to look again.
     */
    public static final int LOCK_AWAITED = 12;

    /**
     * {@code CombiningWindow}: a thread found the lock busy, buffered an outcome that should be
     * decided and raised the urgent bit; it has not yet looked at the lock again.
     */
    public static final int URGENT_MARKED = 13;

    /**
     * {@code CombiningWindow}: an outcome whose stripe refused it found another recorder holding
     * the lock and waits for that holder's new budgets; it has not yet looked at its stripe again.
     */
    public static final int HOLDER_AWAITED = 14;

    /**
     * {@code BreakerRegistry}: an idle sweep found a breaker idle and free to go, and has not yet
     * removed it; a call or a trip may land meanwhile.
     */
    public static final int EVICTION_CHECKED = 15;

    private static volatile IntConsumer handler;

    private Races() {}

    /**
     * Runs the handler, if a test installed one, at a race point.
     *
     * @param point one of the constants of this class
     */
    public static void at(int point) {
        if (ON) { // a constant: while it is false, the JIT inlines this call to nothing
            IntConsumer h = handler;
            if (h != null) {
                h.accept(point);
            }
        }
    }

    /**
     * Installs the handler that every race point calls, on every thread; null removes it.
     *
     * @param h what to run at each point, given the point
     * @throws IllegalStateException when race points are off: the JVM was not started with
     *     {@code -Ddev.breaker.races=true}
     */
    public static void handle(IntConsumer h) {
        if (!ON) {
            throw new IllegalStateException(
                    "race points are off: start the JVM with -Ddev.breaker.races=true (this build's tests do)");
        }
        handler = h;
    }
}
