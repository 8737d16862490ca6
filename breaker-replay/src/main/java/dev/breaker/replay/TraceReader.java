package dev.breaker.replay;

import java.io.BufferedReader;
import java.io.IOException;

/**
 * Reads a trace one row at a time, never holding more than the current line: a CSV file whose
 * header is {@code time_ms,outcome} or {@code time_ms,outcome,duration_ms}, then one call per row
 * in time order (equal times allowed). Times and durations are non-negative decimal milliseconds
 * with at most six decimals (a nanosecond), such as {@code 12}, {@code 9.999} or {@code 1700000000000};
 * outcomes are {@code success}, {@code failure} or {@code ignored}. Spaces around a field are
 * allowed, empty lines are skipped, and line ends may be {@code \n} or {@code \r\n}.
 *
 * <p>Anything else is a {@link TraceException} naming the line and the column where the bad field
 * starts. After {@link #next()} answers true, {@link #timeNanos()}, {@link #outcome()} and
 * {@link #durationNanos()} describe the row read; the reader allocates nothing per row but the
 * line itself.
 */
final class TraceReader {

    static final String HEADER = "time_ms,outcome[,duration_ms]";

    private final BufferedReader in;
    private final String source;
    private boolean hasDuration;
    private long line;
    private long rows;
    private long timeNanos = Long.MIN_VALUE;
    private TraceOutcome outcome;
    private long durationNanos;

    /**
     * Reads the header at once.
     *
     * @param in     the trace
     * @param source the file name, for messages
     */
    TraceReader(BufferedReader in, String source) throws IOException, TraceException {
        this.in = in;
        this.source = source;
        readHeader();
    }

    private void readHeader() throws IOException, TraceException {
        String text = in.readLine();
        line = 1;
        if (text == null) {
            throw new TraceException(source, 1, 1, "empty file, expected the header " + HEADER);
        }
        if (text.startsWith("\uFEFF")) {
            text = text.substring(1);
        }
        String[] names = text.split(",", -1);
        for (int i = 0; i < names.length; i++) {
            names[i] = names[i].strip();
        }
        boolean two = names.length == 2;
        boolean three = names.length == 3 && names[2].equals("duration_ms");
        if (!(two || three) || !names[0].equals("time_ms") || !names[1].equals("outcome")) {
            throw new TraceException(source, 1, 1, "expected the header " + HEADER + ", found '" + shorten(text) + "'");
        }
        hasDuration = three;
    }

    /**
     * Whether the trace has a {@code duration_ms} column.
     *
     * @return true when durations are given
     */
    boolean hasDuration() {
        return hasDuration;
    }

    /**
     * Reads the next row.
     *
     * @return false at the end of the trace
     * @throws TraceException for a bad row
     */
    boolean next() throws IOException, TraceException {
        String text;
        do {
            text = in.readLine();
            line++;
            if (text == null) {
                return false;
            }
        } while (text.isBlank());
        int columns = hasDuration ? 3 : 2;
        int start = 0;
        long time = 0;
        long duration = 0;
        TraceOutcome result = null;
        for (int field = 0; field < columns; field++) {
            int end = text.indexOf(',', start);
            if (end < 0) {
                if (field < columns - 1) {
                    throw new TraceException(
                            source,
                            line,
                            text.length() + 1,
                            "missing column " + name(field + 1) + " (the header has " + columns + ")");
                }
                end = text.length();
            } else if (field == columns - 1) {
                throw new TraceException(
                        source, line, end + 2, "more columns than the header's " + columns + " (" + HEADER + ")");
            }
            String value = text.substring(start, end).strip();
            int column = start + 1;
            switch (field) {
                case 0 -> time = millisToNanos(value, column, "time_ms");
                case 1 -> result = outcome(value, column);
                default -> duration = millisToNanos(value, column, "duration_ms");
            }
            start = end + 1;
        }
        if (time < timeNanos) {
            throw new TraceException(
                    source,
                    line,
                    1,
                    "time_ms " + Millis.format(time) + " is before the previous row's " + Millis.format(timeNanos)
                            + " (rows must be in time order)");
        }
        timeNanos = time;
        outcome = result;
        durationNanos = duration;
        rows++;
        return true;
    }

    private static String name(int field) {
        return field == 1 ? "outcome" : "duration_ms";
    }

    private TraceOutcome outcome(String value, int column) throws TraceException {
        for (TraceOutcome o : TraceOutcome.values()) {
            if (o.text().equals(value)) {
                return o;
            }
        }
        throw new TraceException(
                source, line, column, "outcome must be success, failure or ignored, was '" + shorten(value) + "'");
    }

    private long millisToNanos(String value, int column, String field) throws TraceException {
        long nanos = Millis.parse(value);
        if (nanos < 0) {
            throw new TraceException(
                    source,
                    line,
                    column,
                    field + " must be a number of milliseconds (digits, at most 6 decimals, not negative), was '"
                            + shorten(value) + "'");
        }
        return nanos;
    }

    private static String shorten(String text) {
        return text.length() <= 40 ? text : text.substring(0, 40) + "...";
    }

    /**
     * The current row's time.
     *
     * @return nanoseconds
     */
    long timeNanos() {
        return timeNanos;
    }

    /**
     * The current row's outcome.
     *
     * @return the outcome
     */
    TraceOutcome outcome() {
        return outcome;
    }

    /**
     * The current row's duration, 0 when the trace has none.
     *
     * @return nanoseconds
     */
    long durationNanos() {
        return durationNanos;
    }

    /**
     * Rows read so far.
     *
     * @return the count
     */
    long rows() {
        return rows;
    }
}
