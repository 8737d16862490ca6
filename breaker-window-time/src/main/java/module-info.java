/**
 * The time window: a breaker's outcomes of the last T, in lazily rotated buckets. Exports only
 * the typed builder; reached through {@code Windows.named("time", ...)} or
 * {@link dev.breaker.window.time.TimeWindow#builder()}.
 */
module dev.breaker.window.time {
    requires transitive dev.breaker;

    exports dev.breaker.window.time;

    provides dev.breaker.spi.WindowProvider with
            dev.breaker.window.time.internal.TimeWindowProvider;
}
