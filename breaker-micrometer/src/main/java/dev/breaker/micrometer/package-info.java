/**
 * The Micrometer binder, {@link dev.breaker.micrometer.BreakerMeterBinder}: which meters it
 * registers, with which tags, and when they are read, is on its page.
 */
package dev.breaker.micrometer;
