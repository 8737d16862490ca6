package dev.breaker;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs a trace in the SPEC's replay notation: each call {@code [t, ok]} asks for a permit at t
 * and, if granted, reports ok or fail at the same t. Time unit: one {@code unitNanos} per unit of t.
 */
final class Replay {

    /** One call of a trace. */
    record Call(double t, boolean ok) {}

    static final long MILLI = 1_000_000L;

    private Replay() {}

    static List<String> run(int threshold, long cooldownUnits, long unitNanos, long tickerOffset, List<Call> calls) {
        FakeTicker ticker = new FakeTicker(tickerOffset);
        CircuitBreaker breaker = CircuitBreaker.builder("replay")
                .window(Windows.consecutiveFailures(threshold))
                .cooldown(Duration.ofNanos(cooldownUnits * unitNanos))
                .probes(1)
                .ticker(ticker)
                .build();
        List<String> out = new ArrayList<>();
        for (Call c : calls) {
            ticker.set(tickerOffset + Math.round(c.t() * unitNanos));
            Permit permit = breaker.tryAcquire();
            if (!permit.granted()) {
                out.add("rejected");
            } else if (c.ok()) {
                permit.onSuccess(0);
                out.add("ok");
            } else {
                permit.onFailure(0, null);
                out.add("fail");
            }
        }
        return out;
    }

    static Call ok(double t) {
        return new Call(t, true);
    }

    static Call fail(double t) {
        return new Call(t, false);
    }
}
