/**
 * Technology compatibility kit for window implementations: extend
 * {@link dev.breaker.tck.WindowContract}. Shipped in the {@code breaker-api} test-jar.
 */
package dev.breaker.tck;
