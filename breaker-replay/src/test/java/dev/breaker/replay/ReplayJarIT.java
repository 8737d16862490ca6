package dev.breaker.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The runnable jar that package made, in a subprocess: {@code java -jar target/breaker-replay.jar}. */
class ReplayJarIT {

    static final String JAR_PROPERTY = "breaker.replay.jar";
    static final Path JAR = Path.of(System.getProperty(JAR_PROPERTY, "target/breaker-replay.jar"));
    static final Path EXAMPLES = Path.of("..", "examples");

    @TempDir
    Path dir;

    /** Failsafe sets the property after package made the jar; a Surefire run picked by -Dtest skips. */
    @org.junit.jupiter.api.BeforeAll
    static void onlyUnderFailsafe() {
        org.junit.jupiter.api.Assumptions.assumeTrue(
                System.getProperty(JAR_PROPERTY) != null, "run by Failsafe in the integration-test phase");
        assertTrue(Files.isRegularFile(JAR), JAR + " made by package");
    }

    record Run(int code, String out, String err) {}

    static Run java(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).start();
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        byte[] err = p.getErrorStream().readAllBytes();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        return new Run(
                p.exitValue(),
                new String(out, StandardCharsets.UTF_8),
                withoutJvmNotices(new String(err, StandardCharsets.UTF_8)));
    }

    /**
     * Standard error less the lines the JVM itself prints about its environment: "Picked up
     * JAVA_TOOL_OPTIONS: ..." (and the like) and "OpenJDK ... VM warning: ...". They come from the
     * machine, not from the jar; every other line is kept, so anything the jar prints still counts.
     */
    static String withoutJvmNotices(String err) {
        StringBuilder kept = new StringBuilder();
        for (String line : err.split("(?<=\n)")) { // each line with its line break
            String text = line.stripTrailing();
            if (!text.startsWith("Picked up ") && !text.matches("OpenJDK .*[Ww]arning.*")) {
                kept.append(line);
            }
        }
        return kept.toString();
    }

    static List<String> replay(String trace, String... more) {
        List<String> args = new ArrayList<>(List.of("-jar", JAR.toString(), "--trace", trace));
        for (String c : new String[] {"consecutive-5", "count-rate", "time-rate-slow", "exponential"}) {
            args.add("--config");
            args.add(EXAMPLES.resolve("configs").resolve(c + ".properties").toString());
        }
        args.addAll(List.of(more));
        return args;
    }

    @Test
    void theJarReplaysEveryWindowAndThePolicyFromItsMergedServiceFiles() throws Exception {
        Path svg = dir.resolve("outage.svg");
        Run r = java(replay(EXAMPLES.resolve("traces/outage.csv").toString(), "--json", "--svg", svg.toString())
                .toArray(String[]::new));
        assertEquals(0, r.code(), r.err());
        assertEquals("", r.err());
        List<String> lines = r.out().lines().toList();
        assertEquals(4, lines.size(), r.out());
        assertTrue(
                lines.get(0).startsWith("{\"config\":\"consecutive-5.properties\",\"calls\":2388,\"permitted\":1793,"));
        assertTrue(lines.get(1).startsWith("{\"config\":\"count-rate.properties\",\"calls\":2388,\"permitted\":1606,"));
        assertTrue(lines.get(2)
                .startsWith("{\"config\":\"time-rate-slow.properties\",\"calls\":2388,\"permitted\":1795,"));
        assertTrue(
                lines.get(3).startsWith("{\"config\":\"exponential.properties\",\"calls\":2388,\"permitted\":1183,"));
        assertEquals(Files.readString(Path.of("..", "docs", "replay-outage.svg")), Files.readString(svg));
    }

    @Test
    void theTableByDefault() throws Exception {
        Run r = java(replay(EXAMPLES.resolve("traces/blip.csv").toString()).toArray(String[]::new));
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("trace blip.csv: 1,257 calls from 0.048 s to 59.824 s, 36 failures\n"), r.out());
        assertTrue(r.out().contains("\nsuccesses rejected "), r.out());
    }

    @Test
    void aBadTraceExitsFourWithOneLine() throws Exception {
        Path bad = Files.writeString(dir.resolve("bad.csv"), "time_ms,outcome\n10,success\n5,failure\n");
        Run r = java(replay(bad.toString()).toArray(String[]::new));
        assertEquals(4, r.code());
        assertEquals(
                "breaker-replay: bad.csv:3:1: time_ms 5 is before the previous row's 10 (rows must be in time order)\n",
                r.err());
        assertEquals("", r.out());
    }

    @Test
    void aBadConfigExitsThreeNamingTheKey() throws Exception {
        Path trace = Files.writeString(dir.resolve("t.csv"), "time_ms,outcome\n1,success\n");
        Path bad = Files.writeString(dir.resolve("bad.properties"), "breaker.defaults.window.size = 10\n");
        Run r = java("-jar", JAR.toString(), "--trace", trace.toString(), "--config", bad.toString());
        assertEquals(3, r.code());
        assertTrue(r.err().startsWith("breaker-replay: bad.properties: breaker.defaults.window.size: "), r.err());
        assertEquals(1, r.err().lines().count());
    }

    @Test
    void noArgumentsExitTwoWithTheUsage() throws Exception {
        Run r = java("-jar", JAR.toString());
        assertEquals(2, r.code());
        assertEquals("breaker-replay: --trace is required; " + Arguments.USAGE + "\n", r.err());
    }

    @Test
    void theJarsGeneratorWritesTheCommittedExamples() throws Exception {
        Run r = java("-cp", JAR.toString(), "dev.breaker.replay.ExampleTraces", dir.toString());
        assertEquals(0, r.code(), r.err());
        for (String name : ExampleTraces.NAMES) {
            assertEquals(
                    Files.readString(EXAMPLES.resolve("traces").resolve(name + ".csv")),
                    Files.readString(dir.resolve(name + ".csv")),
                    name);
        }
    }
}
