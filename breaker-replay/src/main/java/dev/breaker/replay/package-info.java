/**
 * The replay tool: {@link dev.breaker.replay.Replay} is its command line,
 * {@link dev.breaker.replay.ExampleTraces} makes the example traces. See the module's description.
 */
package dev.breaker.replay;
