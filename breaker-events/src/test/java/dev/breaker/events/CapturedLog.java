package dev.breaker.events;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;

/**
 * An SLF4J logger that keeps what it is given, level and formatted message, for a test to read;
 * safe for many writing threads. Levels below {@code threshold} are reported disabled.
 */
final class CapturedLog extends LegacyAbstractLogger {
    private static final long serialVersionUID = 1L;
    private static final Pattern SUMMARY = Pattern.compile("^breaker '([^']*)' rejected (\\d+) calls? in the last ");

    /** One logged line. */
    record Line(Level level, String text) {
        @Override
        public String toString() {
            return level + " " + text;
        }
    }

    private final transient ConcurrentLinkedQueue<Line> lines = new ConcurrentLinkedQueue<>();
    private final Level threshold;
    /** Runs on the logging thread before each line is kept: a test may hold that thread there. */
    transient volatile Consumer<Line> beforeEachLine = line -> {};

    CapturedLog(Level threshold) {
        this.name = "captured";
        this.threshold = threshold;
    }

    CapturedLog() {
        this(Level.TRACE);
    }

    List<Line> lines() {
        return new ArrayList<>(lines);
    }

    List<String> texts() {
        return lines().stream().map(Line::text).toList();
    }

    /** The lines that summarise rejections. */
    List<Line> summaries() {
        return lines().stream().filter(l -> SUMMARY.matcher(l.text()).find()).toList();
    }

    /** The sum of the counts in every summary line. */
    long summarised() {
        long sum = 0;
        for (Line l : lines) {
            Matcher m = SUMMARY.matcher(l.text());
            if (m.find()) {
                sum += Long.parseLong(m.group(2));
            }
        }
        return sum;
    }

    void clear() {
        lines.clear();
    }

    private boolean enabled(Level level) {
        return level.toInt() >= threshold.toInt();
    }

    @Override
    public boolean isTraceEnabled() {
        return enabled(Level.TRACE);
    }

    @Override
    public boolean isDebugEnabled() {
        return enabled(Level.DEBUG);
    }

    @Override
    public boolean isInfoEnabled() {
        return enabled(Level.INFO);
    }

    @Override
    public boolean isWarnEnabled() {
        return enabled(Level.WARN);
    }

    @Override
    public boolean isErrorEnabled() {
        return enabled(Level.ERROR);
    }

    @Override
    protected String getFullyQualifiedCallerName() {
        return null;
    }

    @Override
    protected void handleNormalizedLoggingCall(
            Level level, Marker marker, String messagePattern, Object[] arguments, Throwable throwable) {
        Line line = new Line(level, MessageFormatter.basicArrayFormat(messagePattern, arguments));
        beforeEachLine.accept(line);
        lines.add(line);
    }
}
