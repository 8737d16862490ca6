package dev.breaker.replay;

import dev.breaker.State;
import java.util.List;
import java.util.Locale;

/**
 * The picture of a run: one self-contained SVG (no script, no external font or file), every
 * configuration stacked on one time axis. At the top, the trace: its failure rate per interval
 * (and its mean duration, when it has durations). Then per configuration: a band of its state
 * (CLOSED, OPEN, HALF_OPEN; a bin split between states is split in height by the time spent in
 * each) and its calls per interval, the permitted ones above the line (successes, and failures that
 * reached the dependency) and the rejected ones below it (failures avoided, and successes rejected).
 * Bars in the two warning colours are where a configuration let bad calls through or turned good
 * ones away. Every configuration's series is a {@code <g class="config" id="config-N">}.
 */
final class SvgChart {

    static final String CLOSED = "#9fd89f";
    static final String OPEN = "#e15759";
    static final String HALF_OPEN = "#f2c14e";
    static final String SUCCESS_PERMITTED = "#a9c9e4";
    static final String FAILURE_REACHED = "#ff7f0e";
    static final String FAILURE_AVOIDED = "#9a9a9a";
    static final String SUCCESS_REJECTED = "#7b3294";
    static final String FAILURE_RATE = "#e15759";
    static final String DURATION = "#1f5fa8";

    private static final int WIDTH = 1400;
    private static final int LEFT = 110;
    private static final int RIGHT = 80;
    private static final int TOP = 110;
    private static final int TRACE_HEIGHT = 110;
    private static final int BAND = 16;
    private static final int BARS = 120;
    private static final int CONFIG_GAP = 46;
    private static final int AXIS = 64;
    private static final double SECONDS_SHOWN_AS_IS = 86_400;
    /**
     * A character's width in em, bold and plain, in DejaVu Sans (the widest of the fonts asked
     * for), to keep a configuration's heading within the picture.
     */
    private static final double TITLE_EM = 0.62;

    private static final double FIGURES_EM = 0.55;

    private SvgChart() {}

    static String draw(String traceName, Replay.Result result) {
        Bins bins = result.bins();
        List<Summary> summaries = result.summaries();
        int n = summaries.size();
        int configHeight = BAND + 6 + BARS + CONFIG_GAP;
        int height = TOP + TRACE_HEIGHT + CONFIG_GAP + n * configHeight + AXIS;
        int plotWidth = WIDTH - LEFT - RIGHT;
        Svg svg = new Svg(WIDTH, height);

        int used = Math.max(bins.used(), 1);
        long start = bins.start();
        long end = Bins.saturatedAdd(start, used * bins.width()); // times near Long.MAX_VALUE (the year 2262) fit
        double xScale = plotWidth / (double) (end - start);
        boolean relative = start / 1e9 >= SECONDS_SHOWN_AS_IS;
        long origin = relative ? (result.firstNanos() < 0 ? 0 : result.firstNanos()) : 0;

        svg.text(LEFT, 26, 18, "start", "bold", "breaker-replay: " + traceName);
        svg.text(
                LEFT,
                46,
                13,
                "start",
                "normal",
                Table.count(result.rows()) + " calls, " + n + (n == 1 ? " configuration" : " configurations")
                        + "; each bar is one interval of " + width(bins.width()) + " (" + used + " intervals)");
        legend(svg, 62);

        // the trace
        int traceTop = TOP;
        svg.heading(LEFT, traceTop - 8, "the trace", "failure rate per interval (left axis)");
        svg.raw("<rect x=\"" + LEFT + "\" y=\"" + traceTop + "\" width=\"" + plotWidth + "\" height=\"" + TRACE_HEIGHT
                + "\" fill=\"#fafafa\" stroke=\"#cccccc\"/>\n");
        for (int pct = 0; pct <= 100; pct += 50) {
            double y = traceTop + TRACE_HEIGHT - pct / 100.0 * TRACE_HEIGHT;
            svg.line(LEFT - 4, y, LEFT + plotWidth, y, pct == 0 ? "#999999" : "#e3e3e3");
            svg.text(LEFT - 8, y + 4, 11, "end", "normal", pct + "%");
        }
        StringBuilder rate = new StringBuilder();
        for (int i = 0; i < used; i++) {
            long ok = bins.count(Replay.TRACE_SUCCESSES, i);
            long bad = bins.count(Replay.TRACE_FAILURES, i);
            if (bad > 0) {
                double h = bad / (double) (ok + bad) * TRACE_HEIGHT;
                bar(rate, LEFT + i * bins.width() * xScale, traceTop + TRACE_HEIGHT - h, bins.width() * xScale, h);
            }
        }
        svg.path("trace-failure-rate", rate, FAILURE_RATE, 0.55);
        if (result.hasDuration()) {
            durations(svg, bins, used, traceTop, xScale, plotWidth);
        }

        // the configurations
        long maxCalls = 1;
        for (int i = 0; i < used; i++) {
            maxCalls = Math.max(maxCalls, bins.count(Replay.TRACE_SUCCESSES, i) + bins.count(Replay.TRACE_FAILURES, i));
        }
        int top = traceTop + TRACE_HEIGHT + CONFIG_GAP;
        for (int c = 0; c < n; c++) {
            config(svg, bins, used, c, summaries.get(c), top, xScale, plotWidth, maxCalls);
            top += configHeight;
        }

        // the time axis
        int axisY = top - CONFIG_GAP + 8;
        svg.line(LEFT, axisY, LEFT + plotWidth, axisY, "#555555");
        timeTicks(svg, start, end, origin, xScale, axisY, TOP, plotWidth);
        svg.text(
                LEFT + plotWidth / 2.0,
                axisY + 42,
                13,
                "middle",
                "normal",
                relative
                        ? "time since the first call (" + unitName(end - start) + ")"
                        : "time (" + unitName(end - start) + ")");
        return svg.finish();
    }

    private static void durations(Svg svg, Bins bins, int used, int traceTop, double xScale, int plotWidth) {
        double max = 0;
        for (int i = 0; i < used; i++) {
            double calls = bins.sum(Replay.TRACE_DURATION_CALLS, i);
            if (calls > 0) {
                max = Math.max(max, bins.sum(Replay.TRACE_DURATION_SUM, i) / calls);
            }
        }
        double top = Ticks.nice(Math.max(max, 1e-3));
        StringBuilder d = new StringBuilder();
        for (int i = 0; i < used; i++) {
            double calls = bins.sum(Replay.TRACE_DURATION_CALLS, i);
            if (calls == 0) {
                continue;
            }
            double mean = bins.sum(Replay.TRACE_DURATION_SUM, i) / calls;
            double y = traceTop + TRACE_HEIGHT - mean / top * TRACE_HEIGHT;
            double x0 = LEFT + i * bins.width() * xScale;
            d.append(d.length() == 0 || bins.sum(Replay.TRACE_DURATION_CALLS, i - 1) == 0 ? "M" : "L")
                    .append(Svg.num(x0))
                    .append(',')
                    .append(Svg.num(y))
                    .append("H")
                    .append(Svg.num(x0 + bins.width() * xScale));
        }
        svg.raw("<path id=\"trace-mean-duration\" d=\"" + d + "\" fill=\"none\" stroke=\"" + DURATION
                + "\" stroke-width=\"1.6\"/>\n");
        int right = LEFT + plotWidth;
        for (int k = 0; k <= 2; k++) {
            double value = top * k / 2;
            double y = traceTop + TRACE_HEIGHT - k / 2.0 * TRACE_HEIGHT;
            svg.line(right, y, right + 4, y, DURATION);
            svg.textColoured(right + 8, y + 4, 11, "start", DURATION, Ticks.label(value) + " ms");
        }
        svg.textColoured(right, traceTop - 6, 11, "end", DURATION, "mean duration (right axis)");
    }

    private static void config(
            Svg svg, Bins bins, int used, int c, Summary s, int top, double xScale, int plotWidth, long maxCalls) {
        int countBase = Replay.TRACE_COUNT_SERIES + c * Simulation.COUNT_SERIES;
        int sumBase = Replay.TRACE_SUM_SERIES + c * Simulation.SUM_SERIES;
        svg.raw("<g class=\"config\" id=\"config-" + (c + 1) + "\" data-config=\"" + Svg.escape(s.config()) + "\">\n");
        String figures = "permitted " + Table.count(s.permitted()) + ", rejected " + Table.count(s.rejected())
                + ": failures reached " + Table.count(s.failuresReached()) + ", failures avoided "
                + Table.count(s.failuresAvoided()) + ", successes rejected "
                + Table.count(s.successesRejected()) + "; transitions " + Table.count(s.transitionCount());
        String label = ConfigFile.label(s.config());
        String shown = fit(label, (WIDTH - LEFT - 12 - figures.length() * FIGURES_EM * 12) / (TITLE_EM * 14));
        if (!shown.equals(label)) {
            svg.raw("<title>" + Svg.escape(s.config()) + "</title>\n");
        }
        svg.heading(LEFT, top - 8, shown, figures);
        svg.text(LEFT - 8, top + 12, 11, "end", "normal", "state");

        // state band
        StringBuilder[] states = {new StringBuilder(), new StringBuilder(), new StringBuilder()};
        for (int i = 0; i < used; i++) {
            double total = 0;
            for (int k = 0; k < 3; k++) {
                total += bins.sum(sumBase + k, i);
            }
            if (total <= 0) {
                continue;
            }
            double y = top;
            double x = LEFT + i * bins.width() * xScale;
            double w = bins.width() * xScale;
            for (int k : new int[] {1, 2, 0}) { // OPEN on top, then HALF_OPEN, then CLOSED
                double h = bins.sum(sumBase + k, i) / total * BAND;
                if (h > 0) {
                    bar(states[k], x, y, w, h);
                    y += h;
                }
            }
        }
        svg.path("config-" + (c + 1) + "-closed", states[Simulation.stateSeries(State.CLOSED)], CLOSED, 1);
        svg.path("config-" + (c + 1) + "-open", states[Simulation.stateSeries(State.OPEN)], OPEN, 1);
        svg.path("config-" + (c + 1) + "-half-open", states[Simulation.stateSeries(State.HALF_OPEN)], HALF_OPEN, 1);

        // calls: permitted up, rejected down
        int barsTop = top + BAND + 6;
        double mid = barsTop + BARS / 2.0;
        double scale = (BARS / 2.0 - 2) / maxCalls;
        StringBuilder ok = new StringBuilder();
        StringBuilder reached = new StringBuilder();
        StringBuilder avoided = new StringBuilder();
        StringBuilder rejectedOk = new StringBuilder();
        for (int i = 0; i < used; i++) {
            double x = LEFT + i * bins.width() * xScale;
            double w = bins.width() * xScale;
            double hOk = bins.count(countBase + Simulation.PERMITTED_SUCCESSES, i) * scale;
            double hReached = bins.count(countBase + Simulation.PERMITTED_FAILURES, i) * scale;
            double hAvoided = bins.count(countBase + Simulation.REJECTED_FAILURES, i) * scale;
            double hRejectedOk = bins.count(countBase + Simulation.REJECTED_SUCCESSES, i) * scale;
            bar(reached, x, mid - hReached, w, hReached);
            bar(ok, x, mid - hReached - hOk, w, hOk);
            bar(rejectedOk, x, mid, w, hRejectedOk);
            bar(avoided, x, mid + hRejectedOk, w, hAvoided);
        }
        svg.raw("<rect x=\"" + LEFT + "\" y=\"" + barsTop + "\" width=\"" + plotWidth + "\" height=\"" + BARS
                + "\" fill=\"#fafafa\" stroke=\"#dddddd\"/>\n");
        svg.path("config-" + (c + 1) + "-permitted-successes", ok, SUCCESS_PERMITTED, 1);
        svg.path("config-" + (c + 1) + "-failures-reached", reached, FAILURE_REACHED, 1);
        svg.path("config-" + (c + 1) + "-successes-rejected", rejectedOk, SUCCESS_REJECTED, 1);
        svg.path("config-" + (c + 1) + "-failures-avoided", avoided, FAILURE_AVOIDED, 1);
        svg.line(LEFT, mid, LEFT + plotWidth, mid, "#555555");
        svg.text(LEFT - 8, mid - 6, 11, "end", "normal", "permitted \u2191");
        svg.text(LEFT - 8, mid + 14, 11, "end", "normal", "rejected \u2193");
        String max = Table.count(maxCalls);
        svg.line(LEFT - 4, barsTop + 2, LEFT, barsTop + 2, "#555555");
        svg.line(LEFT - 4, barsTop + BARS - 2, LEFT, barsTop + BARS - 2, "#555555");
        svg.text(LEFT - 8, barsTop + 6, 10, "end", "normal", max + " calls");
        svg.text(LEFT - 8, barsTop + BARS + 1, 10, "end", "normal", max + " calls");
        svg.raw("</g>\n");
    }

    /**
     * {@code text} in at most {@code chars} characters: shortened in the middle, with an ellipsis,
     * so that both ends of a long file name show.
     */
    static String fit(String text, double chars) {
        int most = Math.max(9, (int) chars);
        if (text.length() <= most) {
            return text;
        }
        int head = (most - 1) / 2;
        int tail = most - 1 - head;
        if (Character.isHighSurrogate(text.charAt(head - 1))) {
            head--; // never half a character: a lone surrogate cannot be written as UTF-8
        }
        if (Character.isLowSurrogate(text.charAt(text.length() - tail))) {
            tail--;
        }
        return text.substring(0, head) + "\u2026" + text.substring(text.length() - tail);
    }

    private static void legend(Svg svg, int y) {
        Object[][] items = {
            {CLOSED, "CLOSED"},
            {OPEN, "OPEN"},
            {HALF_OPEN, "HALF_OPEN"},
            {SUCCESS_PERMITTED, "success, permitted"},
            {FAILURE_REACHED, "failure that reached the dependency"},
            {FAILURE_AVOIDED, "failure avoided (rejected)"},
            {SUCCESS_REJECTED, "success rejected"},
        };
        double x = LEFT;
        for (Object[] item : items) {
            String text = (String) item[1];
            svg.raw("<rect x=\"" + Svg.num(x) + "\" y=\"" + y + "\" width=\"14\" height=\"14\" fill=\"" + item[0]
                    + "\" stroke=\"#666666\" stroke-width=\"0.5\"/>\n");
            svg.text(x + 19, y + 11.5, 12, "start", "normal", text);
            x += 19 + text.length() * 7.2 + 22;
        }
    }

    /** Ticks drawn at most on the time axis (about 14 are asked for): a bound, whatever the arithmetic. */
    private static final int MAX_TICKS = 64;

    private static void timeTicks(
            Svg svg, long start, long end, long origin, double xScale, int axisY, int gridTop, int plotWidth) {
        double unit = unitNanos(end - start);
        double step = Ticks.step((end - start) / unit, 14) * unit;
        // in offsets from the origin and from the start (differences of longs, exact), the ticks
        // counted: an absolute time near 1.7e18 ns (epoch milliseconds) moves a double in steps of
        // 256 ns, and a step of 100 ns added to it never moved it on
        double from = start - origin;
        double span = end - start;
        long firstTick = (long) Math.ceil(from / step);
        for (int i = 0; i <= MAX_TICKS; i++) {
            double t = (firstTick + i) * step; // from the origin
            double offset = t - from; // from the start
            if (offset > span + step * 1e-9) {
                break;
            }
            double x = LEFT + offset * xScale;
            if (x < LEFT - 0.5 || x > LEFT + plotWidth + 0.5) {
                continue;
            }
            svg.line(x, gridTop, x, axisY, "#000000", 0.08);
            svg.line(x, axisY, x, axisY + 6, "#555555");
            svg.text(x, axisY + 20, 12, "middle", "normal", Ticks.label(t / unit, step / unit));
        }
    }

    /** An interval's width: {@code 200 ms}, {@code 1 s}, {@code 20 us}. */
    static String width(long nanos) {
        if (nanos < 1_000_000) {
            return Ticks.label(nanos / 1e3) + " \u00b5s";
        }
        if (nanos < 1_000_000_000) {
            return Ticks.label(nanos / 1e6) + " ms";
        }
        return Ticks.label(nanos / 1e9) + " s";
    }

    private static double unitNanos(long span) {
        if (span < 2e9) {
            return 1e6;
        }
        if (span <= 3 * 3600e9) {
            return 1e9;
        }
        return 60e9;
    }

    private static String unitName(long span) {
        double unit = unitNanos(span);
        return unit == 1e6 ? "ms" : unit == 1e9 ? "s" : "min";
    }

    private static void bar(StringBuilder d, double x, double y, double w, double h) {
        if (h <= 0) {
            return;
        }
        d.append('M')
                .append(Svg.num(x))
                .append(',')
                .append(Svg.num(y))
                .append('h')
                .append(Svg.num(w))
                .append('v')
                .append(Svg.num(h))
                .append('h')
                .append(Svg.num(-w))
                .append('z');
    }

    /** Round numbers for axes. */
    static final class Ticks {
        private Ticks() {}

        /** The smallest of 1, 2, 2.5, 5 times a power of ten that is at least {@code value}. */
        static double nice(double value) {
            double p = Math.pow(10, Math.floor(Math.log10(value)));
            for (double m : new double[] {1, 2, 2.5, 5, 10}) {
                if (m * p >= value * (1 - 1e-12)) {
                    return m * p;
                }
            }
            return 10 * p;
        }

        /** A round step that cuts {@code span} into at most {@code most} parts. */
        static double step(double span, int most) {
            return nice(span / most);
        }

        /**
         * A tick's label with as many decimals as its step needs, so that ticks a step apart never
         * read the same ({@code 7.0001} beside {@code 7.0002}).
         */
        static String label(double value, double step) {
            int decimals = 0;
            while (decimals < 9
                    && Math.abs(step * Math.pow(10, decimals) - Math.rint(step * Math.pow(10, decimals)))
                            > 1e-6 * step * Math.pow(10, decimals)) {
                decimals++;
            }
            String s = String.format(Locale.ROOT, "%,." + decimals + "f", value);
            return s.equals("-0") || s.matches("-0\\.0*") ? s.substring(1) : s;
        }

        static String label(double value) {
            if (Math.abs(value - Math.rint(value)) < 1e-9) {
                return String.format(Locale.ROOT, "%,d", (long) Math.rint(value));
            }
            String s = String.format(Locale.ROOT, "%.3f", value);
            return s.replaceAll("0+$", "").replaceAll("\\.$", "");
        }
    }
}
