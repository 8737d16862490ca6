/**
 * Micrometer meters for dev.breaker: {@link dev.breaker.micrometer.BreakerMeterBinder} binds a
 * breaker, or every breaker of a registry, to a {@code MeterRegistry}. The meters read the
 * breakers' own counters when the registry is scraped; nothing is added to a call.
 *
 * <p>Micrometer is an automatic module ({@code micrometer.core}, the name in its jar's manifest),
 * required transitively because the binder's signatures use its types.
 */
module dev.breaker.micrometer {
    requires transitive dev.breaker;
    requires transitive micrometer.core;

    exports dev.breaker.micrometer;
}
