/**
 * Half-open policies beyond the built-in fixed one. Exports only the typed builder; the policy
 * itself is internal and reached through {@code HalfOpenPolicies.named("exponential", ...)} or
 * {@link dev.breaker.halfopen.ExponentialPolicy#builder()}.
 */
module dev.breaker.halfopen {
    requires transitive dev.breaker;

    exports dev.breaker.halfopen;

    provides dev.breaker.spi.HalfOpenPolicyProvider with
            dev.breaker.halfopen.internal.ExponentialPolicyProvider;
}
