package dev.breaker.bench;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.NoBenchmarksException;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs every benchmark at 1 and 2 threads with the GC profiler, through JMH's API, and prints
 * one Markdown table: ns/op, error, B/op and the speed-up against Resilience4j measured in the
 * same run ({@code R4j ns / our ns}; above 1 means we are faster).
 *
 * <p>Arguments (all optional): {@code forks warmupIterations measurementIterations secondsPerIteration [regex]}.
 * The {@code run} script next to the pom passes a short but honest configuration.
 */
public final class Report {

    private Report() {}

    /** The benchmarks that carry issue 10's goals: run in more JVMs (see {@link #MIXED_FORKS}). */
    private static final String MIXED = "MixedPermitBenchmarks";

    /**
     * JVMs per mixed-traffic benchmark, at least. On this 2-core VM their times are bimodal from
     * one JVM to the next, for every library (2 threads, count 100, 40% failures: ours 40 to 48 or
     * 65 to 80 ns a call, Resilience4j 87 to 156), whatever the JIT's order (the same with
     * {@code -Xbatch} or a larger {@code InlineSmallCode}) or the objects' placement (the same with
     * 64-byte alignment): one JVM each could set one library's slow mode against the other's fast
     * one, as the run at 3f4c158 did (0.9x where other runs measured 1.7x to 2.5x).
     */
    private static final int MIXED_FORKS = 3;

    /** One measured row. */
    private record Row(String scenario, String library, int threads, double ns, double error, double bytes) {}

    /**
     * Runs and prints.
     *
     * @param args forks, warmup iterations, measurement iterations, seconds per iteration, benchmark regex
     * @throws RunnerException when JMH fails
     */
    public static void main(String[] args) throws RunnerException {
        int forks = args.length > 0 ? Integer.parseInt(args[0]) : 1;
        int warmups = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        int iterations = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        int seconds = args.length > 3 ? Integer.parseInt(args[3]) : 1;
        String include = args.length > 4 ? args[4] : "dev\\.breaker\\.bench\\..*Benchmarks\\..*";
        int mixedForks = Math.max(forks, MIXED_FORKS);
        List<Row> rows = new ArrayList<>();
        boolean mixedRan = false;
        NoBenchmarksException none = null;
        for (int threads : new int[] {1, 2}) {
            for (boolean mixed : new boolean[] {false, true}) {
                OptionsBuilder options = new OptionsBuilder();
                options.include(include)
                        .exclude(mixed ? "^(?!.*" + MIXED + ")" : MIXED)
                        .forks(mixed ? mixedForks : forks)
                        .warmupIterations(warmups)
                        .warmupTime(TimeValue.seconds(seconds))
                        .measurementIterations(iterations)
                        .measurementTime(TimeValue.seconds(seconds))
                        .threads(threads)
                        .timeUnit(TimeUnit.NANOSECONDS)
                        .addProfiler(GCProfiler.class);
                Collection<RunResult> results;
                try {
                    results = new Runner(options.build()).run();
                } catch (NoBenchmarksException e) { // the regex picked none of this half
                    none = e;
                    continue;
                }
                mixedRan |= mixed;
                for (RunResult r : results) {
                    rows.add(row(r, threads));
                }
            }
        }
        if (rows.isEmpty() && none != null) {
            throw none; // the regex picked nothing at all
        }
        System.out.println();
        System.out.printf(
                Locale.ROOT,
                "Configuration: forks=%d%s, warmup=%dx%ds, measurement=%dx%ds, JDK %s, %d cores%n%n",
                forks,
                mixedRan ? " (" + MIXED + ": " + mixedForks + ")" : "",
                warmups,
                seconds,
                iterations,
                seconds,
                System.getProperty("java.version"),
                Runtime.getRuntime().availableProcessors());
        System.out.println(table(rows));
    }

    private static Row row(RunResult r, int threads) {
        String benchmark = r.getParams().getBenchmark();
        String simple = benchmark.substring(benchmark.lastIndexOf('.', benchmark.lastIndexOf('.') - 1) + 1);
        String cls = simple.substring(0, simple.indexOf('.')).replace("Benchmarks", "");
        String method = simple.substring(simple.indexOf('.') + 1);
        String library = method.startsWith("ours")
                ? "dev.breaker"
                : method.startsWith("resilience4j")
                        ? "Resilience4j"
                        : method.startsWith("failsafe") ? "Failsafe" : "floor";
        String variant = method.replaceFirst("^(ours|resilience4j|failsafe)", "");
        String scenario =
                cls + (variant.isEmpty() || library.equals("floor") ? "" : " " + variant.toLowerCase(Locale.ROOT));
        if (library.equals("floor")) {
            scenario = "floor: " + method;
        }
        for (String key : r.getParams().getParamsKeys()) { // every parameter: shape, mix, ...
            scenario += " " + r.getParams().getParam(key);
        }
        Result<?> primary = r.getPrimaryResult();
        Result<?> alloc = r.getSecondaryResults().get("gc.alloc.rate.norm");
        return new Row(
                scenario,
                library,
                threads,
                primary.getScore(),
                primary.getScoreError(),
                alloc == null ? Double.NaN : alloc.getScore());
    }

    static String table(List<Row> rows) {
        Map<String, Double> r4j = new LinkedHashMap<>();
        for (Row row : rows) {
            if (row.library().equals("Resilience4j")) {
                r4j.put(row.scenario() + "@" + row.threads(), row.ns());
            }
        }
        StringBuilder out = new StringBuilder();
        out.append("| scenario | threads | library | ns/op | ± | B/op | R4j ns / this ns |\n");
        out.append("|---|---|---|---:|---:|---:|---:|\n");
        rows.stream()
                .sorted(java.util.Comparator.comparing(Row::scenario)
                        .thenComparing(Row::threads)
                        .thenComparing(r -> r.library().equals("dev.breaker")
                                ? 0
                                : r.library().equals("Resilience4j") ? 1 : 2))
                .forEach(row -> {
                    Double base = r4j.get(row.scenario() + "@" + row.threads());
                    String ratio = base == null || row.library().equals("Resilience4j")
                            ? ""
                            : String.format(Locale.ROOT, "%.1fx", base / row.ns());
                    String name = row.library().equals("dev.breaker") ? "**dev.breaker**" : row.library();
                    out.append(String.format(
                            Locale.ROOT,
                            "| %s | %d | %s | %.1f | %.1f | %s | %s |%n",
                            row.scenario(),
                            row.threads(),
                            name,
                            row.ns(),
                            row.error(),
                            Double.isNaN(row.bytes()) ? "?" : String.format(Locale.ROOT, "%.0f", Math.abs(row.bytes())),
                            ratio));
                });
        return out.toString();
    }
}
