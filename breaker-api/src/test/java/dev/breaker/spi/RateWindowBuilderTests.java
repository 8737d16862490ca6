package dev.breaker.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The setters every rate window's builder inherits, as a window module uses them. */
class RateWindowBuilderTests {

    /** A window author's builder: it adds nothing and hands the thresholds to its window. */
    static final class TestBuilder extends RateWindowBuilder<TestBuilder> {
        @Override
        protected TestBuilder self() {
            return this;
        }

        RateThresholds build(int defaultMinimumCalls) {
            return thresholds(defaultMinimumCalls);
        }
    }

    @Test
    void withNothingSetTheDefaultsApplyAndTheWindowChoosesTheMinimum() {
        assertEquals(new RateThresholds(0.5, 1.0, 20), new TestBuilder().build(20));
    }

    @Test
    void settersChainAndAreKept() {
        TestBuilder b = new TestBuilder();
        assertSame(b, b.failureRateThreshold(0.25));
        assertSame(b, b.slowCallRateThreshold(0.75));
        assertSame(b, b.minimumCalls(1));
        assertEquals(new RateThresholds(0.25, 0.75, 1), b.build(20), "a minimum that was set wins over the default");
    }

    @Test
    void badValuesAreRefusedByNameAndLeaveTheBuilderUnchanged() {
        TestBuilder b = new TestBuilder().minimumCalls(3);
        assertEquals(
                "minimumCalls must be >= 1, was 0",
                assertThrows(IllegalArgumentException.class, () -> b.minimumCalls(0))
                        .getMessage());
        assertEquals(
                "failureRateThreshold must be in (0, 1], was 0.0",
                assertThrows(IllegalArgumentException.class, () -> b.failureRateThreshold(0.0))
                        .getMessage());
        assertEquals(
                "slowCallRateThreshold must be in (0, 1], was 1.5",
                assertThrows(IllegalArgumentException.class, () -> b.slowCallRateThreshold(1.5))
                        .getMessage());
        assertEquals(new RateThresholds(0.5, 1.0, 3), b.build(20));
    }
}
