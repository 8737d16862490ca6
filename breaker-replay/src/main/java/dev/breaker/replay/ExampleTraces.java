package dev.breaker.replay;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Makes the example traces of {@code examples/traces}, the same bytes every time: a dependency
 * called about 20 times a second (gaps drawn from an exponential distribution, whole
 * milliseconds), with about 1% of calls failing when it is healthy, in four stories:
 *
 * <ul>
 * <li>{@code outage}: 120 s; down from 40 s to 70 s (95% of calls fail, after a 1 s timeout), then
 *     healthy again;
 * <li>{@code flapping}: 120 s; sick and healthy in turns of 3 to 9 s (70% of calls fail while sick);
 * <li>{@code degradation}: 180 s; from 30 s on, durations rise from about 40 ms to about 2.5 s and
 *     failures from 1% to about 30% at the end;
 * <li>{@code blip}: 60 s; every call fails for 1.5 s from 30 s.
 * </ul>
 *
 * <p>Run: {@code java -cp breaker-replay/target/breaker-replay.jar dev.breaker.replay.ExampleTraces
 * examples/traces}. A test checks that the committed traces are what this writes.
 *
 * <p>{@code ... ExampleTraces --large N FILE} writes a long trace of about {@code N} calls for
 * measuring the tool on large inputs: the same traffic, {@code N * 50 ms} long, down for 30 s
 * (95% of calls fail) at the middle of every hour.
 */
public final class ExampleTraces {

    /** The example traces' names, each written to {@code <name>.csv}. */
    static final List<String> NAMES = List.of("outage", "flapping", "degradation", "blip");

    private static final long SEED = 20261130L;

    private ExampleTraces() {}

    /**
     * Writes every example trace into a folder.
     *
     * @param args the folder, {@code examples/traces} when none is given
     * @throws IOException when a file cannot be written
     */
    public static void main(String[] args) throws IOException {
        if (args.length > 0 && args[0].equals("--large")) {
            if (args.length != 3) {
                throw new IllegalArgumentException("usage: --large CALLS FILE");
            }
            long calls = Long.parseLong(args[1]);
            if (calls < 1 || calls > 1_000_000_000L) {
                throw new IllegalArgumentException("CALLS must be 1 to 1,000,000,000, was " + calls);
            }
            try (Writer w = Files.newBufferedWriter(Path.of(args[2]), StandardCharsets.UTF_8)) {
                writeLarge(calls, w);
            }
            return;
        }
        Path dir = Path.of(args.length > 0 ? args[0] : "examples/traces");
        Files.createDirectories(dir);
        for (String name : NAMES) {
            try (Writer w = Files.newBufferedWriter(dir.resolve(name + ".csv"), StandardCharsets.UTF_8)) {
                write(name, w);
            }
        }
    }

    /**
     * Writes one example trace.
     *
     * @param name one of {@link #NAMES}
     * @param out  where to write it
     * @throws IOException when writing fails
     */
    static void write(String name, Writer out) throws IOException {
        SplittableRandom random = new SplittableRandom(SEED + NAMES.indexOf(name));
        out.write("time_ms,outcome,duration_ms\n");
        switch (name) {
            case "outage" -> calls(out, random, 120_000, t -> t >= 40_000 && t < 70_000 ? 0.95 : 0.01, t -> 0);
            case "flapping" -> flapping(out, random);
            case "degradation" ->
                calls(
                        out,
                        random,
                        180_000,
                        t -> 0.01 + 0.29 * Math.pow(progress(t, 30_000, 180_000), 2),
                        t -> 2_460 * Math.pow(progress(t, 30_000, 180_000), 1.5));
            case "blip" -> calls(out, random, 60_000, t -> t >= 30_000 && t < 31_500 ? 1.0 : 0.01, t -> 0);
            default -> throw new IllegalArgumentException("no example trace '" + name + "', only " + NAMES);
        }
    }

    /**
     * Writes a long trace of about {@code calls} calls (see the class comment).
     *
     * @param calls about how many calls: the trace lasts {@code calls * 50} ms
     * @param out   where to write it
     * @throws IOException when writing fails
     */
    static void writeLarge(long calls, Writer out) throws IOException {
        out.write("time_ms,outcome,duration_ms\n");
        long hour = 3_600_000L;
        calls(
                out,
                new SplittableRandom(SEED - 1),
                calls * 50,
                t -> t % hour >= hour / 2 && t % hour < hour / 2 + 30_000 ? 0.95 : 0.01,
                t -> 0);
    }

    private static double progress(long t, long from, long to) {
        return t < from ? 0 : (t - from) / (double) (to - from);
    }

    private static void flapping(Writer out, SplittableRandom random) throws IOException {
        // the turns are drawn first, from a random source of their own, so the calls do not shift them
        SplittableRandom turns = random.split();
        long[] ends = new long[64];
        long t = 0;
        for (int i = 0; i < ends.length; i++) {
            t += 3_000 + turns.nextInt(6_001);
            ends[i] = t;
        }
        calls(
                out,
                random,
                120_000,
                time -> {
                    int turn = 0;
                    while (ends[turn] <= time) {
                        turn++;
                    }
                    return turn % 2 == 1 ? 0.7 : 0.01;
                },
                time -> 0);
    }

    private interface Curve {
        double at(long timeMs);
    }

    /**
     * Calls until {@code lengthMs}: a failure with the curve's probability; a successful call
     * takes 20 to 60 ms plus the extra; a failure the same, or 1 s (a timeout) while more than
     * half of the calls fail.
     */
    private static void calls(Writer out, SplittableRandom random, long lengthMs, Curve failure, Curve extraMs)
            throws IOException {
        long t = 0;
        while (true) {
            t += Math.round(-Math.log(1 - random.nextDouble()) * 50);
            if (t >= lengthMs) {
                return;
            }
            double p = failure.at(t);
            boolean failed = random.nextDouble() < p;
            long duration = Math.round(20 + random.nextDouble() * 40 + extraMs.at(t));
            if (failed && p > 0.5) {
                duration = 1_000;
            }
            out.write(String.format(Locale.ROOT, "%d,%s,%d", t, failed ? "failure" : "success", duration) + "\n");
        }
    }
}
