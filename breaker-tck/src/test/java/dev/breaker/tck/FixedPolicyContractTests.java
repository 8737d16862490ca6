package dev.breaker.tck;

import dev.breaker.HalfOpenPolicies;
import dev.breaker.spi.HalfOpenPolicy;
import java.time.Duration;

/** The built-in fixed policy keeps the half-open policy contract (run here: breaker-api cannot depend on the TCK). */
class FixedPolicyContractTests extends HalfOpenPolicyContract {

    @Override
    protected HalfOpenPolicy policy() {
        return HalfOpenPolicies.fixed(Duration.ofSeconds(3), 3);
    }
}
