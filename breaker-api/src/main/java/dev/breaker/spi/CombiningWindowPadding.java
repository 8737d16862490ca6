package dev.breaker.spi;

/**
 * Keeps the fields a {@link CombiningWindow}'s lock holder writes at every outcome it applies (the
 * window's own and its subclass's) off the cache line of those every offer reads
 * ({@link CombiningWindowFields}): without it, whether they shared a line depended on where the
 * object fell in memory, and the same benchmark ran at 45 or 85 ns a call from one JVM to the
 * next (2 threads, count window, 40% failures).
 *
 * <p>The JVM fills a superclass's gaps with a subclass's small fields, so the small fields here
 * take the gaps that {@link CombiningWindowFields} leaves, and the longs after them end at least
 * 64 bytes past the line of the first two (the flags and the gate, which every offer reads) in
 * the default layout, with compressed class pointers: the lock and the fields after it share a
 * line with the holder's first fields in some of the eight placements. That was 32 bytes per
 * window, not a whole line; measured, 8 JVMs in a row ran that benchmark at 40 to 50 ns. The
 * published stamp, read by every offer and written once per stamp, now takes the place of the
 * fourth long: the holder's first field stays 64 bytes past the gate, and a window no larger.
 */
@SuppressWarnings("unused") // padding: never read
abstract class CombiningWindowPadding extends CombiningWindowFields {
    private boolean gap0;
    private int gap1;
    private long pad0;
    private long pad1;
    private long pad2;
}
