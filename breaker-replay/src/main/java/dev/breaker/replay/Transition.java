package dev.breaker.replay;

import dev.breaker.State;

/**
 * A state change of a replayed breaker.
 *
 * @param atNanos the trace time it happened at
 * @param from    the state left
 * @param to      the state entered
 */
record Transition(long atNanos, State from, State to) {}
