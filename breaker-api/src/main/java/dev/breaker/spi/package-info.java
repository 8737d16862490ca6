/**
 * Service provider interfaces, and helpers for the authors of providers.
 *
 * <p><b>Promised</b> (kept compatible; a change is announced and the TCK's contract version
 * moves): {@link dev.breaker.spi.Window} and {@link dev.breaker.spi.WindowFactory} (how outcomes
 * trip a breaker), {@link dev.breaker.spi.WindowCounts}, {@link dev.breaker.spi.HalfOpenPolicy}
 * (cooldown and probes), and the providers through which {@link java.util.ServiceLoader} finds
 * them by name: {@link dev.breaker.spi.WindowProvider},
 * {@link dev.breaker.spi.HalfOpenPolicyProvider}, {@link dev.breaker.spi.FailureClassifierProvider}.
 *
 * <p><b>Helpers</b>, marked {@link dev.breaker.spi.Helper} (used by more than one of the project's
 * modules; may change in any release): {@link dev.breaker.spi.Settings} (reading text settings
 * with errors that name the key), {@link dev.breaker.spi.RateThresholds} and
 * {@link dev.breaker.spi.RateWindowBuilder} (the rate rule and its builder settings, shared by the
 * count and time windows), {@link dev.breaker.spi.FailureStreak} (a lock-free run of failures,
 * used by the consecutive window), {@link dev.breaker.spi.CombiningWindow} (a window with one
 * writer at a time fed by striped buffers, the base of the count and time windows).
 *
 * <p>Discovery order, fixed and loud: an explicit object given to the builder wins; otherwise a
 * name is looked up among the providers {@code ServiceLoader} finds; two providers with the
 * requested name are an error; an unknown name is an error that lists the names found, and says
 * which artifact brings the name when it is one of the project's. A breaker never silently falls
 * back to no protection.
 */
package dev.breaker.spi;
