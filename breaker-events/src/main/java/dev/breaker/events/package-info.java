/**
 * The event bus and the logging and JFR sinks. See the module's description.
 */
package dev.breaker.events;
