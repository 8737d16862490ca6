package dev.breaker.replay;

/**
 * A summary as one line of JSON: the fields API.md names ({@code config}, {@code calls},
 * {@code permitted}, {@code rejected}, {@code failuresReached}, {@code failuresAvoided},
 * {@code successesRejected}, {@code transitions} as {@code {atMs, from, to}}) and more:
 * {@code failures}, {@code timeToTripMs} and {@code timeToRecoverMs} (null when they did not
 * happen), {@code notClosedMs}, and {@code transitionCount}, which may exceed the transitions
 * listed ({@link Simulation#KEPT_TRANSITIONS} at most). Times are milliseconds of the trace, exact
 * to the nanosecond.
 */
final class Json {

    private Json() {}

    static String line(Summary s) {
        StringBuilder b = new StringBuilder(256);
        b.append("{\"config\":").append(string(s.config()));
        b.append(",\"calls\":").append(s.calls());
        b.append(",\"permitted\":").append(s.permitted());
        b.append(",\"rejected\":").append(s.rejected());
        b.append(",\"failuresReached\":").append(s.failuresReached());
        b.append(",\"failuresAvoided\":").append(s.failuresAvoided());
        b.append(",\"successesRejected\":").append(s.successesRejected());
        b.append(",\"failures\":").append(s.failures());
        b.append(",\"timeToTripMs\":").append(millisOrNull(s.timeToTripNanos()));
        b.append(",\"timeToRecoverMs\":").append(millisOrNull(s.timeToRecoverNanos()));
        b.append(",\"notClosedMs\":").append(Millis.format(s.notClosedNanos()));
        b.append(",\"transitionCount\":").append(s.transitionCount());
        b.append(",\"transitions\":[");
        String comma = "";
        for (Transition t : s.transitions()) {
            b.append(comma)
                    .append("{\"atMs\":")
                    .append(Millis.format(t.atNanos()))
                    .append(",\"from\":\"")
                    .append(t.from())
                    .append("\",\"to\":\"")
                    .append(t.to())
                    .append("\"}");
            comma = ",";
        }
        return b.append("]}").toString();
    }

    private static String millisOrNull(long nanos) {
        return nanos < 0 ? "null" : Millis.format(nanos);
    }

    /** A JSON string: quotes, backslashes and control characters escaped. */
    static String string(String text) {
        StringBuilder b = new StringBuilder(text.length() + 2).append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }
}
