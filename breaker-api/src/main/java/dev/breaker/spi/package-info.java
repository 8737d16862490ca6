/**
 * Service provider interfaces: {@link dev.breaker.spi.Window} (how outcomes trip a breaker),
 * {@link dev.breaker.spi.HalfOpenPolicy} (cooldown and probes), and the providers through which
 * {@link java.util.ServiceLoader} finds them by name.
 *
 * <p>Discovery order, fixed and loud: an explicit object given to the builder wins; otherwise a
 * name is looked up among the providers {@code ServiceLoader} finds; two providers with the
 * requested name are an error; an unknown name is an error that lists the names found. A breaker
 * never silently falls back to no protection.
 */
package dev.breaker.spi;
