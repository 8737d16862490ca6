package dev.breaker.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breaker.CircuitBreaker;
import dev.breaker.Permit;
import dev.breaker.State;
import dev.breaker.Windows;
import dev.breaker.spi.HalfOpenPolicy;
import dev.breaker.spi.HalfOpenPolicy.Verdict;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * The contract every {@link HalfOpenPolicy} keeps, as one abstract test class that each
 * implementation extends. Shipped in {@code breaker-tck}; the built-in fixed policy and
 * {@code breaker-halfopen}'s exponential policy pass it.
 *
 * <p>What it holds a policy to (SPEC rules 3, 14 to 16, and the SPI's javadoc):
 * <ul>
 * <li>every round grants at least one probe and every cooldown is at least 0, for any count of
 *     consecutive openings, also absurd ones;</li>
 * <li>{@code decide} never answers null; a round closes only on a success and opens only on a
 *     failure; a round where every probe succeeds closes and one where every probe fails opens;
 *     and a decision that is certain is taken at once: never {@code WAIT} once every probe of
 *     the round has reported;</li>
 * <li>the calm period and the ramp are not negative and do not change; a ramp's shares are in
 *     (0, 1];</li>
 * <li>answers are safe to ask from many threads at once (the same verdicts as from one);</li>
 * <li>through a real breaker: a round grants exactly {@code probes(k)} permits however many
 *     threads ask at once, and ends as the policy decides.</li>
 * </ul>
 */
public abstract class HalfOpenPolicyContract {

    /** For subclasses. */
    protected HalfOpenPolicyContract() {}

    /**
     * The policy under test; called once per check.
     *
     * @return the policy
     */
    protected abstract HalfOpenPolicy policy();

    /**
     * The consecutive openings the checks go up to (and a few absurd counts beyond).
     *
     * @return at least 1
     */
    protected int openingsChecked() {
        return 40;
    }

    private List<Integer> openings() {
        List<Integer> ks = new ArrayList<>();
        for (int k = 1; k <= openingsChecked(); k++) {
            ks.add(k);
        }
        ks.add(1_000);
        ks.add(Integer.MAX_VALUE);
        return ks;
    }

    /** Every round grants a probe and every cooldown is at least 0. */
    @Test
    public void everyRoundHasAProbeAndEveryCooldownIsNotNegative() {
        HalfOpenPolicy p = policy();
        for (int k : openings()) {
            assertTrue(p.probes(k) >= 1, "probes(" + k + ") must be >= 1, was " + p.probes(k));
            long cooldown = p.cooldownNanos(k);
            assertTrue(cooldown >= 0, "cooldownNanos(" + k + ") must be >= 0, was " + cooldown);
        }
    }

    /** The verdict of every reachable point of every round is sane and certain decisions are taken at once. */
    @Test
    public void everyRoundIsJudgedSanelyAndEndsWhenEveryProbeHasReported() {
        HalfOpenPolicy p = policy();
        for (int k : openings()) {
            int n = Math.min(p.probes(k), 64);
            for (int successes = 0; successes <= n; successes++) {
                for (int failures = 0; successes + failures <= n; failures++) {
                    if (successes + failures == 0) {
                        continue;
                    }
                    Verdict v = p.decide(k, successes, failures);
                    String at = "decide(" + k + ", " + successes + ", " + failures + ") with probes " + n;
                    assertNotNull(v, at + " answered null");
                    if (v == Verdict.CLOSE) {
                        assertTrue(successes > 0, at + " closed without a success");
                    }
                    if (v == Verdict.OPEN) {
                        assertTrue(failures > 0, at + " opened without a failure");
                    }
                    if (successes + failures == n && n == p.probes(k)) {
                        assertNotEquals(Verdict.WAIT, v, at + ": every probe reported, the round must end");
                    }
                }
            }
            int all = p.probes(k);
            if (all <= 64) {
                assertEquals(Verdict.CLOSE, firstDecision(p, k, all, true), "every probe succeeded, round " + k);
                assertEquals(Verdict.OPEN, firstDecision(p, k, all, false), "every probe failed, round " + k);
            }
        }
    }

    private static Verdict firstDecision(HalfOpenPolicy p, int k, int probes, boolean succeed) {
        for (int i = 1; i <= probes; i++) {
            Verdict v = succeed ? p.decide(k, i, 0) : p.decide(k, 0, i);
            if (v != Verdict.WAIT) {
                return v;
            }
        }
        return Verdict.WAIT;
    }

    /**
     * Any order of probe outcomes reaches a decision by the last probe, and the decision agrees
     * with the outcomes (a close needs a success, an opening a failure).
     *
     * @param k        the round
     * @param outcomes the round's outcomes in order, true for a success
     */
    @Property(tries = 200)
    public void anyOrderOfOutcomesIsDecidedByTheLastProbe(
            @ForAll("rounds") int k, @ForAll("outcomes") List<Boolean> outcomes) {
        HalfOpenPolicy p = policy();
        int n = p.probes(k);
        int successes = 0;
        int failures = 0;
        Verdict v = Verdict.WAIT;
        for (int i = 0; i < Math.min(n, outcomes.size()) && v == Verdict.WAIT; i++) {
            if (outcomes.get(i)) {
                successes++;
            } else {
                failures++;
            }
            v = p.decide(k, successes, failures);
            assertNotNull(v);
        }
        if (outcomes.size() >= n) {
            assertNotEquals(Verdict.WAIT, v, "round " + k + " undecided after all " + n + " probes: " + outcomes);
        }
    }

    /**
     * The rounds to check.
     *
     * @return rounds to check
     */
    @Provide
    public Arbitrary<Integer> rounds() {
        return Arbitraries.integers().between(1, Math.max(1, openingsChecked()));
    }

    /**
     * The probes' outcomes to try.
     *
     * @return outcome sequences
     */
    @Provide
    public Arbitrary<List<Boolean>> outcomes() {
        return Arbitraries.of(true, false).list().ofMinSize(0).ofMaxSize(70);
    }

    /** The calm period and the ramp are not negative, stay what they are, and the ramp's shares are in (0, 1]. */
    @Test
    public void calmPeriodAndRampAreSaneAndStable() {
        HalfOpenPolicy p = policy();
        long calm = p.calmPeriodNanos();
        long ramp = p.rampUpNanos();
        assertTrue(calm >= 0, "calmPeriodNanos() must be >= 0, was " + calm);
        assertTrue(ramp >= 0, "rampUpNanos() must be >= 0, was " + ramp);
        assertEquals(calm, p.calmPeriodNanos(), "calmPeriodNanos() changed");
        assertEquals(ramp, p.rampUpNanos(), "rampUpNanos() changed");
        if (ramp > 0) {
            for (int i = 0; i <= 1000; i++) {
                long elapsed = Math.min(ramp - 1, ramp / 1000 * i);
                double share = p.rampShare(elapsed);
                assertTrue(share > 0 && share <= 1, "rampShare(" + elapsed + ") must be in (0, 1], was " + share);
            }
        }
    }

    /**
     * Many threads asking at once get the answers one thread gets (cooldowns, which may be
     * random, only their range).
     *
     * @throws Exception when a thread fails
     */
    @Test
    public void answersAreTheSameFromManyThreadsAtOnce() throws Exception {
        HalfOpenPolicy p = policy();
        int threads = 8;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CyclicBarrier start = new CyclicBarrier(threads);
            List<Future<String>> answers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                answers.add(pool.submit(() -> {
                    start.await(10, TimeUnit.SECONDS);
                    StringBuilder b = new StringBuilder();
                    for (int k = 1; k <= Math.min(openingsChecked(), 12); k++) {
                        int n = Math.min(p.probes(k), 16);
                        b.append(n).append(':');
                        for (int s = 0; s <= n; s++) {
                            for (int f = 0; s + f <= n; f++) {
                                if (s + f > 0) {
                                    b.append(p.decide(k, s, f).ordinal());
                                }
                            }
                        }
                        long c = p.cooldownNanos(k);
                        if (c < 0) {
                            b.append("negative cooldown ").append(c);
                        }
                        b.append(';');
                    }
                    return b.toString();
                }));
            }
            String first = answers.get(0).get(30, TimeUnit.SECONDS);
            for (Future<String> f : answers) {
                assertEquals(first, f.get(30, TimeUnit.SECONDS));
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** The largest round {@link #aBreakerGrantsExactlyTheRoundsProbesAndObeysTheVerdict} drives. */
    private static final int MAX_PROBES_DRIVEN = 100_000;

    /**
     * Through a breaker (a consecutive window of 1, a ticker the test moves): after a trip and the
     * cooldown, a round grants exactly {@code probes(1)} permits however many threads ask at once,
     * and when they all succeed it closes; the next trip's round ends as the policy decides when
     * they all fail.
     *
     * @throws Exception when a thread fails
     */
    @Test
    public void aBreakerGrantsExactlyTheRoundsProbesAndObeysTheVerdict() throws Exception {
        HalfOpenPolicy p = policy();
        AtomicLong now = new AtomicLong(Long.MAX_VALUE - 1_000); // about to wrap
        CircuitBreaker breaker = CircuitBreaker.builder("contract")
                .window(Windows.consecutiveFailures(1))
                .halfOpen(p)
                .maxHalfOpenDuration(java.time.Duration.ofDays(365))
                .ticker(now::get)
                .build();
        int threads = 8;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            for (int round = 0; round < 2; round++) {
                breaker.tryAcquire().onFailure(0, new IllegalStateException("down"));
                assertEquals(State.OPEN, breaker.state());
                now.addAndGet(Long.MAX_VALUE / 2); // past any first cooldown shorter than 146 years
                int probes = p.probes(1);
                org.junit.jupiter.api.Assumptions.assumeTrue(
                        probes <= MAX_PROBES_DRIVEN,
                        "a round of more than " + MAX_PROBES_DRIVEN + " probes is not driven through a breaker");
                CyclicBarrier start = new CyclicBarrier(threads);
                AtomicInteger granted = new AtomicInteger();
                List<Permit> held = java.util.Collections.synchronizedList(new ArrayList<>());
                List<Future<?>> done = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    done.add(pool.submit(() -> {
                        start.await(10, TimeUnit.SECONDS);
                        for (int i = 0; i < 4 * probes + 4; i++) {
                            Permit permit = breaker.tryAcquire();
                            if (permit.granted()) {
                                granted.incrementAndGet();
                                held.add(permit);
                            }
                        }
                        return null;
                    }));
                }
                for (Future<?> f : done) {
                    f.get(30, TimeUnit.SECONDS);
                }
                assertEquals(probes, granted.get(), "round permits");
                assertEquals(State.HALF_OPEN, breaker.state());
                boolean succeed = round == 0;
                for (Permit permit : held) {
                    if (breaker.state() != State.HALF_OPEN) {
                        break;
                    }
                    if (succeed) {
                        permit.onSuccess(0);
                    } else {
                        permit.onFailure(0, new IllegalStateException("still down"));
                    }
                }
                assertEquals(succeed ? State.CLOSED : State.OPEN, breaker.state(), "after the round");
                breaker.reset();
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
