package dev.breaker;

import dev.breaker.spi.HalfOpenPolicy;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntToLongFunction;
import java.util.function.IntUnaryOperator;
import java.util.function.LongToDoubleFunction;

/**
 * A half-open policy made of functions the test sets, for tests of the core's side of the SPI:
 * by default one probe per round, a cooldown of 10 ns times the opening (so the count shows),
 * closing on the first success and opening on the first failure, no calm period, no ramp. It
 * records the openings it was asked a cooldown for and counts the ramp shares it was asked.
 */
class FunctionPolicy implements HalfOpenPolicy {

    /** The cooldown per opening, by default. */
    static final long COOLDOWN = 10;

    IntUnaryOperator probes = k -> 1;
    IntToLongFunction cooldown = k -> COOLDOWN * k;
    /** Successes that close round k (the first failure opens it). */
    IntUnaryOperator closeAfter = k -> 1;

    long calm;
    long ramp;
    LongToDoubleFunction share = e -> 1.0;
    final AtomicInteger sharesAsked = new AtomicInteger();
    final List<Integer> cooldownsAsked = Collections.synchronizedList(new ArrayList<>());

    @Override
    public long cooldownNanos(int consecutiveOpens) {
        cooldownsAsked.add(consecutiveOpens);
        return cooldown.applyAsLong(consecutiveOpens);
    }

    @Override
    public int probes(int consecutiveOpens) {
        return probes.applyAsInt(consecutiveOpens);
    }

    @Override
    public Verdict decide(int consecutiveOpens, int successes, int failures) {
        if (failures > 0) {
            return Verdict.OPEN;
        }
        return successes >= closeAfter.applyAsInt(consecutiveOpens) ? Verdict.CLOSE : Verdict.WAIT;
    }

    @Override
    public long calmPeriodNanos() {
        return calm;
    }

    @Override
    public long rampUpNanos() {
        return ramp;
    }

    @Override
    public double rampShare(long elapsedNanos) {
        sharesAsked.incrementAndGet();
        return share.applyAsDouble(elapsedNanos);
    }
}
