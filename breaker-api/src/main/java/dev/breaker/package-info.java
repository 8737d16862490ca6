/**
 * The circuit breaker API. Start at {@link dev.breaker.CircuitBreaker#builder(String)}.
 *
 * <p>Behaviour in one paragraph: CLOSED lets calls through and records outcomes in a
 * {@link dev.breaker.spi.Window}; when the window trips, the breaker is OPEN and rejects calls
 * at once until its cooldown has elapsed; the first request after that is a probe and makes it
 * HALF_OPEN, where a counted number of probes decide between CLOSED (with a fresh window) and
 * OPEN (with a new cooldown). Every transition is one compare-and-set on one immutable snapshot
 * and starts a new generation; outcomes of permits from an older generation are counted as late
 * and decide nothing.
 */
package dev.breaker;
