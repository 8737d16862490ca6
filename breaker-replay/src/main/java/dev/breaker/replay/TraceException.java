package dev.breaker.replay;

/**
 * A trace that cannot be read: the message is one line naming the file, the line and the column
 * (both from 1) and what is wrong there.
 */
final class TraceException extends Exception {

    private static final long serialVersionUID = 1L;

    TraceException(String source, long line, int column, String problem) {
        super(source + ":" + line + ":" + column + ": " + problem);
    }
}
