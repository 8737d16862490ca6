package dev.breaker.replay;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line of {@code breaker-replay}: replays a trace of recorded calls through one or more
 * breaker configurations and says what each would have done.
 *
 * <pre>
 * java -jar breaker-replay.jar --trace T.csv --config A.properties [--config B.properties ...]
 *      [--svg OUT.svg] [--json] [--seed N]
 * </pre>
 *
 * <p>The trace is read once, row by row, and each row is given to every configuration's breaker
 * in turn, so memory does not grow with the trace. The output is a table (or, with {@code --json},
 * one JSON object per configuration per line); {@code --svg} also draws the run.
 *
 * <p>Exit codes: 0 done; 2 bad arguments; 3 a bad configuration (the message names the file and
 * the key); 4 a bad trace (the message names the line and the column); 5 the picture could not be
 * written. Every error is one line on standard error.
 */
public final class Replay {

    /** Count series of the trace itself in the bins: successes, failures. */
    static final int TRACE_COUNT_SERIES = 2;

    static final int TRACE_SUCCESSES = 0;
    static final int TRACE_FAILURES = 1;

    /** Sum series of the trace itself in the bins: durations (ms), calls with a duration. */
    static final int TRACE_SUM_SERIES = 2;

    static final int TRACE_DURATION_SUM = 0;
    static final int TRACE_DURATION_CALLS = 1;

    static final int EXIT_ARGUMENTS = 2;
    static final int EXIT_CONFIG = 3;
    static final int EXIT_TRACE = 4;
    static final int EXIT_OUTPUT = 5;

    private Replay() {}

    /**
     * Runs the tool and exits with its code.
     *
     * @param args the command line
     */
    public static void main(String[] args) {
        int code = run(args, System.out, System.err);
        System.out.flush();
        if (code != 0) {
            System.exit(code);
        }
    }

    /**
     * Runs the tool.
     *
     * @param args the command line
     * @param out  where the table or JSON goes
     * @param err  where a one-line error goes
     * @return the exit code
     */
    static int run(String[] args, PrintStream out, PrintStream err) {
        Arguments arguments;
        List<ConfigFile> configs = new ArrayList<>();
        try {
            arguments = Arguments.parse(args);
        } catch (Arguments.BadArguments e) {
            err.println("breaker-replay: " + e.getMessage());
            return EXIT_ARGUMENTS;
        }
        try {
            List<String> names = ConfigFile.names(arguments.configs());
            for (int i = 0; i < names.size(); i++) {
                configs.add(ConfigFile.load(arguments.configs().get(i), names.get(i), arguments.seed()));
            }
        } catch (ConfigException e) {
            err.println("breaker-replay: " + e.getMessage());
            return EXIT_CONFIG;
        }
        Result result;
        String traceName = String.valueOf(arguments.trace().getFileName());
        try (BufferedReader in = Files.newBufferedReader(arguments.trace(), StandardCharsets.UTF_8)) {
            result = replay(new TraceReader(in, traceName), configs, arguments.svg() != null);
        } catch (TraceException e) {
            err.println("breaker-replay: " + e.getMessage());
            return EXIT_TRACE;
        } catch (IOException e) {
            err.println(
                    "breaker-replay: " + traceName + ": cannot read " + arguments.trace() + " (" + oneLine(e) + ")");
            return EXIT_TRACE;
        }
        if (arguments.svg() != null) {
            String picture = SvgChart.draw(traceName, result); // drawn first: a file already there is kept until then
            try (Writer w = Files.newBufferedWriter(arguments.svg(), StandardCharsets.UTF_8)) {
                w.write(picture);
            } catch (IOException e) {
                err.println("breaker-replay: cannot write " + arguments.svg() + " (" + oneLine(e) + ")");
                return EXIT_OUTPUT;
            }
        }
        if (arguments.json()) {
            for (Summary s : result.summaries()) {
                out.println(Json.line(s));
            }
        } else {
            out.print(Table.format(traceName, result));
            if (arguments.svg() != null) {
                out.println("picture: " + arguments.svg());
            }
        }
        return 0;
    }

    /**
     * Replays a trace through configurations, in lockstep.
     *
     * @param trace   the trace, its header read
     * @param configs the configurations
     * @param picture whether to keep the per-interval totals for a picture
     * @return what happened
     */
    static Result replay(TraceReader trace, List<ConfigFile> configs, boolean picture)
            throws IOException, TraceException {
        Bins bins = picture
                ? new Bins(
                        TRACE_COUNT_SERIES + configs.size() * Simulation.COUNT_SERIES,
                        TRACE_SUM_SERIES + configs.size() * Simulation.SUM_SERIES)
                : null;
        List<Simulation> simulations = new ArrayList<>();
        for (int i = 0; i < configs.size(); i++) {
            simulations.add(new Simulation(configs.get(i), bins, i));
        }
        long first = -1;
        long last = -1;
        while (trace.next()) {
            long t = trace.timeNanos();
            TraceOutcome outcome = trace.outcome();
            long duration = trace.durationNanos();
            int bin = 0;
            if (bins != null) {
                bin = bins.at(t);
                if (outcome != TraceOutcome.IGNORED) {
                    bins.add(outcome == TraceOutcome.FAILURE ? TRACE_FAILURES : TRACE_SUCCESSES, bin, 1);
                    if (trace.hasDuration()) {
                        bins.addSum(TRACE_DURATION_SUM, bin, duration / 1e6);
                        bins.addSum(TRACE_DURATION_CALLS, bin, 1);
                    }
                }
            }
            for (Simulation s : simulations) {
                s.call(t, outcome, duration, bin);
            }
            if (first < 0) {
                first = t;
            }
            last = t;
        }
        List<Summary> summaries = new ArrayList<>();
        for (Simulation s : simulations) {
            summaries.add(s.finish());
        }
        return new Result(trace.rows(), first, last, trace.hasDuration(), List.copyOf(summaries), bins);
    }

    private static String oneLine(Exception e) {
        return String.valueOf(e).replaceAll("\\s*\\R\\s*", " ");
    }

    /**
     * A whole run.
     *
     * @param rows        calls in the trace
     * @param firstNanos  the first call's time, -1 for an empty trace
     * @param lastNanos   the last call's time, -1 for an empty trace
     * @param hasDuration whether the trace gave durations
     * @param summaries   one per configuration, in order
     * @param bins        the per-interval totals, or null when no picture was asked for
     */
    record Result(
            long rows, long firstNanos, long lastNanos, boolean hasDuration, List<Summary> summaries, Bins bins) {}
}
