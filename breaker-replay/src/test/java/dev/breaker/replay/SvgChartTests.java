package dev.breaker.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;

/**
 * The picture: well-formed XML, self-contained, a series per configuration; and the one the README
 * shows is what the tool draws now. Runs on the class path (javax.xml is not the module's to read).
 */
@Tag("class-path")
class SvgChartTests {

    static final Path COMMITTED = Path.of("..", "docs", "replay-outage.svg");

    static final String[] CONFIGS = {"consecutive-5", "count-rate", "time-rate-slow", "exponential"};

    @TempDir
    Path dir;

    static Document parse(String svg) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return f.newDocumentBuilder().parse(new InputSource(new StringReader(svg)));
    }

    String draw(String trace) {
        List<String> args =
                new ArrayList<>(List.of("--trace", ExampleTracesTests.EXAMPLES + "/traces/" + trace + ".csv"));
        for (String c : CONFIGS) {
            args.add("--config");
            args.add(ExampleTracesTests.EXAMPLES + "/configs/" + c + ".properties");
        }
        Path out = dir.resolve(trace + ".svg");
        args.add("--svg");
        args.add(out.toString());
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Replay.run(
                args.toArray(String[]::new), new PrintStream(new ByteArrayOutputStream()), new PrintStream(err));
        assertEquals(0, code, err.toString());
        try {
            return Files.readString(out, StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void aWellFormedSvgWithAGroupPerConfiguration() throws Exception {
        for (String trace : ExampleTraces.NAMES) {
            Document d = parse(draw(trace));
            Element root = d.getDocumentElement();
            assertEquals("svg", root.getLocalName());
            assertEquals("http://www.w3.org/2000/svg", root.getNamespaceURI());
            NodeList groups = d.getElementsByTagNameNS("*", "g");
            List<String> configs = new ArrayList<>();
            for (int i = 0; i < groups.getLength(); i++) {
                Element g = (Element) groups.item(i);
                if (g.getAttribute("class").equals("config")) {
                    assertEquals("config-" + (configs.size() + 1), g.getAttribute("id"));
                    configs.add(g.getAttribute("data-config"));
                    assertTrue(g.getElementsByTagNameNS("*", "path").getLength() >= 2, "a state band and bars");
                }
            }
            assertEquals(
                    List.of(
                            "consecutive-5.properties",
                            "count-rate.properties",
                            "time-rate-slow.properties",
                            "exponential.properties"),
                    configs);
            assertTrue(d.getElementById("trace-failure-rate") != null || svgHasId(d, "trace-failure-rate"));
        }
    }

    private static boolean svgHasId(Document d, String id) {
        NodeList all = d.getElementsByTagNameNS("*", "*");
        for (int i = 0; i < all.getLength(); i++) {
            if (id.equals(((Element) all.item(i)).getAttribute("id"))) {
                return true;
            }
        }
        return false;
    }

    @Test
    void selfContainedNoScriptNoExternalReference() {
        String svg = draw("flapping");
        for (String forbidden : List.of("<script", "href", "@import", "url(", "<image", "<foreignObject")) {
            assertTrue(!svg.contains(forbidden), forbidden);
        }
    }

    @Test
    void theOutagesOpeningsAreRedWhereTheTableSaysTheBreakerWasOpen() {
        String svg = draw("outage");
        for (int c = 1; c <= CONFIGS.length; c++) {
            assertTrue(svg.contains("id=\"config-" + c + "-open\""), "config " + c + " has an OPEN band");
            assertTrue(svg.contains("id=\"config-" + c + "-failures-avoided\""), "and avoided failures");
        }
    }

    String drawOwn(String trace, String... configNames) throws Exception {
        List<String> args = new ArrayList<>(List.of(
                "--trace", Files.writeString(dir.resolve("t.csv"), trace).toString()));
        for (String name : configNames) {
            args.add("--config");
            args.add(Files.writeString(dir.resolve(name), "breaker.defaults.window.threshold = 2\n")
                    .toString());
        }
        Path out = dir.resolve("own.svg");
        args.add("--svg");
        args.add(out.toString());
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Replay.run(
                args.toArray(String[]::new), new PrintStream(new ByteArrayOutputStream()), new PrintStream(err));
        assertEquals(0, code, err.toString());
        return Files.readString(out, StandardCharsets.UTF_8);
    }

    /** The labels under the time axis (12 px, centred). */
    static List<String> timeLabels(Document d) {
        List<String> labels = new ArrayList<>();
        NodeList texts = d.getElementsByTagNameNS("*", "text");
        for (int i = 0; i < texts.getLength(); i++) {
            Element t = (Element) texts.item(i);
            if (t.getAttribute("text-anchor").equals("middle")
                    && t.getAttribute("font-size").equals("12")) {
                labels.add(t.getTextContent());
            }
        }
        return labels;
    }

    /** A trace of one call, of calls at one time, or of a few microseconds: every tick has its own label. */
    @Test
    void theTimeAxisNeverRepeatsALabel() throws Exception {
        for (String trace : List.of(
                "time_ms,outcome\n7,failure\n",
                "time_ms,outcome\n5,failure\n5,success\n5,failure\n",
                "time_ms,outcome\n0.001,failure\n0.004,success\n",
                "time_ms,outcome\n1000,failure\n1000.05,success\n",
                "time_ms,outcome\n")) {
            List<String> labels = timeLabels(parse(drawOwn(trace, "c.properties")));
            assertTrue(labels.size() >= 2, trace + ": " + labels);
            assertEquals(labels.size(), labels.stream().distinct().count(), trace + ": " + labels);
        }
    }

    /**
     * Traces in epoch milliseconds whose calls all fall within a microsecond or a few: the axis is
     * drawn in offsets from the first call (a tick added to an absolute time near 1.7e18 ns never
     * moved it on, and the drawing never ended), every label its own, none missing.
     */
    @Test
    @org.junit.jupiter.api.Timeout(30)
    void aTraceInEpochMillisecondsWithinAMicrosecondIsDrawnAndEnds() throws Exception {
        for (String trace : List.of(
                "time_ms,outcome\n1700000000000,failure\n",
                "time_ms,outcome\n1700000000000,failure\n1700000000000,success\n",
                "time_ms,outcome\n1700000000000,failure\n1700000000000.003,success\n")) {
            List<String> labels = timeLabels(parse(drawOwn(trace, "c.properties")));
            assertTrue(labels.size() >= 2, trace + ": " + labels);
            assertTrue(labels.size() <= 30, trace + ": " + labels);
            assertEquals(labels.size(), labels.stream().distinct().count(), trace + ": " + labels);
            assertEquals(0.0, Double.parseDouble(labels.get(0)), trace + ": the first call is the origin: " + labels);
        }
    }

    /** Times the reader accepts, up to the largest a long holds in nanoseconds (the year 2262), are drawn. */
    @Test
    void timesNearTheLargestALongHoldsAreDrawn() throws Exception {
        String svg = drawOwn("time_ms,outcome\n9223372036000,success\n9223372036853.999999,success\n", "c.properties");
        assertTrue(timeLabels(parse(svg)).size() >= 2);
    }

    /**
     * A long config name of characters outside the basic plane is shortened without cutting one
     * in half (a lone surrogate cannot be written as UTF-8: the picture was left half written);
     * one already broken in a name, and the two non-characters, are replaced.
     */
    @Test
    void aLongNameOfEmojiIsShortenedWithoutSplittingOne() throws Exception {
        String longName = "a" + "\uD83D\uDE00".repeat(40) + ".properties";
        Document d = parse(drawOwn("time_ms,outcome\n0,failure\n1,failure\n2,success\n", longName));
        NodeList texts = d.getElementsByTagNameNS("*", "tspan");
        boolean shortened = false;
        for (int i = 0; i < texts.getLength(); i++) {
            String t = texts.item(i).getTextContent();
            for (int c = 0; c < t.length(); c++) {
                char ch = t.charAt(c);
                if (Character.isHighSurrogate(ch)) {
                    assertTrue(c + 1 < t.length() && Character.isLowSurrogate(t.charAt(++c)), t);
                } else {
                    assertFalse(Character.isLowSurrogate(ch), t);
                }
            }
            shortened |= t.contains("\u2026");
        }
        assertTrue(shortened, "the name was shortened");
        assertEquals("a\uFFFDb\uFFFDc\uFFFD\uD83D\uDE00", Svg.escape("a\uD83Db\uFFFEc\uDE00\uD83D\uDE00"));
    }

    /**
     * A configuration's heading (its name, bold 14 px, then its figures, 12 px) stays within the
     * picture's width, however long the file name: a long name is shortened in the middle, and
     * kept whole in the group's data-config and title. Widths are estimated from DejaVu Sans, the
     * widest of the fonts asked for (0.62 and 0.55 em a character).
     */
    @Test
    void aLongConfigNameIsShortenedToFitAndKeptWholeInTheTitle() throws Exception {
        String longName = "production-payments-gateway-eu-west-1-consecutive-failures-threshold-five-cooldown"
                + "-ten-seconds-v2.properties";
        Document d = parse(drawOwn("time_ms,outcome\n0,failure\n1,failure\n2,success\n", longName));
        NodeList texts = d.getElementsByTagNameNS("*", "text");
        boolean found = false;
        for (int i = 0; i < texts.getLength(); i++) {
            Element t = (Element) texts.item(i);
            NodeList spans = t.getElementsByTagNameNS("*", "tspan");
            if (spans.getLength() == 2 && spans.item(1).getTextContent().startsWith("permitted ")) {
                String title = spans.item(0).getTextContent();
                String rest = spans.item(1).getTextContent();
                double width = Double.parseDouble(t.getAttribute("x"))
                        + title.length() * 0.62 * 14
                        + 12
                        + rest.length() * 0.55 * 12;
                assertTrue(width <= 1400, "heading ends at " + width + ": " + title + " " + rest);
                assertTrue(title.contains("\u2026"), title);
                assertTrue(title.startsWith("production-"), title);
                assertTrue(title.endsWith("-v2"), title);
                found = true;
            }
        }
        assertTrue(found, "a heading");
        Element g = (Element) d.getElementsByTagNameNS("*", "g").item(0);
        assertEquals(longName, g.getAttribute("data-config"));
        assertEquals(longName, g.getElementsByTagNameNS("*", "title").item(0).getTextContent());
    }

    /** docs/replay-outage.svg, shown by the README, is what the tool draws now; regenerate it with the README's command. */
    @Test
    void theCommittedPictureIsWhatTheToolDrawsNow() throws Exception {
        assertEquals(Files.readString(COMMITTED, StandardCharsets.UTF_8), draw("outage"));
    }
}
