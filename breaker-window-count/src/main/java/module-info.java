/**
 * The count window: the last N outcomes of a breaker in a lock-free ring. Exports only the typed
 * builder; the ring itself is internal and reached through {@code Windows.named("count", ...)} or
 * {@link dev.breaker.window.count.CountWindow#builder()}.
 */
module dev.breaker.window.count {
    requires transitive dev.breaker;

    exports dev.breaker.window.count;

    provides dev.breaker.spi.WindowProvider with
            dev.breaker.window.count.internal.CountWindowProvider;
}
