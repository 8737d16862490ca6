package dev.breaker;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import kotlin.Unit;
import org.jetbrains.kotlinx.lincheck.Actor;
import org.jetbrains.kotlinx.lincheck.DSLScenarioBuilder;
import org.jetbrains.kotlinx.lincheck.DSLThreadScenario;
import org.jetbrains.kotlinx.lincheck.LinCheckerKt;
import org.jetbrains.kotlinx.lincheck.annotations.Operation;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
import org.jetbrains.kotlinx.lincheck.strategy.managed.modelchecking.ModelCheckingOptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * SPEC rule 18 under every interleaving Lincheck's model checker can build: two breakers under a
 * share of 0.5 (a limit of one); breaker {@code a} is tripped, reset and isolated from two
 * threads, then, at rest, {@link #probe} fails {@code a} if it is CLOSED and {@code b} once. Run
 * one operation at a time (this class is its own sequential specification), that always leaves
 * {@code a} holding the one place and {@code b} CLOSED. A place that leaked shows as {@code b}
 * OPEN; a place stuck on a CLOSED {@code a} as {@code a} CLOSED.
 */
@Tag("class-path") // Lincheck instruments classes; it runs on the plain class path
public class CapLincheckTests {

    private static final IllegalStateException DOWN = new IllegalStateException("down");

    private final BreakerRegistry registry = BreakerRegistry.builder()
            .defaults(CircuitBreakerConfig.builder()
                    .window(Windows.consecutiveFailures(1))
                    .cooldown(Duration.ofSeconds(10))
                    .build())
            .maxOpenShare(0.5)
            .ticker(() -> 0)
            .build();
    private final CircuitBreaker a = registry.breaker("a");
    private final CircuitBreaker b = registry.breaker("b");

    /** Lincheck makes one per scenario. */
    public CapLincheckTests() {}

    /**
     * Fails one call of {@code a}, if permitted. Returns nothing: two threads may both hold permits
     * of one CLOSED era, which no sequential order of "acquire and report" explains.
     */
    @Operation
    public void failA() {
        Permit p = a.tryAcquire();
        if (p.granted()) {
            p.onFailure(0, DOWN);
        }
    }

    /** Resets {@code a}. */
    @Operation
    public void resetA() {
        a.reset();
    }

    /** Isolates {@code a}. */
    @Operation
    public void isolateA() {
        a.isolate();
    }

    /** Fails one call of {@code b}, if permitted. */
    @Operation
    public void failB() {
        Permit p = b.tryAcquire();
        if (p.granted()) {
            p.onFailure(0, DOWN);
        }
    }

    /** Removes {@code a} from the registry; whoever holds it goes on using it, outside the cap. */
    @Operation
    public void removeA() {
        registry.remove("a");
    }

    /** Asks for a third breaker, {@code c} (made on first use). */
    @Operation
    public void makeC() {
        registry.breaker("c");
    }

    /** @return the states of {@code a} and {@code b}, as they are */
    @Operation
    public String states() {
        return a.state() + "/" + b.state();
    }

    /**
     * At rest: fails {@code a} once more if it is CLOSED (a trip suppressed while a racing one held
     * a place for a moment is asked again), then {@code b} once.
     *
     * @return both states
     */
    @Operation
    public String probe() {
        if (a.state() == State.CLOSED) {
            failA();
        }
        Permit p = b.tryAcquire();
        if (p.granted()) {
            p.onFailure(0, DOWN);
        }
        return a.state() + "/" + b.state();
    }

    private static ExecutionScenario scenario(List<String> initial, List<List<String>> threads) {
        return scenario(initial, threads, List.of("probe"));
    }

    private static ExecutionScenario scenario(List<String> initial, List<List<String>> threads, List<String> post) {
        DSLScenarioBuilder builder = new DSLScenarioBuilder();
        builder.initial(t -> add(t, initial));
        builder.parallel(p -> {
            for (List<String> ops : threads) {
                p.thread(t -> add(t, ops));
            }
            return Unit.INSTANCE;
        });
        builder.post(t -> add(t, post));
        return builder.buildScenario();
    }

    private static Unit add(DSLThreadScenario thread, List<String> ops) {
        for (String op : ops) {
            try {
                Method m = CapLincheckTests.class.getMethod(op);
                thread.add(new Actor(m, new ArrayList<>(), false, false, false, false));
            } catch (NoSuchMethodException e) {
                throw new IllegalArgumentException(op, e);
            }
        }
        return Unit.INSTANCE;
    }

    private static void check(ExecutionScenario scenario) {
        LinCheckerKt.check(
                new ModelCheckingOptions()
                        .iterations(0)
                        .invocationsPerIteration(300)
                        .addCustomScenario(scenario),
                CapLincheckTests.class);
    }

    /**
     * An isolation takes its place after its compare-and-set, and a reset gives one back after its
     * own. A reset of the CLOSED breaker whose giving back comes after the isolation took its place
     * frees the isolated breaker's place (ISOLATED with none); a reset of the ISOLATED breaker
     * whose giving back comes before the isolation took it leaves a CLOSED breaker holding one.
     */
    @Test
    void anIsolationRacingAResetLeavesNoPlaceOnAClosedBreaker() {
        check(scenario(List.of(), List.of(List.of("isolateA"), List.of("resetA"))));
    }

    /**
     * A reset gives the OPEN era's place back after its compare-and-set; a trip of the new CLOSED
     * era in between finds the place still held, keeps it, and then loses it to the reset: OPEN
     * with no place.
     */
    @Test
    void aTripRightAfterAResetKeepsItsPlace() {
        check(scenario(List.of("failA"), List.of(List.of("resetA"), List.of("failA"))));
    }

    /** A trip that won, a reset and a second trip: the first must not give back the second's place. */
    @Test
    void aTripThatWonDoesNotGiveBackTheNextOnesPlace() {
        check(scenario(List.of(), List.of(List.of("failA"), List.of("resetA", "failA"))));
    }

    /**
     * Two threads make the same new name; both breakers join the cap before one is published and
     * the other leaves. Meanwhile the limit counts four members, {@code floor(0.5 * 4) = 2}, though
     * the registry never holds more than three ({@code floor(0.5 * 3) = 1}): {@code a} and
     * {@code b} may both open, and stay so.
     */
    @Test
    void aBreakerThatLosesTheRaceToMakeItsNameNeverCountsTowardTheLimit() {
        check(scenario(
                List.of(), List.of(List.of("makeC"), List.of("makeC"), List.of("failA", "failB")), List.of("states")));
    }

    /**
     * A removal races a trip and an isolation: whatever the order, the place {@code a} took comes
     * back (and {@code a}, removed, opens outside the cap), so {@code b} may open afterwards.
     */
    @Test
    void aRemovalRacingATripAndAnIsolationGivesThePlaceBack() {
        check(scenario(
                List.of(),
                List.of(List.of("failA", "isolateA"), List.of("removeA")),
                List.of("states", "failB", "states")));
    }
}
