/**
 * {@code breaker-replay}: what would a breaker configuration have done to recorded traffic? A
 * command-line tool ({@code java -jar breaker-replay.jar --trace T.csv --config A.properties}) that
 * replays a trace of calls through one or more configurations with a fake ticker and prints, per
 * configuration, the calls it permitted and rejected, the failures it let through and spared the
 * dependency, the successes it rejected and its transitions; as a table, as JSON lines, and as an
 * SVG picture. A tool, not a library: it exports nothing.
 */
module dev.breaker.replay {
    requires dev.breaker;
    requires dev.breaker.halfopen;
    // not read by name: brought in so that their windows are found by ServiceLoader
    requires dev.breaker.window.count;
    requires dev.breaker.window.time;
}
