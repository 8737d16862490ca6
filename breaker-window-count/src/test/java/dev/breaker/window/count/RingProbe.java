package dev.breaker.window.count;

import dev.breaker.spi.Window;
import dev.breaker.spi.WindowCounts;
import java.lang.reflect.Field;

/** Test-only: recounts a full ring's slots, to compare with its running totals. */
final class RingProbe {

    private RingProbe() {}

    static WindowCounts recount(Window ring) throws ReflectiveOperationException {
        Field f = ring.getClass().getDeclaredField("ring");
        f.setAccessible(true);
        byte[] slots = (byte[]) f.get(ring);
        long failures = 0;
        long slow = 0;
        for (byte code : slots) {
            failures += code & 1;
            slow += (code >> 1) & 1;
        }
        return new WindowCounts(slots.length, failures, slow);
    }
}
