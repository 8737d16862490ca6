package dev.breaker.replay;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * An independent model of the SPEC for the simple cases, written from its rules, not from the
 * library: a consecutive window (rule 7) or a count window of the last {@code size} outcomes with
 * a failure-rate threshold and minimum calls (rule 8), a fixed cooldown (rules 1 and 2), and N
 * probes that must all succeed (one failure reopens). Calls are reported at the time they are
 * asked for, so a round's probes come one after another. No slow calls.
 */
final class SimpleModel {

    private final int threshold; // consecutive: failures in a row; count: 0
    private final int size;
    private final double rate;
    private final int minimumCalls;
    private final long cooldownNanos;
    private final int probes;

    private String state = "CLOSED";
    private int inARow;
    private final ArrayDeque<Boolean> window = new ArrayDeque<>();
    private long openedAt;
    private int probeSuccesses;

    long calls;
    long permitted;
    long reached;
    long avoided;
    long successesRejected;
    final List<String> transitions = new ArrayList<>();

    private SimpleModel(int threshold, int size, double rate, int minimumCalls, long cooldownNanos, int probes) {
        this.threshold = threshold;
        this.size = size;
        this.rate = rate;
        this.minimumCalls = minimumCalls;
        this.cooldownNanos = cooldownNanos;
        this.probes = probes;
    }

    static SimpleModel consecutive(int threshold, long cooldownNanos, int probes) {
        return new SimpleModel(threshold, 0, 0, 0, cooldownNanos, probes);
    }

    static SimpleModel count(int size, double rate, int minimumCalls, long cooldownNanos, int probes) {
        return new SimpleModel(0, size, rate, minimumCalls, cooldownNanos, probes);
    }

    void call(long t, TraceOutcome outcome) {
        calls++;
        boolean failure = outcome == TraceOutcome.FAILURE;
        if (state.equals("OPEN") && t - openedAt >= cooldownNanos) {
            move(t, "HALF_OPEN");
            probeSuccesses = 0;
        }
        if (state.equals("OPEN")) {
            if (failure) {
                avoided++;
            } else if (outcome == TraceOutcome.SUCCESS) {
                successesRejected++;
            }
            return;
        }
        permitted++;
        if (failure) {
            reached++;
        }
        if (outcome == TraceOutcome.IGNORED) {
            return;
        }
        if (state.equals("HALF_OPEN")) {
            if (failure) {
                move(t, "OPEN");
                openedAt = t;
            } else if (++probeSuccesses == probes) {
                move(t, "CLOSED");
                inARow = 0;
                window.clear();
            }
            return;
        }
        if (trips(failure)) {
            move(t, "OPEN");
            openedAt = t;
        }
    }

    private boolean trips(boolean failure) {
        if (threshold > 0) {
            inARow = failure ? inARow + 1 : 0;
            return inARow >= threshold;
        }
        window.addLast(failure);
        if (window.size() > size) {
            window.removeFirst();
        }
        long failures = window.stream().filter(f -> f).count();
        return window.size() >= minimumCalls && (double) failures / window.size() >= rate;
    }

    private void move(long t, String to) {
        transitions.add(Millis.format(t) + " " + state + " -> " + to);
        state = to;
    }

    List<Long> counts() {
        return List.of(calls, permitted, calls - permitted, reached, avoided, successesRejected);
    }

    static SimpleModel run(Path trace, SimpleModel model) throws Exception {
        try (BufferedReader in = Files.newBufferedReader(trace)) {
            TraceReader reader = new TraceReader(in, trace.getFileName().toString());
            while (reader.next()) {
                model.call(reader.timeNanos(), reader.outcome());
            }
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        return model;
    }
}
