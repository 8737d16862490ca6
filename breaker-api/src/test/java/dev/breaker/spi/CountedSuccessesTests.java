package dev.breaker.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breaker.internal.Released;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The closable count of successes a {@link CombiningWindow} took without its lock: every add is
 * either in the value {@link CountedSuccesses#close} returns or refused, alone and when threads
 * race (the cells) and a closer cuts in.
 */
class CountedSuccessesTests {

    @Test
    void addsAreSummedAndCloseReturnsThemOnceAndRefusesLaterOnes() {
        CountedSuccesses c = new CountedSuccesses();
        assertEquals(0, c.sum());
        for (int i = 0; i < 5; i++) {
            assertTrue(c.increment());
        }
        assertEquals(5, c.sum());
        assertEquals(5, c.close());
        assertFalse(c.increment(), "closed: the caller counts it elsewhere");
        assertEquals(5, c.sum(), "a refused add is not summed");
    }

    @Test
    void aCountClosedBeforeItHadCellsRefusesTheContendedPathToo() {
        CountedSuccesses c = new CountedSuccesses();
        assertTrue(c.increment());
        assertEquals(1, c.close());
        assertFalse(c.increment());
        assertEquals(1, c.sum());
    }

    /**
     * Threads add at once (so cells are made) while one of them closes midway: the adds that
     * reported success are exactly those the close returned, and none lands after.
     */
    @Tag("race") // its verdict on a mutant depends on the schedule: PIT leaves it out
    @Test
    void racingAddsAndACloseCountEveryAcceptedAddExactlyOnce() throws Exception {
        for (int round = 0; round < 20; round++) {
            CountedSuccesses c = new CountedSuccesses();
            AtomicLong accepted = new AtomicLong();
            AtomicLong closedAt = new AtomicLong(-1);
            Released.run(3, t -> {
                long mine = 0;
                for (int i = 0; i < 50_000; i++) {
                    if (t == 0 && i == 25_000) {
                        closedAt.set(c.close());
                    }
                    if (c.increment()) {
                        mine++;
                    }
                }
                accepted.addAndGet(mine);
            });
            assertEquals(accepted.get(), closedAt.get(), "round " + round);
            assertEquals(accepted.get(), c.sum(), "round " + round);
            assertFalse(c.increment());
        }
    }

    @Test
    void theContendedPathSumsEveryCell() throws Exception {
        CountedSuccesses c = new CountedSuccesses();
        Released.run(4, t -> {
            for (int i = 0; i < 100_000; i++) {
                assertTrue(c.increment());
            }
        });
        assertEquals(400_000, c.sum());
        assertEquals(400_000, c.close());
    }
}
