package dev.breaker.internal;

import java.util.Objects;

/** Checks names that people read in logs, metrics and exceptions: a breaker's, a provider's. */
public final class Names {

    private Names() {}

    /**
     * Checks a name: it must show at least one visible character (a letter, digit, punctuation
     * mark or symbol that prints something) and hold no character that breaks or reorders a line
     * (controls, line and paragraph separators, bidirectional overrides, lone surrogates): such a
     * name would forge log lines and break metric tags. Spaces inside are allowed; a name made
     * only of spaces, fillers, combining marks or format characters is not.
     *
     * @param setting what the name is, for the message ("name")
     * @param name    the name
     * @return the name
     * @throws NullPointerException     when null
     * @throws IllegalArgumentException when it has no visible character or holds a control character
     */
    public static String check(String setting, String name) {
        Objects.requireNonNull(name, setting);
        boolean visible = false;
        for (int i = 0; i < name.length(); ) {
            int cp = name.codePointAt(i);
            if (breaksLines(cp)) {
                throw new IllegalArgumentException(
                        setting + " must not contain control characters, was '" + escape(name) + "'");
            }
            visible |= isVisible(cp);
            i += Character.charCount(cp);
        }
        if (!visible) {
            throw new IllegalArgumentException(
                    setting + " must contain a visible character, was '" + escape(name) + "'");
        }
        return name;
    }

    private static boolean breaksLines(int cp) {
        int type = Character.getType(cp);
        return Character.isISOControl(cp)
                || type == Character.LINE_SEPARATOR
                || type == Character.PARAGRAPH_SEPARATOR
                || type == Character.SURROGATE // a lone half of a pair
                || cp == 0x061C
                || cp == 0x200E
                || cp == 0x200F
                || cp >= 0x202A && cp <= 0x202E
                || cp >= 0x2066 && cp <= 0x2069; // bidirectional marks, embeddings, overrides, isolates
    }

    /** Characters of visible categories that render as nothing: Hangul and Khmer fillers, the blank Braille cell. */
    private static final int[] BLANKS = {0x115F, 0x1160, 0x17B4, 0x17B5, 0x2800, 0x3164, 0xFFA0};

    private static boolean isVisible(int cp) {
        for (int blank : BLANKS) {
            if (cp == blank) {
                return false;
            }
        }
        switch (Character.getType(cp)) {
            case Character.UPPERCASE_LETTER,
                    Character.LOWERCASE_LETTER,
                    Character.TITLECASE_LETTER,
                    Character.MODIFIER_LETTER,
                    Character.OTHER_LETTER,
                    Character.DECIMAL_DIGIT_NUMBER,
                    Character.LETTER_NUMBER,
                    Character.OTHER_NUMBER,
                    Character.CONNECTOR_PUNCTUATION,
                    Character.DASH_PUNCTUATION,
                    Character.START_PUNCTUATION,
                    Character.END_PUNCTUATION,
                    Character.INITIAL_QUOTE_PUNCTUATION,
                    Character.FINAL_QUOTE_PUNCTUATION,
                    Character.OTHER_PUNCTUATION,
                    Character.MATH_SYMBOL,
                    Character.CURRENCY_SYMBOL,
                    Character.MODIFIER_SYMBOL,
                    Character.OTHER_SYMBOL -> {
                return true;
            }
            default -> {
                return false; // spaces, marks alone, format characters, unassigned and private code points
            }
        }
    }

    /**
     * What an object says of itself, or its class and identity when saying so fails: plugins'
     * {@code toString} and {@code describe} are user code, and a breaker must still build, log and
     * print.
     *
     * @param description produces the description
     * @param of          the object described, for the fallback
     * @return the description
     */
    public static String describe(java.util.function.Supplier<String> description, Object of) {
        try {
            return String.valueOf(description.get());
        } catch (RuntimeException | LinkageError e) {
            return of.getClass().getName() + "@" + Integer.toHexString(System.identityHashCode(of));
        }
    }

    /** The name with every non-printable character written as {@code \\uXXXX}, for messages. */
    static String escape(String name) {
        StringBuilder b = new StringBuilder(name.length());
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == ' ' || (c > ' ' && c < 0x7f)) {
                b.append(c);
            } else if (Character.isLetterOrDigit(c) && !Character.isISOControl(c)) {
                b.append(c);
            } else {
                b.append(String.format("\\u%04X", (int) c));
            }
        }
        return b.toString();
    }
}
