package dev.breaker.spi;

import dev.breaker.internal.Totals;
import dev.breaker.internal.WindowTotals;
import dev.breaker.internal.race.Races;

/**
 * {@link WindowTotals}' access to a {@link CombiningWindow}'s share of the breaker's running
 * counts (the class comment there, "The breaker's running counts", tells the scheme), which keeps
 * these holds off the public API. Each step holds the window's lock as a reader: attaching the
 * totals, retiring the window (its lanes and counted successes handed over once, and later calls
 * counted in the totals directly), and reading, so that a reader finds every call in one place.
 */
final class WindowCounting implements WindowTotals.Counting {

    WindowCounting() {}

    @Override
    public void attach(Window w, Totals totals) {
        CombiningWindow cw = (CombiningWindow) w;
        cw.lockWaiting(CombiningWindow.READER);
        try {
            if (cw.sink == null && !cw.retired) { // else it counts for a breaker already
                Races.at(Races.ATTACHING); // a race point: nothing unless -Ddev.breaker.races=true
                cw.sink = totals;
                cw.lanes = 0;
            }
        } finally {
            cw.unlock();
        }
    }

    @Override
    public boolean countsInto(Window w, Totals totals) {
        return ((CombiningWindow) w).sink == totals;
    }

    @Override
    public boolean countsForAnother(Window w, Totals totals) {
        Totals sink = ((CombiningWindow) w).sink;
        return sink != null && sink != totals;
    }

    @Override
    public void retire(Window w, Totals totals) {
        CombiningWindow cw = (CombiningWindow) w;
        cw.lockWaiting(CombiningWindow.READER);
        try {
            if (cw.sink == totals && !cw.retired) {
                cw.addLanes();
                if (cw.successes == null) {
                    cw.successes = CountedSuccesses.closed(); // a holder that raises the flag later finds it closed
                } else {
                    totals.add(Totals.FAST_SUCCESSES, cw.successes.close()); // a later one is refused, and counts aside
                }
                cw.retired = true;
                cw.lanes = CombiningWindow.LANES_FULL;
            }
        } finally {
            cw.unlock();
        }
    }

    @Override
    public void read(Window w, Totals totals, long[] into) {
        CombiningWindow cw = (CombiningWindow) w;
        cw.lockWaiting(CombiningWindow.READER);
        try {
            if (cw.sink == totals && !cw.retired) {
                for (int o = CombiningWindow.FAILED | CombiningWindow.SLOW; o >= 0; o--) {
                    into[o] += (cw.lanes >>> (o << 4)) & 0xFFFF;
                }
                into[Totals.FAST_SUCCESSES] += cw.countedSuccesses();
            }
            totals.addCalls(into);
        } finally {
            cw.release(CombiningWindow.READER); // drains what came meanwhile, as a reader of the counts does
        }
    }
}
