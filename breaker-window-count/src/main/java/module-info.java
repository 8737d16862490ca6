/**
 * The count window: the last N outcomes of a breaker, kept as their number and the positions of
 * the bad ones; a plain success that cannot trip takes no lock. Exports only the typed builder;
 * the window itself is internal and reached through {@code Windows.named("count", ...)} or
 * {@link dev.breaker.window.count.CountWindow#builder()}.
 */
module dev.breaker.window.count {
    requires transitive dev.breaker;

    exports dev.breaker.window.count;

    provides dev.breaker.spi.WindowProvider with
            dev.breaker.window.count.internal.CountWindowProvider;
}
