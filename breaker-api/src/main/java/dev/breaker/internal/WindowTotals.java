package dev.breaker.internal;

import dev.breaker.spi.Window;

/**
 * How a breaker has its window count its calls, for the windows that can
 * ({@link dev.breaker.spi.CombiningWindow}'s): a call applied under the window's lock is counted
 * there in a plain field, which saves the breaker an atomic add per call. The window registers
 * itself here when its class is initialised, so none of this is on the public API.
 *
 * <p>The protocol, for one breaker and its {@link Totals}: {@link #attach} a window before it is
 * published; {@link #retire} it before the compare-and-set that publishes another one, after
 * which any call it still takes goes straight into the totals; and read the {@link #calls}
 * through whatever window is current. A read and a retire take the window's lock, so a read sees
 * the window's calls either still in the window or already in the totals, never both and never
 * neither: the counts never go back.
 */
public final class WindowTotals {

    /** What a counting window does; implemented by {@link dev.breaker.spi.CombiningWindow} alone. */
    public interface Counting {
        /**
         * Has the window count into the totals, unless it already counts for someone.
         *
         * @param w a window of the implementing class
         * @param totals the breaker's totals
         */
        void attach(Window w, Totals totals);

        /**
         * Whether the window counts into these totals (a plain read: for the thread that attached it).
         *
         * @param w a window of the implementing class
         * @param totals the breaker's totals
         * @return true when attached to them
         */
        boolean countsInto(Window w, Totals totals);

        /**
         * Whether the window counts into other totals than these (a plain read).
         *
         * @param w a window of the implementing class
         * @param totals the breaker's totals
         * @return true when attached to another breaker's
         */
        boolean countsForAnother(Window w, Totals totals);

        /**
         * Hands the window's calls to its totals; later calls go there directly. Idempotent.
         *
         * @param w a window of the implementing class
         * @param totals the breaker's totals: nothing happens unless the window counts into them
         */
        void retire(Window w, Totals totals);

        /**
         * Adds the calls by outcome to {@code into}: the window's own, unless retired, and the totals'.
         *
         * @param w a window of the implementing class
         * @param totals the breaker's totals
         * @param into four counts indexed like {@link Totals#FAST_SUCCESSES} to {@link Totals#SLOW_FAILURES}
         */
        void read(Window w, Totals totals, long[] into);
    }

    private static volatile Counting counting;
    private static volatile Class<?> countingClass;

    private WindowTotals() {}

    /**
     * Called once, by the counting window class's initialiser.
     *
     * @param type the window class that implements it
     * @param c how
     */
    public static synchronized void register(Class<?> type, Counting c) {
        if (counting == null) {
            counting = c;
            countingClass = type;
        }
    }

    private static Counting of(Window w) {
        Class<?> type = countingClass;
        return type != null && type.isInstance(w) ? counting : null;
    }

    /**
     * Has a fresh window count a breaker's calls, if it can and counts for nobody yet; then
     * {@link #countsInto} says so, and the breaker must not count them itself.
     *
     * @param w the window, not yet published
     * @param totals the breaker's totals
     */
    public static void attach(Window w, Totals totals) {
        Counting c = of(w);
        if (c != null) {
            c.attach(w, totals);
        }
    }

    /**
     * Whether a window counts into these totals.
     *
     * @param w the window
     * @param totals the breaker's totals
     * @return true when it was attached to them
     */
    public static boolean countsInto(Window w, Totals totals) {
        Counting c = of(w);
        return c != null && c.countsInto(w, totals);
    }

    /**
     * Whether a window already counts another breaker's calls (a factory that handed out one
     * window twice: the breaker must refuse it, or that breaker would count its calls too).
     *
     * @param w the window
     * @param totals the breaker's totals
     * @return true when it counts into other totals
     */
    public static boolean countsForAnother(Window w, Totals totals) {
        Counting c = of(w);
        return c != null && c.countsForAnother(w, totals);
    }

    /**
     * Before a window stops being the breaker's: its calls move to the totals.
     *
     * @param w the window
     * @param totals the breaker's totals
     */
    public static void retire(Window w, Totals totals) {
        Counting c = of(w);
        if (c != null) {
            c.retire(w, totals);
        }
    }

    /**
     * The calls by outcome, through the current window.
     *
     * @param w the current window
     * @param totals the breaker's totals
     * @return four counts indexed like {@link Totals#FAST_SUCCESSES} to {@link Totals#SLOW_FAILURES}
     */
    public static long[] calls(Window w, Totals totals) {
        long[] into = new long[Totals.SLOW_FAILURES + 1];
        Counting c = of(w);
        if (c != null) {
            c.read(w, totals, into);
        } else {
            totals.addCalls(into);
        }
        return into;
    }
}
