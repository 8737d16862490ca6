package dev.breaker.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breaker.internal.Released;
import java.lang.reflect.Field;
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

    /**
     * Once the count has cells, {@link CountedSuccesses#sum} reads them again only when an add
     * changed one since its last read: every sum between adds, from this thread and from others,
     * is still exact.
     */
    @Test
    void sumsBetweenAddsStayExactOnceTheCountHasCells() throws Exception {
        CountedSuccesses c = withCells();
        long expected = c.sum();
        for (int i = 0; i < 1_000; i++) {
            assertTrue(c.increment());
            assertEquals(++expected, c.sum(), "after add " + i);
            assertEquals(expected, c.sum(), "a second sum with no add between");
        }
        Released.run(1, t -> assertTrue(c.increment()));
        assertEquals(expected + 1, c.sum(), "an add from another thread, on another cell");
        assertEquals(expected + 1, c.close());
    }

    /** One thread sums (as the window's holder does) while two add: no sum falls back, the last is exact. */
    @Tag("race")
    @Test
    void sumsWhileAddsRaceNeverFallBackAndTheLastIsExact() throws Exception {
        for (int round = 0; round < 10; round++) {
            CountedSuccesses c = withCells();
            long before = c.sum();
            Released.run(3, t -> {
                if (t == 2) {
                    long last = 0;
                    for (int i = 0; i < 100_000; i++) {
                        long s = c.sum();
                        assertTrue(s >= last, "sum fell from " + last + " to " + s);
                        last = s;
                    }
                } else {
                    for (int i = 0; i < 100_000; i++) {
                        assertTrue(c.increment());
                    }
                }
            });
            assertEquals(before + 200_000, c.sum(), "round " + round);
        }
    }

    /** A count whose adds have collided at least once, so that it has cells. */
    private static CountedSuccesses withCells() throws Exception {
        Field cells = CountedSuccesses.class.getDeclaredField("cells");
        cells.setAccessible(true);
        for (int attempt = 0; attempt < 100; attempt++) {
            CountedSuccesses c = new CountedSuccesses();
            Released.run(2, t -> {
                for (int i = 0; i < 100_000 && cells(cells, c) == null; i++) {
                    c.increment();
                }
            });
            if (cells(cells, c) != null) {
                return c;
            }
        }
        throw new AssertionError("two threads adding never collided in 100 attempts");
    }

    private static Object cells(Field cells, CountedSuccesses c) {
        try {
            return cells.get(c);
        } catch (IllegalAccessException e) {
            throw new AssertionError(e);
        }
    }
}
