/**
 * The breaker TCK: contracts that third-party windows and plugins run in their own tests.
 * Open, so that JUnit Jupiter and jqwik may call the inherited test methods reflectively on the
 * module path without {@code --add-opens}.
 */
open module dev.breaker.tck {
    requires transitive dev.breaker;
    requires transitive org.junit.jupiter.api;
    requires transitive net.jqwik.api;
    requires jdk.management; // the per-thread allocation counter, for WindowContract's allocation check

    exports dev.breaker.tck;
}
