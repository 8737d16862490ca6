package dev.breaker.window.count;

import dev.breaker.spi.Window;
import dev.breaker.spi.WindowCounts;
import java.lang.reflect.Field;

/**
 * Test-only: recounts a ring's queue of bad outcomes, to compare with its running counts. Also
 * checks the queue itself: positions rising, all within the window that ends at the latest one.
 */
final class RingProbe {

    private RingProbe() {}

    static WindowCounts recount(Window ring) throws ReflectiveOperationException {
        int[] bad = (int[]) field(ring, "bad");
        int head = (int) field(ring, "head");
        int queued = (int) field(ring, "queued");
        long latest = (long) field(ring, "latest");
        int size = (int) field(ring, "size");
        long failures = 0;
        long slow = 0;
        long previous = Long.MIN_VALUE;
        for (int i = 0; i < queued; i++) {
            int e = bad[(head + i) & (bad.length - 1)];
            long position = latest - (((int) latest - (e >>> 2)) & ((1 << 30) - 1));
            if (position <= latest - size || position <= previous) {
                throw new AssertionError(
                        "entry " + i + " at position " + position + " of a window ending at " + latest);
            }
            previous = position;
            failures += e & 1;
            slow += (e >> 1) & 1;
        }
        return new WindowCounts(Math.min(latest, size), failures, slow);
    }

    private static Object field(Window ring, String name) throws ReflectiveOperationException {
        Field f = ring.getClass().getDeclaredField(name);
        f.setAccessible(true);
        return f.get(ring);
    }
}
