package dev.breaker.replay;

import java.util.Locale;

/** Writes SVG elements into a string; numbers with at most 2 decimals so that output repeats exactly. */
final class Svg {

    private final StringBuilder b = new StringBuilder(64 * 1024);

    Svg(int width, int height) {
        b.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        b.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"")
                .append(width)
                .append("\" height=\"")
                .append(height)
                .append("\" viewBox=\"0 0 ")
                .append(width)
                .append(' ')
                .append(height)
                .append("\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n");
        b.append("<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n");
    }

    void raw(String text) {
        b.append(text);
    }

    void text(double x, double y, int size, String anchor, String weight, String text) {
        textColoured(x, y, size, anchor, "#222222", text, weight);
    }

    void textColoured(double x, double y, int size, String anchor, String colour, String text) {
        textColoured(x, y, size, anchor, colour, text, "normal");
    }

    private void textColoured(double x, double y, int size, String anchor, String colour, String text, String weight) {
        b.append("<text x=\"")
                .append(num(x))
                .append("\" y=\"")
                .append(num(y))
                .append("\" font-size=\"")
                .append(size)
                .append("\" text-anchor=\"")
                .append(anchor)
                .append("\" fill=\"")
                .append(colour)
                .append('"');
        if (!weight.equals("normal")) {
            b.append(" font-weight=\"").append(weight).append('"');
        }
        b.append('>').append(escape(text)).append("</text>\n");
    }

    /** A bold title followed, on the same line, by plain text. */
    void heading(double x, double y, String title, String rest) {
        b.append("<text x=\"")
                .append(num(x))
                .append("\" y=\"")
                .append(num(y))
                .append("\" font-size=\"12\" fill=\"#222222\"><tspan font-size=\"14\" font-weight=\"bold\">")
                .append(escape(title))
                .append("</tspan><tspan dx=\"12\">")
                .append(escape(rest))
                .append("</tspan></text>\n");
    }

    void line(double x1, double y1, double x2, double y2, String colour) {
        line(x1, y1, x2, y2, colour, 1);
    }

    void line(double x1, double y1, double x2, double y2, String colour, double opacity) {
        b.append("<line x1=\"")
                .append(num(x1))
                .append("\" y1=\"")
                .append(num(y1))
                .append("\" x2=\"")
                .append(num(x2))
                .append("\" y2=\"")
                .append(num(y2))
                .append("\" stroke=\"")
                .append(colour)
                .append('"');
        if (opacity < 1) {
            b.append(" stroke-opacity=\"").append(num(opacity)).append('"');
        }
        b.append("/>\n");
    }

    void path(String id, CharSequence d, String fill, double opacity) {
        if (d.length() == 0) {
            return;
        }
        b.append("<path id=\"").append(id).append("\" fill=\"").append(fill).append('"');
        if (opacity < 1) {
            b.append(" fill-opacity=\"").append(num(opacity)).append('"');
        }
        b.append(" d=\"").append(d).append("\"/>\n");
    }

    String finish() {
        return b.append("</svg>\n").toString();
    }

    static String num(double v) {
        String s = String.format(Locale.ROOT, "%.2f", v);
        if (s.indexOf('.') >= 0) {
            s = s.replaceAll("0+$", "").replaceAll("\\.$", "");
        }
        return s.equals("-0") ? "0" : s;
    }

    static String escape(String text) {
        StringBuilder e = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '<' -> e.append("&lt;");
                case '>' -> e.append("&gt;");
                case '&' -> e.append("&amp;");
                case '"' -> e.append("&quot;");
                default -> {
                    if (Character.isHighSurrogate(c)
                            && i + 1 < text.length()
                            && Character.isLowSurrogate(text.charAt(i + 1))) {
                        e.append(c).append(text.charAt(++i)); // a whole pair
                    } else if (Character.isSurrogate(c) || c == '\uFFFE' || c == '\uFFFF') {
                        e.append('\uFFFD'); // not a character XML or UTF-8 can hold
                    } else {
                        e.append(c < 0x20 ? ' ' : c);
                    }
                }
            }
        }
        return e.toString();
    }
}
