/**
 * The dev.breaker circuit breaker: the user API ({@code dev.breaker}) and the service
 * provider interfaces ({@code dev.breaker.spi}) that window, half-open and classifier modules
 * implement. Depends on the JDK alone.
 *
 * <p>Built-in providers live in an unexported package and are registered both here and in
 * {@code META-INF/services}, so discovery works on the module path and on the class path.
 */
@SuppressWarnings("module") // dev.breaker.events is compiled after this module
module dev.breaker {
    exports dev.breaker;
    exports dev.breaker.spi;
    // race points, test scaffolding that production compiles away (see Races)
    exports dev.breaker.internal.race to
            dev.breaker.events;

    uses dev.breaker.spi.WindowProvider;
    uses dev.breaker.spi.HalfOpenPolicyProvider;
    uses dev.breaker.spi.FailureClassifierProvider;

    provides dev.breaker.spi.WindowProvider with
            dev.breaker.internal.ConsecutiveWindowProvider;
    provides dev.breaker.spi.HalfOpenPolicyProvider with
            dev.breaker.internal.FixedHalfOpenPolicyProvider;
    provides dev.breaker.spi.FailureClassifierProvider with
            dev.breaker.internal.DefaultClassifierProvider,
            dev.breaker.internal.ExceptionsClassifierProvider;
}
