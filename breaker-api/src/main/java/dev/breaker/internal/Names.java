package dev.breaker.internal;

import java.util.Objects;

/** Checks names that people read in logs, metrics and exceptions: a breaker's, a provider's. */
public final class Names {

    private Names() {
    }

    /**
     * Checks a name: it must show at least one visible character and hold no control character
     * (a line break in a name would forge log lines and break metric tags). Spaces inside are
     * allowed; a name made only of spaces or invisible characters (zero-width spaces, format
     * characters) is not.
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
            if (Character.isISOControl(cp)) {
                throw new IllegalArgumentException(setting + " must not contain control characters, was '"
                        + escape(name) + "'");
            }
            visible |= isVisible(cp);
            i += Character.charCount(cp);
        }
        if (!visible) {
            throw new IllegalArgumentException(setting + " must contain a visible character, was '" + escape(name) + "'");
        }
        return name;
    }

    private static boolean isVisible(int cp) {
        if (Character.isWhitespace(cp) || Character.isSpaceChar(cp)) {
            return false;
        }
        int type = Character.getType(cp);
        return type != Character.FORMAT && type != Character.UNASSIGNED && type != Character.PRIVATE_USE
                && type != Character.SURROGATE && type != Character.CONTROL;
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
