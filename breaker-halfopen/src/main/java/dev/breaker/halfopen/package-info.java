/**
 * The exponential half-open policy's typed builder: {@link dev.breaker.halfopen.ExponentialPolicy}.
 * Its settings by name are those of {@code HalfOpenPolicies.named("exponential", ...)}.
 */
package dev.breaker.halfopen;
