package dev.breaker.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** {@link Totals} alone: every add counted once, in its own slot, and reads that never go back. */
class StripedTotalsTests {

    @Test
    void eachSlotCountsItsOwnAddsAndNothingElse() {
        Totals t = new Totals();
        for (int slot = 0; slot <= Totals.SHADOW_FAILURES; slot++) {
            t.add(slot, slot + 1L);
        }
        t.increment(Totals.REJECTED);
        for (int slot = 0; slot <= Totals.SHADOW_FAILURES; slot++) {
            assertEquals(slot + 1L + (slot == Totals.REJECTED ? 1 : 0), t.sum(slot), "slot " + slot);
        }
    }

    @Test
    void anOutcomeLandsInTheSlotOfItsWindowBits() {
        Totals t = new Totals();
        t.record(false, false);
        t.record(true, false);
        t.record(true, false);
        t.record(false, true);
        t.record(true, true);
        t.record(true, true);
        t.record(true, true);
        assertEquals(1, t.sum(Totals.FAST_SUCCESSES));
        assertEquals(2, t.sum(Totals.FAST_FAILURES));
        assertEquals(1, t.sum(Totals.SLOW_SUCCESSES));
        assertEquals(3, t.sum(Totals.SLOW_FAILURES));
    }

    /**
     * Threads released together add to every slot, many rounds (so the base collides and the
     * cells are made mid-round); a reader meanwhile checks that no slot ever reads less than it
     * did before. At rest each slot holds exactly what was added to it.
     */
    @Tag("race") // its verdict on a mutant depends on the schedule: PIT leaves it out
    @Test
    void racingAddersLoseNothingAndReadsNeverGoBack() throws Exception {
        int threads = 4;
        int perThread = 20_000;
        for (int round = 0; round < 20; round++) {
            Totals t = new Totals();
            AtomicBoolean done = new AtomicBoolean();
            AtomicReference<String> wentBack = new AtomicReference<>();
            Thread reader = new Thread(() -> {
                long[] last = new long[Totals.SHADOW_FAILURES + 1];
                while (!done.get()) {
                    for (int slot = 0; slot < last.length; slot++) {
                        long now = t.sum(slot);
                        if (now < last[slot]) {
                            wentBack.compareAndSet(null, "slot " + slot + " read " + now + " after " + last[slot]);
                        }
                        last[slot] = now;
                    }
                }
            });
            reader.start();
            Released.run(threads, offset -> {
                for (int n = 0; n < perThread; n++) {
                    t.add((n + offset) % (Totals.SHADOW_FAILURES + 1), 1 + (n & 1));
                }
            });
            done.set(true);
            reader.join();
            long all = 0;
            for (int slot = 0; slot <= Totals.SHADOW_FAILURES; slot++) {
                all += t.sum(slot);
            }
            assertEquals((long) threads * (perThread / 2) * 3, all, "round " + round);
            for (int slot = 0; slot <= Totals.SHADOW_FAILURES; slot++) {
                long expected = 0;
                for (int i = 0; i < threads; i++) {
                    for (int n = 0; n < perThread; n++) {
                        if ((n + i) % (Totals.SHADOW_FAILURES + 1) == slot) {
                            expected += 1 + (n & 1);
                        }
                    }
                }
                assertEquals(expected, t.sum(slot), "round " + round + ", slot " + slot);
            }
            assertTrue(wentBack.get() == null, () -> wentBack.get());
        }
    }
}
