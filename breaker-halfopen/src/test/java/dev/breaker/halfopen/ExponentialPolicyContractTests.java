package dev.breaker.halfopen;

import dev.breaker.spi.HalfOpenPolicy;
import dev.breaker.tck.HalfOpenPolicyContract;
import java.time.Duration;
import org.junit.jupiter.api.Nested;

/** The exponential policy keeps the half-open policy contract, in several shapes. */
class ExponentialPolicyContractTests {

    /** The defaults. */
    @Nested
    class Defaults extends HalfOpenPolicyContract {
        @Override
        protected HalfOpenPolicy policy() {
            return ExponentialPolicy.builder().build();
        }
    }

    /** Three of five probes close; the cooldown grows fast and is capped. */
    @Nested
    class ThreeOfFive extends HalfOpenPolicyContract {
        @Override
        protected HalfOpenPolicy policy() {
            return ExponentialPolicy.builder()
                    .initial(Duration.ofMillis(1))
                    .multiplier(10)
                    .max(Duration.ofDays(1))
                    .probes(5)
                    .closeAfter(3)
                    .build();
        }
    }

    /** One success of four closes; jitter from the real random source; a calm period and a ramp. */
    @Nested
    class JitterCalmAndRamp extends HalfOpenPolicyContract {
        @Override
        protected HalfOpenPolicy policy() {
            return ExponentialPolicy.builder()
                    .initial(Duration.ofSeconds(1))
                    .multiplier(1.5)
                    .max(Duration.ofMinutes(1))
                    .jitter(0.9)
                    .calmPeriod(Duration.ofMinutes(10))
                    .probes(4)
                    .closeAfter(1)
                    .rampUp(Duration.ofSeconds(30))
                    .rampFrom(0.01)
                    .build();
        }
    }

    /** No cooldown at all and a multiplier of 1: a fixed policy in exponential clothes. */
    @Nested
    class Flat extends HalfOpenPolicyContract {
        @Override
        protected HalfOpenPolicy policy() {
            return ExponentialPolicy.builder()
                    .initial(Duration.ZERO)
                    .multiplier(1)
                    .max(Duration.ZERO)
                    .probes(2)
                    .build();
        }
    }
}
