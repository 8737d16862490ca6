package dev.breaker.halfopen;

import static dev.breaker.halfopen.Breakers.failAt;
import static dev.breaker.halfopen.Breakers.openExactly;
import static dev.breaker.halfopen.ManualTicker.MILLI;
import static dev.breaker.halfopen.ManualTicker.SECOND;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breaker.CircuitBreaker;
import dev.breaker.Permit;
import dev.breaker.State;
import dev.breaker.spi.HalfOpenPolicy;
import dev.breaker.spi.HalfOpenPolicy.Verdict;
import java.math.BigDecimal;
import java.math.MathContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Scale;
import net.jqwik.api.constraints.Size;

/** Rules 14 to 16 for any settings: the policy's arithmetic, its verdicts, and the breaker's calm period and ramp. */
class PolicyPropertiesTests {

    private static final MathContext EXACT = new MathContext(50);

    // ---------------------------------------------------------------- rule 14: cooldowns

    /**
     * Without jitter, the k-th cooldown is min(initial * multiplier^(k-1), max) within 1 ns (whole
     * nanoseconds), never above max, and never shorter than the one before.
     */
    @Property(tries = 300)
    void cooldownIsTheCappedPowerAndNonDecreasing(
            @ForAll @LongRange(min = 0, max = 3_600_000_000_000L) long initial,
            @ForAll("multipliers") double multiplier,
            @ForAll @LongRange(min = 0, max = 86_400_000_000_000L) long extra) {
        long max = initial + extra;
        HalfOpenPolicy p = ExponentialPolicy.builder()
                .initial(Duration.ofNanos(initial))
                .multiplier(multiplier)
                .max(Duration.ofNanos(max))
                .build();
        long previous = 0;
        BigDecimal power = BigDecimal.ONE;
        BigDecimal m = new BigDecimal(multiplier);
        for (int k = 1; k <= 120; k++) {
            long c = p.cooldownNanos(k);
            BigDecimal exact = new BigDecimal(initial).multiply(power).min(new BigDecimal(max));
            assertTrue(
                    new BigDecimal(c).subtract(exact).abs().compareTo(BigDecimal.ONE) <= 0,
                    "k=" + k + ": " + c + " vs " + exact);
            assertTrue(c <= max, "k=" + k + ": above max");
            assertTrue(c >= previous, "k=" + k + ": " + c + " after " + previous);
            previous = c;
            power = power.multiply(m, EXACT);
        }
        long last = p.cooldownNanos(Integer.MAX_VALUE);
        assertTrue(last >= previous && last <= max);
        if (multiplier >= 1.001 && initial > 0) { // 1.001^(2^31 - 1) overflows a double
            assertEquals(max, last, "the cap, for a huge count");
        }
    }

    /** With jitter j and a random r in [0, 1), each cooldown is in [w * (1 - j), w] (to the nanosecond below). */
    @Property(tries = 500)
    void jitteredCooldownStaysInItsRange(
            @ForAll @LongRange(min = 0, max = 3_600_000_000_000L) long initial,
            @ForAll("multipliers") double multiplier,
            @ForAll @DoubleRange(min = 0, max = 1, maxIncluded = false) @Scale(6) double jitter,
            @ForAll("draws") double r,
            @ForAll @IntRange(min = 1, max = 60) int k) {
        ExponentialPolicy.Builder b = ExponentialPolicy.builder()
                .initial(Duration.ofNanos(initial))
                .multiplier(multiplier)
                .max(Duration.ofNanos(initial + 86_400_000_000_000L));
        long w = b.build().cooldownNanos(k);
        long c = b.jitter(jitter).random(() -> r).build().cooldownNanos(k);
        BigDecimal low = new BigDecimal(w).multiply(BigDecimal.ONE.subtract(new BigDecimal(jitter)));
        assertTrue(c <= w, c + " > " + w);
        assertTrue(new BigDecimal(c).compareTo(low.subtract(BigDecimal.ONE)) > 0, c + " below " + low);
    }

    @Provide
    Arbitrary<Double> multipliers() {
        return Arbitraries.oneOf(
                Arbitraries.of(1.0, 1.5, 2.0, 3.0, 10.0, Math.nextUp(1.0)),
                Arbitraries.doubles().between(1.0, 10.0).ofScale(6));
    }

    @Provide
    Arbitrary<Double> draws() {
        return Arbitraries.oneOf(
                Arbitraries.of(0.0, 0.5, Math.nextDown(1.0)),
                Arbitraries.doubles().between(0, true, 1, false).ofScale(12));
    }

    // ---------------------------------------------------------------- rule 15: verdicts

    /**
     * For any N, k <= N and outcomes: CLOSE exactly when successes >= k, OPEN exactly when
     * failures > N - k, else WAIT; never WAIT once N have reported; whatever the opening count.
     */
    @Property(tries = 300)
    void decideAnswersExactlyAsRule15Says(
            @ForAll @IntRange(min = 1, max = 40) int n,
            @ForAll @IntRange(min = 0, max = 1000) int kSeed,
            @ForAll @IntRange(min = 1, max = 1000) int opens) {
        int k = 1 + kSeed % n;
        HalfOpenPolicy p = ExponentialPolicy.builder().probes(n).closeAfter(k).build();
        assertEquals(n, p.probes(opens));
        for (int s = 0; s <= n; s++) {
            for (int f = 0; s + f <= n; f++) {
                Verdict expected = s >= k ? Verdict.CLOSE : f > n - k ? Verdict.OPEN : Verdict.WAIT;
                Verdict v = p.decide(opens, s, f);
                assertEquals(expected, v, "N=" + n + " k=" + k + " s=" + s + " f=" + f);
                if (s + f == n) {
                    assertTrue(v != Verdict.WAIT, "N reported: a decision");
                }
            }
        }
    }

    /**
     * Through a breaker: N probes granted, their outcomes reported in a random order; the state
     * after each report follows rule 15, and the reports after the decision are late.
     */
    @Property(tries = 200)
    void roundsCloseAndReopenAtTheDecidingProbe(
            @ForAll @IntRange(min = 1, max = 12) int n,
            @ForAll @IntRange(min = 0, max = 1000) int kSeed,
            @ForAll @Size(max = 12) List<Boolean> outcomes,
            @ForAll("origins") long origin) {
        int k = 1 + kSeed % n;
        ManualTicker ticker = new ManualTicker(origin);
        HalfOpenPolicy p = ExponentialPolicy.builder()
                .initial(Duration.ofSeconds(1))
                .multiplier(1)
                .probes(n)
                .closeAfter(k)
                .build();
        CircuitBreaker b = Breakers.breaker(p, ticker, 1);
        failAt(b, ticker, 0);
        ticker.at(SECOND);
        List<Permit> permits = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Permit permit = b.tryAcquire();
            assertTrue(permit.granted(), "probe " + (i + 1) + " of " + n);
            permits.add(permit);
        }
        assertTrue(!b.tryAcquire().granted(), "N + 1");
        int s = 0;
        int f = 0;
        State decided = null;
        int late = 0;
        for (int i = 0; i < n; i++) {
            boolean ok = i < outcomes.size() ? outcomes.get(i) : i % 2 == 0;
            if (ok) {
                permits.get(i).onSuccess(0);
            } else {
                permits.get(i).onFailure(0, new IllegalStateException("down"));
            }
            if (decided != null) {
                late++;
                assertEquals(decided, b.state(), "a late report decides nothing");
                continue;
            }
            if (ok) {
                s++;
            } else {
                f++;
            }
            State expected = s >= k ? State.CLOSED : f > n - k ? State.OPEN : State.HALF_OPEN;
            assertEquals(expected, b.state(), "N=" + n + " k=" + k + " after s=" + s + " f=" + f);
            if (expected != State.HALF_OPEN) {
                decided = expected;
            }
        }
        assertTrue(decided != null, "every probe reported: decided");
        assertEquals(late, b.metrics().lateResults());
    }

    // ---------------------------------------------------------------- rule 14: calm period

    /**
     * Random calm period, random failed rounds and random CLOSED durations (often at the calm
     * period's edge): each trip is the 1st consecutive opening when the calm period is 0 or the
     * breaker stayed CLOSED at least that long since it entered CLOSED, otherwise one more than
     * the count it closed with; every cooldown is exactly the policy's for that count.
     */
    @Property(tries = 150)
    void countStartsOverOnlyAfterTheCalmPeriod(
            @ForAll("calmPeriods") long calm,
            @ForAll("cycles") List<Tuple.Tuple2<Integer, Integer>> cycles,
            @ForAll @LongRange(min = 0, max = 200_000_000_000L) long randomClosed,
            @ForAll("origins") long origin) {
        ManualTicker ticker = new ManualTicker(origin);
        HalfOpenPolicy p = ExponentialPolicy.builder()
                .initial(Duration.ofMillis(1))
                .multiplier(2)
                .max(Duration.ofMinutes(10))
                .calmPeriod(Duration.ofNanos(calm))
                .build();
        CircuitBreaker b = Breakers.breaker(p, ticker, 1);
        long t = 0;
        int count = 0;
        long closedAt = 0;
        for (Tuple.Tuple2<Integer, Integer> cycle : cycles) {
            long closedFor = switch (cycle.get2()) {
                case 0 -> Math.max(0, calm - 1);
                case 1 -> calm;
                case 2 -> calm + 1;
                default -> randomClosed % (3 * calm + 2);
            };
            t = closedAt + closedFor;
            boolean calmed = calm == 0 || closedFor >= calm;
            count = calmed ? 1 : count + 1;
            failAt(b, ticker, t);
            for (int failed = 0; failed < cycle.get1(); failed++) {
                long c = expectedCooldown(count);
                Permit probe = openExactly(b, ticker, t, c);
                t += c;
                probe.onFailure(0, new IllegalStateException("down"));
                count++;
            }
            long c = expectedCooldown(count);
            openExactly(b, ticker, t, c).onSuccess(0);
            t += c;
            closedAt = t;
            assertEquals(State.CLOSED, b.state());
        }
    }

    private static long expectedCooldown(int count) {
        return count > 20 ? 10 * 60 * SECOND : Math.min(MILLI << (count - 1), 10 * 60 * SECOND);
    }

    @Provide
    Arbitrary<Long> calmPeriods() {
        return Arbitraries.oneOf(Arbitraries.just(0L), Arbitraries.longs().between(1, 100 * SECOND));
    }

    /** (failed rounds before the close, how long the breaker then stays CLOSED: calm-1, calm, calm+1, random). */
    @Provide
    Arbitrary<List<Tuple.Tuple2<Integer, Integer>>> cycles() {
        return Combinators.combine(
                        Arbitraries.integers().between(0, 2),
                        Arbitraries.integers().between(0, 3))
                .as(Tuple::of)
                .list()
                .ofMinSize(1)
                .ofMaxSize(10);
    }

    @Provide
    Arbitrary<Long> origins() {
        return Arbitraries.oneOf(Arbitraries.of(0L, -7L, Long.MAX_VALUE - SECOND, Long.MIN_VALUE), Arbitraries.longs());
    }

    // ---------------------------------------------------------------- rule 16: ramp

    /** The policy's share is s0 + (1 - s0) * elapsed / R, in (0, 1], non-decreasing over the ramp. */
    @Property(tries = 300)
    void rampShareFollowsTheFormula(
            @ForAll @DoubleRange(min = 0, max = 1, minIncluded = false) @Scale(9) double rampFrom,
            @ForAll @LongRange(min = 1, max = 100_000_000_000L) long rampNanos,
            @ForAll @Size(min = 1, max = 20) List<@LongRange(min = 0, max = Long.MAX_VALUE) Long> draws) {
        HalfOpenPolicy p = ExponentialPolicy.builder()
                .rampUp(Duration.ofNanos(rampNanos))
                .rampFrom(rampFrom)
                .build();
        assertEquals(rampNanos, p.rampUpNanos());
        List<Long> times = new ArrayList<>();
        for (long d : draws) {
            times.add(d % rampNanos);
        }
        times.sort(null);
        double previous = 0;
        ShareSum spec = new ShareSum(rampFrom, rampNanos);
        for (long e : times) {
            double share = p.rampShare(e);
            assertTrue(share > 0 && share <= 1, "share " + share);
            assertTrue(share >= previous, "non-decreasing");
            assertTrue(
                    new BigDecimal(share).subtract(spec.share(e)).abs().compareTo(new BigDecimal("1e-12")) < 0,
                    "s(" + e + ") = " + share + ", the formula " + spec.share(e));
            previous = share;
        }
    }

    /**
     * A ramp with random s0, R and request times: after every request the number admitted differs
     * from the sum of the shares by less than one call.
     */
    @Property(tries = 300)
    void admittedStaysWithinOneCallOfTheSharesSum(
            @ForAll @DoubleRange(min = 0, max = 1, minIncluded = false) @Scale(9) double rampFrom,
            @ForAll @LongRange(min = 1_000_000, max = 100_000_000_000L) long rampNanos,
            @ForAll @Size(min = 1, max = 300) List<@LongRange(min = 1, max = Long.MAX_VALUE) Long> draws,
            @ForAll("origins") long origin) {
        ManualTicker ticker = new ManualTicker(origin);
        HalfOpenPolicy p = ExponentialPolicy.builder()
                .initial(Duration.ofSeconds(1))
                .rampUp(Duration.ofNanos(rampNanos))
                .rampFrom(rampFrom)
                .build();
        CircuitBreaker b = Breakers.breaker(p, ticker, 1);
        failAt(b, ticker, 0);
        ticker.at(SECOND);
        b.tryAcquire().onSuccess(0);
        assertEquals(State.CLOSED, b.state());
        List<Long> times = new ArrayList<>();
        for (long d : draws) {
            times.add(1 + d % (rampNanos - 1)); // within the ramp, after its first instant
        }
        times.sort(null);
        ShareSum spec = new ShareSum(rampFrom, rampNanos);
        long admitted = 0;
        for (long e : times) {
            ticker.at(SECOND + e);
            spec.request(e);
            if (b.tryAcquire().granted()) {
                admitted++;
            }
            BigDecimal gap = spec.sum().subtract(BigDecimal.valueOf(admitted)).abs();
            assertTrue(gap.compareTo(BigDecimal.ONE) < 0, "admitted " + admitted + ", shares' sum " + spec.sum());
        }
        assertEquals(times.size() - admitted, b.metrics().rejectedCalls());
    }
}
