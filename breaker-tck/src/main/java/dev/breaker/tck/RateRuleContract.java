package dev.breaker.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.breaker.Ticker;
import dev.breaker.spi.Window;
import dev.breaker.spi.WindowCounts;
import dev.breaker.spi.WindowFactory;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * SPEC rule 8 as the kit itself reads it, for a rate window recorded by one thread while time
 * stands still: after each outcome the window trips exactly when it holds at least
 * {@code minimumCalls} outcomes and its failure rate, or its slow-call rate, is at or above the
 * threshold; a slow call counts toward the slow-call rate whether it failed or not (rule 9).
 * Unlike {@link WindowContract}, whose oracle the author writes (and can get wrong the same way as
 * the window), the kit computes the answers here, with each threshold taken as the decimal it is
 * written as ({@code 0.3} is three tenths, so 3 failures of 10 trip it) and compared in exact
 * arithmetic. Thresholds that binary doubles cannot hold ({@code 0.1}, {@code 0.3}, {@code 0.55})
 * are among those tried, at the counts where a comparison in doubles goes wrong, as are slow
 * failures and slow successes.
 *
 * <p>The subclass makes windows of a given rule; a window that keeps the last N outcomes (a count
 * window) says so with {@link #keepsTheLast()}, one that keeps every outcome while time stands
 * still (a time window with a frozen ticker) does not.
 *
 * <p>Since contract version 7 ({@link TckVersion}).
 */
public abstract class RateRuleContract {

    /** For subclasses. */
    protected RateRuleContract() {}

    /**
     * A window of this rule, recording with {@link #ticker()}.
     *
     * @param failureRateThreshold the failure-rate threshold, in (0, 1]
     * @param slowCallRateThreshold the slow-call-rate threshold, in (0, 1]
     * @param minimumCalls the minimum of calls, at least 1
     * @param size for a window that keeps the last N outcomes, N (at least {@code minimumCalls});
     *     ignored by one that keeps every outcome while time stands still
     * @return the factory
     */
    protected abstract WindowFactory window(
            double failureRateThreshold, double slowCallRateThreshold, int minimumCalls, int size);

    /**
     * Whether the window keeps only the last {@code size} outcomes (a count window); false for
     * one that keeps every outcome recorded while time stands still.
     *
     * @return true for a window of the last N outcomes
     */
    protected abstract boolean keepsTheLast();

    /**
     * The ticker the windows are made with; it must stand still.
     *
     * @return the ticker
     */
    protected Ticker ticker() {
        return () -> 0L;
    }

    /** Thresholds tried: some exact in binary, most not. */
    private static final double[] RATES = {0.1, 0.25, 0.3, 1.0 / 3, 0.35, 0.5, 0.55, 0.7, 0.9, 1.0};

    /**
     * Random rules and outcomes, one recording thread: every answer and the counts after every
     * outcome are those the SPEC gives.
     *
     * @param rule the rule
     * @param outcomes the outcomes, in order
     */
    @Property(tries = 300)
    public void everyAnswerIsTheSpecsRule(
            @ForAll("rules") Rule rule, @ForAll("outcomes") List<WindowContract.Recorded> outcomes) {
        check(rule, outcomes);
    }

    /**
     * At exactly the threshold it trips, one failure fewer it does not, for thresholds binary
     * doubles cannot hold: 3 failures of 10 at 0.3, 7 of 10 at 0.7, 1 of 10 at 0.1, 7 of 20 at
     * 0.35, 55 of 100 at 0.55 (where {@code 0.55 * 100} is 55.00000000000001 in doubles, so a
     * window that multiplies the threshold by the calls misses it), and the same for slow calls.
     */
    @Example
    public void exactlyAtAThresholdThatIsNotExactInBinaryTrips() {
        int[][] cases = {{10, 3}, {10, 7}, {10, 1}, {20, 7}, {100, 55}};
        double[] rates = {0.3, 0.7, 0.1, 0.35, 0.55};
        for (int i = 0; i < cases.length; i++) {
            int calls = cases[i][0];
            int bad = cases[i][1];
            for (boolean slow : new boolean[] {false, true}) {
                Rule rule = slow ? new Rule(1.0, rates[i], calls, calls) : new Rule(rates[i], 1.0, calls, calls);
                for (int fewer = 0; fewer <= 1; fewer++) {
                    List<WindowContract.Recorded> outcomes = new ArrayList<>();
                    for (int k = 0; k < calls - bad + fewer; k++) {
                        outcomes.add(new WindowContract.Recorded(false, false));
                    }
                    for (int k = 0; k < bad - fewer; k++) {
                        outcomes.add(new WindowContract.Recorded(!slow, slow));
                    }
                    check(rule, outcomes);
                }
            }
        }
    }

    private void check(Rule rule, List<WindowContract.Recorded> outcomes) {
        Window w = window(rule.failureRate(), rule.slowRate(), rule.minimumCalls(), rule.size())
                .create(ticker());
        List<WindowContract.Recorded> so = new ArrayList<>();
        for (WindowContract.Recorded r : outcomes) {
            so.add(r);
            boolean answer = w.record(r.failure(), r.slow());
            WindowCounts expected = counts(rule, so);
            assertEquals(
                    trips(rule, expected),
                    answer,
                    rule + ", after " + so.size() + " outcomes (" + expected + "): the SPEC's answer");
            assertEquals(expected, w.counts(), rule + ", after " + so.size() + " outcomes");
        }
    }

    private WindowCounts counts(Rule rule, List<WindowContract.Recorded> outcomes) {
        List<WindowContract.Recorded> held = keepsTheLast()
                ? outcomes.subList(Math.max(0, outcomes.size() - rule.size()), outcomes.size())
                : outcomes;
        long failures = held.stream().filter(WindowContract.Recorded::failure).count();
        long slow = held.stream().filter(WindowContract.Recorded::slow).count();
        return new WindowCounts(held.size(), failures, slow);
    }

    /** Rule 8 in exact decimals: {@code bad / calls >= threshold}, as {@code bad >= threshold * calls}. */
    private static boolean trips(Rule rule, WindowCounts c) {
        if (c.calls() < rule.minimumCalls() || c.calls() == 0) {
            return false;
        }
        BigDecimal calls = BigDecimal.valueOf(c.calls());
        return BigDecimal.valueOf(c.failures())
                                .compareTo(decimal(rule.failureRate()).multiply(calls))
                        >= 0
                || BigDecimal.valueOf(c.slowCalls())
                                .compareTo(decimal(rule.slowRate()).multiply(calls))
                        >= 0;
    }

    /** The decimal a threshold is written as: {@code 0.3} is three tenths, not the double nearest it. */
    private static BigDecimal decimal(double threshold) {
        return new BigDecimal(Double.toString(threshold));
    }

    /**
     * A rule: thresholds, minimum calls, and the size of a window of the last N outcomes.
     *
     * @param failureRate the failure-rate threshold
     * @param slowRate the slow-call-rate threshold
     * @param minimumCalls the minimum of calls
     * @param size the size, for a window of the last N outcomes
     */
    public record Rule(double failureRate, double slowRate, int minimumCalls, int size) {}

    /**
     * Rules to try.
     *
     * @return rules
     */
    @Provide
    public Arbitrary<Rule> rules() {
        Arbitrary<Double> rate = Arbitraries.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9).map(i -> RATES[i]);
        Arbitrary<Integer> size = Arbitraries.integers().between(1, 30);
        return Combinators.combine(rate, rate, size, Arbitraries.integers().between(1, 30))
                .as((f, s, n, m) -> new Rule(f, s, Math.min(m, n), n));
    }

    /**
     * Outcomes to record: a few percent to most of them failed, slow, or both.
     *
     * @return lists of outcomes
     */
    @Provide
    public Arbitrary<List<WindowContract.Recorded>> outcomes() {
        Arbitrary<WindowContract.Recorded> one = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(5, Arbitraries.just(new WindowContract.Recorded(false, false))),
                net.jqwik.api.Tuple.of(2, Arbitraries.just(new WindowContract.Recorded(true, false))),
                net.jqwik.api.Tuple.of(2, Arbitraries.just(new WindowContract.Recorded(false, true))),
                net.jqwik.api.Tuple.of(1, Arbitraries.just(new WindowContract.Recorded(true, true))));
        return one.list().ofMinSize(1).ofMaxSize(60);
    }
}
