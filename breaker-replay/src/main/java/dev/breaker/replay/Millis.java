package dev.breaker.replay;

/** Milliseconds as the trace writes them, and as the outputs print them, exact to the nanosecond. */
final class Millis {

    private static final long NANOS_PER_MILLI = 1_000_000L;
    /** The largest whole milliseconds whose nanoseconds, with any decimals, fit in a long. */
    private static final long MAX_MILLIS = Long.MAX_VALUE / NANOS_PER_MILLI - 1;

    private Millis() {}

    /**
     * Parses {@code digits} or {@code digits.digits} (at most 6 decimals) into nanoseconds.
     *
     * @param text the field, stripped
     * @return nanoseconds, or -1 when the text is not such a number or does not fit in a long
     */
    static long parse(String text) {
        int dot = text.indexOf('.');
        int intEnd = dot < 0 ? text.length() : dot;
        if (intEnd == 0 || (dot >= 0 && (dot == text.length() - 1 || text.length() - dot - 1 > 6))) {
            return -1;
        }
        long millis = 0;
        for (int i = 0; i < intEnd; i++) {
            int d = text.charAt(i) - '0';
            if (d < 0 || d > 9 || millis > (MAX_MILLIS - d) / 10) {
                return -1;
            }
            millis = millis * 10 + d;
        }
        long fraction = 0;
        long scale = NANOS_PER_MILLI;
        for (int i = intEnd + 1; i < text.length(); i++) {
            int d = text.charAt(i) - '0';
            if (d < 0 || d > 9) {
                return -1;
            }
            scale /= 10;
            fraction += d * scale;
        }
        return millis * NANOS_PER_MILLI + fraction;
    }

    /**
     * Writes nanoseconds as milliseconds, with only the decimals needed ({@code 9999000} is
     * {@code 9.999}, {@code 10000000} is {@code 10}).
     *
     * @param nanos any value
     * @return the text
     */
    static String format(long nanos) {
        String sign = nanos < 0 ? "-" : "";
        long abs = Math.abs(nanos);
        long whole = abs / NANOS_PER_MILLI;
        long rest = abs % NANOS_PER_MILLI;
        if (rest == 0) {
            return sign + whole;
        }
        String decimals = String.format("%06d", rest);
        int end = decimals.length();
        while (decimals.charAt(end - 1) == '0') {
            end--;
        }
        return sign + whole + "." + decimals.substring(0, end);
    }
}
