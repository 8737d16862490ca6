package dev.breaker.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The command line in-process: what it prints, its exit codes, and its one-line message for every
 * kind of bad input (the jar itself runs in {@code ReplayJarIT}).
 */
class ReplayCommandTests {

    @TempDir
    Path dir;

    record Run(int code, String out, String err) {}

    Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Replay.run(
                args,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    Path file(String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text, StandardCharsets.UTF_8);
    }

    Path tight() throws IOException {
        return file("tight.properties", "breaker.defaults.window.threshold = 2\nbreaker.defaults.cooldown = 10ms\n");
    }

    static final String TRACE = "time_ms,outcome\n0,failure\n1,failure\n2,success\n11,success\n12,success\n";

    @Test
    void jsonIsOneObjectPerConfigPerLineWithTheApiFields() throws IOException {
        Path trace = file("t.csv", TRACE);
        Path loose = file("loose.properties", "breaker.defaults.window.threshold = 3\n");
        Run r = run("--trace", trace.toString(), "--config", tight().toString(), "--config=" + loose, "--json");
        assertEquals(0, r.code(), r.err());
        assertEquals("", r.err());
        assertEquals(
                List.of(
                        "{\"config\":\"tight.properties\",\"calls\":5,\"permitted\":4,\"rejected\":1,"
                                + "\"failuresReached\":2,\"failuresAvoided\":0,\"successesRejected\":1,\"failures\":2,"
                                + "\"timeToTripMs\":1,\"timeToRecoverMs\":10,\"notClosedMs\":10,\"transitionCount\":3,"
                                + "\"transitions\":[{\"atMs\":1,\"from\":\"CLOSED\",\"to\":\"OPEN\"},"
                                + "{\"atMs\":11,\"from\":\"OPEN\",\"to\":\"HALF_OPEN\"},"
                                + "{\"atMs\":11,\"from\":\"HALF_OPEN\",\"to\":\"CLOSED\"}]}",
                        "{\"config\":\"loose.properties\",\"calls\":5,\"permitted\":5,\"rejected\":0,"
                                + "\"failuresReached\":2,\"failuresAvoided\":0,\"successesRejected\":0,\"failures\":2,"
                                + "\"timeToTripMs\":null,\"timeToRecoverMs\":null,\"notClosedMs\":0,"
                                + "\"transitionCount\":0,\"transitions\":[]}"),
                r.out().lines().toList());
    }

    @Test
    void theTableHasAColumnPerConfigAndListsTransitions() throws IOException {
        Path trace = file("t.csv", TRACE);
        Run r = run("--trace", trace.toString(), "--config", tight().toString());
        assertEquals(0, r.code(), r.err());
        List<String> lines = r.out().lines().toList();
        assertEquals("trace t.csv: 5 calls from 0.000 s to 0.012 s, 2 failures", lines.get(0));
        assertEquals("                    tight", lines.get(2));
        assertEquals("calls                   5", lines.get(3));
        assertEquals("rejected                1", lines.get(5));
        assertEquals("successes rejected      1", lines.get(8));
        assertEquals("time to trip         1 ms", lines.get(9));
        assertTrue(r.out().contains("tight.properties:\n       0.001 s  CLOSED -> OPEN\n"), r.out());
    }

    @Test
    void theSvgIsWrittenWhereAsked() throws IOException {
        Path trace = file("t.csv", TRACE);
        Path svg = dir.resolve("out.svg");
        Run r = run("--trace", trace.toString(), "--config", tight().toString(), "--svg", svg.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(Files.readString(svg).startsWith("<?xml"));
        assertTrue(r.out().endsWith("picture: " + svg + "\n"));
    }

    /** Bad traces: exit 4, one line naming the file, the line and the column. */
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "time_ms,outcome\\n5,success\\n4,success\\n | t.csv:3:1: time_ms 4 is before the previous row's 5 (rows must be in time order)",
                "time_ms,outcome\\n5,fial\\n | t.csv:2:3: outcome must be success, failure or ignored, was 'fial'",
                "time_ms,outcome,duration_ms\\n5,success\\n | t.csv:2:10: missing column duration_ms (the header has 3)",
                "time_ms,outcome\\n5\\n | t.csv:2:2: missing column outcome (the header has 2)",
                "time_ms,outcome\\nfive,success\\n | t.csv:2:1: time_ms must be a number of milliseconds (digits, at most 6 decimals, not negative), was 'five'",
                "time_ms,outcome\\n-1,success\\n | t.csv:2:1: time_ms must be a number of milliseconds (digits, at most 6 decimals, not negative), was '-1'",
                "time_ms,outcome\\n1.0000001,success\\n | t.csv:2:1: time_ms must be a number of milliseconds (digits, at most 6 decimals, not negative), was '1.0000001'",
                "time_ms,outcome,duration_ms\\n1,success,1e3\\n | t.csv:2:11: duration_ms must be a number of milliseconds (digits, at most 6 decimals, not negative), was '1e3'",
                "time_ms,outcome\\n1,success,9\\n | t.csv:2:11: more columns than the header's 2 (time_ms,outcome[,duration_ms])",
                " | t.csv:1:1: empty file, expected the header time_ms,outcome[,duration_ms]",
                "0,success\\n1,success\\n | t.csv:1:1: expected the header time_ms,outcome[,duration_ms], found '0,success'",
                "time,outcome\\n | t.csv:1:1: expected the header time_ms,outcome[,duration_ms], found 'time,outcome'",
            })
    void aBadTraceIsOneLineWithLineAndColumn(String trace, String message) throws IOException {
        Path t = file("t.csv", trace == null ? "" : trace.replace("\\n", "\n"));
        Run r = run("--trace", t.toString(), "--config", tight().toString());
        assertEquals(Replay.EXIT_TRACE, r.code());
        assertEquals("breaker-replay: " + message + "\n", r.err());
        assertEquals("", r.out());
    }

    @Test
    void aMissingTraceIsATraceError() throws IOException {
        Run r = run("--trace", dir.resolve("none.csv").toString(), "--config", tight().toString());
        assertEquals(Replay.EXIT_TRACE, r.code());
        assertTrue(r.err().startsWith("breaker-replay: none.csv: cannot read "), r.err());
        assertEquals(1, r.err().lines().count());
    }

    /** Bad configurations: exit 3, one line naming the file and the whole key. */
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "breaker.defaults.window.thresold = 2 | bad.properties: breaker.defaults.window.thresold: ",
                "breaker.defaults.window.threshold = 0 | bad.properties: breaker.defaults.window.threshold: ",
                "breaker.defaults.cooldown = soon | bad.properties: breaker.defaults.cooldown: ",
                "breaker.instances.x.probes = 2 | bad.properties: breaker.instances.x.probes: unknown key; a config file holds breaker.defaults.* keys only",
                "cooldown = 1s | bad.properties: cooldown: unknown key; a config file holds breaker.defaults.* keys only",
                "breaker.defaults.shadow = true | bad.properties: breaker.defaults.shadow: a shadow breaker rejects nothing",
                "breaker.defaults.window.type = sliding | bad.properties: breaker.defaults.window.type: ",
            })
    void aBadConfigIsOneLineNamingTheKey(String line, String start) throws IOException {
        Path trace = file("t.csv", TRACE);
        Path bad = file("bad.properties", line + "\n");
        Run r = run("--trace", trace.toString(), "--config", tight().toString(), "--config", bad.toString());
        assertEquals(Replay.EXIT_CONFIG, r.code(), r.err());
        assertTrue(r.err().startsWith("breaker-replay: " + start), r.err());
        assertEquals(1, r.err().lines().count(), r.err());
        assertEquals("", r.out());
    }

    /** What Notepad saves: a byte order mark and CRLF; the trace may have them, and so may a config. */
    @Test
    void aConfigWithAByteOrderMarkReadsLikeOneWithout() throws IOException {
        Path trace = file("t.csv", TRACE);
        Path bom = file(
                "tight.properties",
                "\uFEFFbreaker.defaults.window.threshold = 2\r\nbreaker.defaults.cooldown = 10ms\r\n");
        Run r = run("--trace", trace.toString(), "--config", bom.toString(), "--json");
        assertEquals(0, r.code(), r.err());
        Run plain = run("--trace", trace.toString(), "--config", tight().toString(), "--json");
        assertEquals(plain.out(), r.out());
    }

    /** Two configs of one file name (staging/x.properties, prod/x.properties) are told apart by their folders. */
    @Test
    void configsOfTheSameFileNameAreToldApart() throws IOException {
        Path trace = file("t.csv", TRACE);
        Files.createDirectories(dir.resolve("staging"));
        Files.createDirectories(dir.resolve("prod"));
        Path staging = file("staging/x.properties", "breaker.defaults.window.threshold = 2\n");
        Path prod = file("prod/x.properties", "breaker.defaults.window.threshold = 3\n");
        Path other = file("y.properties", "breaker.defaults.window.threshold = 3\n");
        Run r = run(
                "--trace",
                trace.toString(),
                "--config",
                staging.toString(),
                "--config",
                prod.toString(),
                "--config",
                other.toString(),
                "--json");
        assertEquals(0, r.code(), r.err());
        List<String> lines = r.out().lines().toList();
        assertTrue(lines.get(0).startsWith("{\"config\":\"staging/x.properties\","), lines.get(0));
        assertTrue(lines.get(1).startsWith("{\"config\":\"prod/x.properties\","), lines.get(1));
        assertTrue(lines.get(2).startsWith("{\"config\":\"y.properties\","), lines.get(2));
        Run table = run("--trace", trace.toString(), "--config", staging.toString(), "--config", prod.toString());
        assertTrue(table.out().contains("staging/x  prod/x\n"), table.out());
        assertTrue(table.out().contains("\nstaging/x.properties:\n"), table.out());
        Run same = run("--trace", trace.toString(), "--config", other.toString(), "--config", other.toString());
        assertTrue(same.out().contains("y  y (2)\n"), same.out());
    }

    /** A bad one of two configs of one file name is named by its folder too. */
    @Test
    void aBadConfigOfASharedFileNameIsNamedByItsFolder() throws IOException {
        Path trace = file("t.csv", TRACE);
        Files.createDirectories(dir.resolve("staging"));
        Files.createDirectories(dir.resolve("prod"));
        Path staging = file("staging/x.properties", "breaker.defaults.window.threshold = 2\n");
        Path prod = file("prod/x.properties", "breaker.defaults.window.threshold = 0\n");
        Run r = run("--trace", trace.toString(), "--config", staging.toString(), "--config", prod.toString());
        assertEquals(Replay.EXIT_CONFIG, r.code());
        assertTrue(
                r.err().startsWith("breaker-replay: prod/x.properties: breaker.defaults.window.threshold: "), r.err());
    }

    @Test
    void theLibrarysMessageIsKeptWhole() throws IOException {
        Path trace = file("t.csv", TRACE);
        Path bad = file("bad.properties", "breaker.defaults.window.threshold = 0\n");
        Run r = run("--trace", trace.toString(), "--config", bad.toString());
        assertEquals(
                "breaker-replay: bad.properties: breaker.defaults.window.threshold: window 'consecutive':"
                        + " threshold must be >= 1, was 0\n",
                r.err());
    }

    /** Bad arguments: exit 2, one line. */
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "--config c.properties | --trace is required; usage: ",
                "--trace t.csv | at least one --config is required; usage: ",
                "--trace t.csv --config c.properties --frobnicate | unknown argument '--frobnicate'; usage: ",
                "--trace t.csv --trace u.csv --config c.properties | --trace given twice",
                "--trace t.csv --config c.properties --seed x | --seed must be a whole number, was 'x'",
                "--trace t.csv --config | --config needs a value; usage: ",
                "--trace t.csv --config c.properties --json=yes | --json takes no value, was '--json=yes'",
                "--trace= --config c.properties | --trace needs a value, was empty",
                "--trace t.csv --config c.properties --json --json | --json given twice",
                "--trace t.csv --config c.properties --svg --json | --svg needs a value, not the option '--json'",
                "--trace t.csv --config --seed 3 | --config needs a value, not the option '--seed'",
            })
    void badArgumentsAreOneLine(String args, String start) {
        Run r = run(args.split(" "));
        assertEquals(Replay.EXIT_ARGUMENTS, r.code());
        assertTrue(r.err().startsWith("breaker-replay: " + start), r.err());
        assertEquals(1, r.err().lines().count());
    }

    @Test
    void anEmptyTraceGivesZerosAndAnEmptyPicture() throws IOException {
        Path trace = file("t.csv", "time_ms,outcome\n");
        Path svg = dir.resolve("e.svg");
        Run r = run("--trace", trace.toString(), "--config", tight().toString(), "--json", "--svg", svg.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("{\"config\":\"tight.properties\",\"calls\":0,\"permitted\":0,"), r.out());
        assertTrue(Files.size(svg) > 0);
    }

    @Test
    void aPictureThatCannotBeWrittenIsExitFive() throws IOException {
        Path trace = file("t.csv", TRACE);
        List<String> args = new ArrayList<>(List.of("--trace", trace.toString(), "--config", tight().toString()));
        args.addAll(List.of("--svg", dir.resolve("no/such/dir/x.svg").toString()));
        Run r = run(args.toArray(String[]::new));
        assertEquals(Replay.EXIT_OUTPUT, r.code());
        assertEquals(1, r.err().lines().count());
    }
}
