package dev.breaker.replay;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * The readable output: one column per configuration, one row per figure, then each
 * configuration's transitions (the first {@link #LISTED} of them).
 */
final class Table {

    /** Transitions listed per configuration; the JSON lists more. */
    static final int LISTED = 12;

    private Table() {}

    static String format(String traceName, Replay.Result result) {
        StringBuilder b = new StringBuilder();
        List<Summary> all = result.summaries();
        long failures = all.isEmpty() ? 0 : all.get(0).failures();
        b.append("trace ")
                .append(traceName)
                .append(": ")
                .append(count(result.rows()))
                .append(" calls");
        if (result.rows() > 0) {
            b.append(" from ")
                    .append(time(result.firstNanos()))
                    .append(" to ")
                    .append(time(result.lastNanos()))
                    .append(", ")
                    .append(count(failures))
                    .append(" failures");
        }
        b.append("\n\n");
        List<String[]> rows = new ArrayList<>();
        rows.add(row("", all, s -> ConfigFile.label(s.config())));
        rows.add(row("calls", all, s -> count(s.calls())));
        rows.add(row("permitted", all, s -> count(s.permitted())));
        rows.add(row("rejected", all, s -> count(s.rejected())));
        rows.add(row("failures reached", all, s -> count(s.failuresReached())));
        rows.add(row("failures avoided", all, s -> count(s.failuresAvoided())));
        rows.add(row("successes rejected", all, s -> count(s.successesRejected())));
        rows.add(row("time to trip", all, s -> durationOrDash(s.timeToTripNanos())));
        rows.add(row("time to recover", all, s -> durationOrDash(s.timeToRecoverNanos())));
        rows.add(row("time not closed", all, s -> duration(s.notClosedNanos())));
        rows.add(row("transitions", all, s -> count(s.transitionCount())));
        int[] widths = new int[all.size() + 1];
        for (String[] r : rows) {
            for (int i = 0; i < r.length; i++) {
                widths[i] = Math.max(widths[i], r[i].length());
            }
        }
        for (String[] r : rows) {
            StringBuilder line = new StringBuilder();
            line.append(pad(r[0], widths[0], false));
            for (int i = 1; i < r.length; i++) {
                line.append("  ").append(pad(r[i], widths[i], true));
            }
            b.append(line.toString().stripTrailing()).append('\n');
        }
        b.append("\ntime to trip: from the start of the bad spell (the stretch before the first opening in which"
                + " bad calls,\n  failures or slow ones, most outnumber good ones) to that opening. time to recover:"
                + " from the end of\n  the bad spell (the last call at which they outnumbered good ones most) to the"
                + " first close after it.\n");
        for (Summary s : all) {
            b.append('\n').append(s.config()).append(':');
            if (s.transitionCount() == 0) {
                b.append(" no transitions\n");
                continue;
            }
            b.append('\n');
            int listed = 0;
            for (Transition t : s.transitions()) {
                if (listed++ == LISTED) {
                    break;
                }
                b.append(String.format(Locale.ROOT, "  %12s  %s -> %s%n", time(t.atNanos()), t.from(), t.to()));
            }
            long more = s.transitionCount() - Math.min(LISTED, s.transitions().size());
            if (more > 0) {
                b.append("  ... ")
                        .append(count(more))
                        .append(" more (--json lists the first ")
                        .append(Simulation.KEPT_TRANSITIONS)
                        .append(")\n");
            }
        }
        return b.toString();
    }

    private static String[] row(String label, List<Summary> all, Function<Summary, String> cell) {
        String[] r = new String[all.size() + 1];
        r[0] = label;
        for (int i = 0; i < all.size(); i++) {
            r[i + 1] = cell.apply(all.get(i));
        }
        return r;
    }

    private static String pad(String text, int width, boolean right) {
        String spaces = " ".repeat(width - text.length());
        return right ? spaces + text : text + spaces;
    }

    static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    private static String durationOrDash(long nanos) {
        return nanos < 0 ? "-" : duration(nanos);
    }

    /** A length of time for people: milliseconds below a second, seconds with 3 decimals above. */
    static String duration(long nanos) {
        if (nanos < 1_000_000_000L) {
            return Millis.format(Math.round(nanos / 1000.0) * 1000) + " ms";
        }
        return String.format(Locale.ROOT, "%,.3f s", nanos / 1e9);
    }

    /** A point of the trace's time, in seconds. */
    static String time(long nanos) {
        return String.format(Locale.ROOT, "%,.3f s", nanos / 1e9);
    }
}
