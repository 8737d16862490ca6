package dev.breaker.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The committed examples: the generator still writes the traces byte for byte; the example
 * configurations' results on them agree with an independent model of the SPEC where one is
 * simple enough to write ({@link SimpleModel}: consecutive and count windows with a fixed cooldown);
 * and the outage's figures, which the README shows, are pinned.
 */
class ExampleTracesTests {

    static final Path EXAMPLES = Path.of("..", "examples");

    @ParameterizedTest
    @ValueSource(strings = {"outage", "flapping", "degradation", "blip"})
    void theGeneratorWritesTheCommittedTracesByteForByte(String name) throws Exception {
        StringWriter w = new StringWriter();
        ExampleTraces.write(name, w);
        String committed = Files.readString(EXAMPLES.resolve("traces").resolve(name + ".csv"), StandardCharsets.UTF_8);
        assertEquals(committed, w.toString(), "examples/traces/" + name + ".csv: run ExampleTraces again");
        assertTrue(committed.lines().count() < 5_000, "small enough to commit");
    }

    @Test
    void theLargeTraceHasAboutTheCallsAskedForInTimeOrderWithItsOutageAtTheHalfHour() throws Exception {
        StringWriter w = new StringWriter();
        ExampleTraces.writeLarge(100_000, w); // 5,000 s: one outage, from 1,800 s to 1,830 s
        List<String> rows = w.toString().lines().skip(1).toList();
        assertTrue(rows.size() > 95_000 && rows.size() < 105_000, rows.size() + " rows");
        long previous = -1;
        int failedInOutage = 0;
        int inOutage = 0;
        int failedElsewhere = 0;
        for (String row : rows) {
            String[] cells = row.split(",");
            long t = Long.parseLong(cells[0]);
            assertTrue(t >= previous && t < 5_000_000, row);
            previous = t;
            boolean outage = t >= 1_800_000 && t < 1_830_000;
            boolean failed = cells[1].equals("failure");
            inOutage += outage ? 1 : 0;
            failedInOutage += outage && failed ? 1 : 0;
            failedElsewhere += !outage && failed ? 1 : 0;
        }
        assertTrue(failedInOutage > inOutage * 0.9, failedInOutage + " of " + inOutage);
        assertTrue(failedElsewhere < rows.size() * 0.02, failedElsewhere + " failures outside the outage");
    }

    static ConfigFile example(String name) throws ConfigException {
        return ConfigFile.load(EXAMPLES.resolve("configs").resolve(name + ".properties"), 0);
    }

    @ParameterizedTest
    @ValueSource(strings = {"outage", "flapping", "degradation", "blip"})
    void theConsecutiveExampleAgreesWithTheModel(String name) throws Exception {
        Path trace = EXAMPLES.resolve("traces").resolve(name + ".csv");
        Summary s = replay(trace, example("consecutive-5"));
        SimpleModel m = SimpleModel.run(trace, SimpleModel.consecutive(5, 10_000_000_000L, 1));
        assertEquals(m.counts(), Runs.counts(s));
        assertEquals(m.transitions, Runs.transitions(s));
    }

    @ParameterizedTest
    @ValueSource(strings = {"outage", "flapping", "degradation", "blip"})
    void theCountRateExampleAgreesWithTheModel(String name) throws Exception {
        Path trace = EXAMPLES.resolve("traces").resolve(name + ".csv");
        Summary s = replay(trace, example("count-rate"));
        SimpleModel m = SimpleModel.run(trace, SimpleModel.count(50, 0.5, 20, 10_000_000_000L, 3));
        assertEquals(m.counts(), Runs.counts(s));
        assertEquals(m.transitions, Runs.transitions(s));
    }

    /** What the README shows for the outage; each also holds by the model or the picture. */
    @Test
    void theOutagesFiguresArePinned() throws Exception {
        Path trace = EXAMPLES.resolve("traces").resolve("outage.csv");
        Replay.Result r = Replay.replay(
                new TraceReader(Files.newBufferedReader(trace), "outage.csv"),
                List.of(
                        example("consecutive-5"),
                        example("count-rate"),
                        example("time-rate-slow"),
                        example("exponential")),
                false);
        assertEquals(2388, r.rows());
        List<List<Long>> counts = r.summaries().stream().map(Runs::counts).toList();
        assertEquals(
                List.of(
                        List.of(2388L, 1793L, 595L, 20L, 558L, 37L),
                        List.of(2388L, 1606L, 782L, 38L, 540L, 242L),
                        List.of(2388L, 1795L, 593L, 101L, 477L, 116L),
                        List.of(2388L, 1183L, 1205L, 15L, 563L, 642L)),
                counts);
        // the dependency fails from 40 s to 70 s: every configuration trips after 40 s and closes after 70 s
        for (Summary s : r.summaries()) {
            Transition firstOpen = s.transitions().get(0);
            Transition lastClose = s.transitions().get(s.transitions().size() - 1);
            assertTrue(firstOpen.atNanos() >= 40_000_000_000L && firstOpen.atNanos() < 46_000_000_000L, s.config());
            assertTrue(lastClose.atNanos() >= 70_000_000_000L, s.config());
            assertTrue(s.timeToTripNanos() < 6_000_000_000L, s.config());
        }
    }

    /** The same seed gives the same run; another seed other jittered cooldowns. */
    @Test
    void jitterRepeatsFromTheSeed() throws Exception {
        Path trace = EXAMPLES.resolve("traces").resolve("flapping.csv");
        Path config = EXAMPLES.resolve("configs").resolve("exponential.properties");
        List<Transition> a = replay(trace, ConfigFile.load(config, 7)).transitions();
        List<Transition> b = replay(trace, ConfigFile.load(config, 7)).transitions();
        List<Transition> c = replay(trace, ConfigFile.load(config, 8)).transitions();
        assertEquals(a, b);
        assertTrue(!a.equals(c), "seed 8 draws other cooldowns than seed 7");
        Properties p = new Properties();
        p.setProperty("breaker.defaults.half-open.type", "exponential");
        p.setProperty("breaker.defaults.half-open.jitter", "0");
        assertEquals(
                replay(trace, ConfigFile.of("x", p, 1)).transitions(),
                replay(trace, ConfigFile.of("x", p, 2)).transitions(),
                "without jitter the seed changes nothing");
    }

    static Summary replay(Path trace, ConfigFile config) throws Exception {
        return Replay.replay(
                        new TraceReader(
                                Files.newBufferedReader(trace),
                                trace.getFileName().toString()),
                        List.of(config),
                        false)
                .summaries()
                .get(0);
    }
}
