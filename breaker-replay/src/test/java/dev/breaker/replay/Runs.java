package dev.breaker.replay;

import java.io.BufferedReader;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/** Replays traces and configurations given as text, in memory. */
final class Runs {

    private Runs() {}

    /** A configuration from lines without the {@code breaker.defaults.} prefix. */
    static ConfigFile config(String name, long seed, String... settings) {
        Properties p = new Properties();
        for (String line : settings) {
            int eq = line.indexOf('=');
            p.setProperty(
                    "breaker.defaults." + line.substring(0, eq).strip(),
                    line.substring(eq + 1).strip());
        }
        try {
            return ConfigFile.of(name, p, seed);
        } catch (ConfigException e) {
            throw new AssertionError(e);
        }
    }

    static ConfigFile config(String name, String... settings) {
        return config(name, 0, settings);
    }

    static Replay.Result replay(String csv, boolean picture, ConfigFile... configs) {
        try {
            return Replay.replay(
                    new TraceReader(new BufferedReader(new StringReader(csv)), "test.csv"), List.of(configs), picture);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    static Summary one(String csv, ConfigFile config) {
        return replay(csv, false, config).summaries().get(0);
    }

    /**
     * The SPEC's replay notation, {@code [0,F] [1,F] [2,T]}, as a trace: F a failure, T a success,
     * times in milliseconds.
     */
    static String notation(String calls) {
        StringBuilder csv = new StringBuilder("time_ms,outcome\n");
        for (String call : calls.trim().split("\\s+")) {
            String[] parts = call.substring(1, call.length() - 1).split(",");
            csv.append(parts[0])
                    .append(',')
                    .append(parts[1].equals("F") ? "failure" : "success")
                    .append('\n');
        }
        return csv.toString();
    }

    /** What a summary says per kind of call, from the SPEC's per-call output and the calls. */
    static List<Long> expectedCounts(String calls, String outputs) {
        String[] in = calls.trim().split("\\s+");
        String[] out = outputs.trim().split("\\s+");
        long permitted = 0;
        long reached = 0;
        long avoided = 0;
        long successesRejected = 0;
        for (int i = 0; i < in.length; i++) {
            boolean failure = in[i].endsWith(",F]");
            if (out[i].equals("rejected")) {
                if (failure) {
                    avoided++;
                } else {
                    successesRejected++;
                }
            } else {
                permitted++;
                if (failure) {
                    reached++;
                }
            }
        }
        return List.of((long) in.length, permitted, in.length - permitted, reached, avoided, successesRejected);
    }

    static List<Long> counts(Summary s) {
        return List.of(
                s.calls(),
                s.permitted(),
                s.rejected(),
                s.failuresReached(),
                s.failuresAvoided(),
                s.successesRejected());
    }

    static List<String> transitions(Summary s) {
        List<String> list = new ArrayList<>();
        for (Transition t : s.transitions()) {
            list.add(Millis.format(t.atNanos()) + " " + t.from() + " -> " + t.to());
        }
        return list;
    }
}
