/**
 * The typed builder of the time window: {@link dev.breaker.window.time.TimeWindow#builder()}.
 */
package dev.breaker.window.time;
