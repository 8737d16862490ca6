package dev.breaker.window.count;

import dev.breaker.spi.Window;
import dev.breaker.spi.WindowCounts;
import java.lang.reflect.Field;

/** Test-only: recounts a ring's slots, to compare with its running totals. */
final class RingProbe {

    private RingProbe() {}

    static WindowCounts recount(Window ring) throws ReflectiveOperationException {
        Field f = ring.getClass().getDeclaredField("slots");
        f.setAccessible(true);
        byte[] slots = (byte[]) f.get(ring);
        long calls = 0;
        long failures = 0;
        long slow = 0;
        for (byte code : slots) {
            calls += code & 1;
            failures += (code >> 1) & 1;
            slow += (code >> 2) & 1;
        }
        return new WindowCounts(calls, failures, slow);
    }
}
