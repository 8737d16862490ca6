/**
 * The typed builder of the count window: {@link dev.breaker.window.count.CountWindow#builder()}.
 */
package dev.breaker.window.count;
