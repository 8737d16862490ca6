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

    /**
     * Adds that collide on the base are refused (the caller takes the window's lock) and ask for
     * cells, which the holder's next sum makes: from then on every add is taken, on a cell of its
     * thread's, and the sum counts each taken add once.
     */
    @Test
    void collidingAddsAskForCellsAndTheHoldersSumMakesThem() throws Exception {
        CountedSuccesses c = new CountedSuccesses();
        AtomicLong taken = new AtomicLong();
        AtomicLong refused = new AtomicLong();
        Released.run(4, t -> {
            long mine = 0;
            long no = 0;
            for (int i = 0; i < 100_000; i++) {
                if (c.increment()) {
                    mine++;
                } else {
                    no++;
                }
            }
            taken.addAndGet(mine);
            refused.addAndGet(no);
        });
        assertEquals(400_000, taken.get() + refused.get());
        assertEquals(taken.get(), c.sum(), "every taken add, once; no refused one");
        if (refused.get() > 0) {
            assertTrue(cells(c) != null, "a refused add asked for cells, and the sum made them");
            Released.run(4, t -> {
                for (int i = 0; i < 10_000; i++) {
                    assertTrue(c.increment(), "with cells, an add of the count's stamp is always taken");
                }
            });
            assertEquals(taken.get() + 40_000, c.sum());
        }
        assertEquals(c.sum(), c.close());
    }

    /** Adds name a stamp: one of another stamp is refused, and a restamp moves the count on. */
    @Test
    void anAddOfAnotherStampIsRefusedAndARestampKeepsWhatWasCounted() {
        CountedSuccesses c = new CountedSuccesses(7);
        assertFalse(c.increment(6), "an older stamp");
        assertFalse(c.increment(8), "a later stamp, before the holder moved to it");
        assertTrue(c.increment(7));
        assertTrue(c.increment(7));
        assertEquals(2, c.take());
        assertEquals(0, c.take(), "nothing since the last take");
        assertTrue(c.increment(7));
        c.restamp(8);
        assertFalse(c.increment(7), "the old stamp, after the move");
        assertTrue(c.increment(8));
        assertEquals(4, c.sum(), "the sum counts every stamp and never falls");
        assertEquals(2, c.take(), "the one of stamp 7 since the last take, and the one of 8");
        assertEquals(4, c.close());
        assertFalse(c.increment(8));
    }

    /** A restamp moves the cells too: adds on cells at the old stamp are refused after it. */
    @Test
    void aRestampMovesEveryCell() throws Exception {
        CountedSuccesses c = withCells();
        long before = c.sum();
        c.take();
        Released.run(2, t -> assertTrue(c.increment(0)));
        c.restamp(1);
        assertEquals(2, c.take(), "the adds on the cells before the move");
        Released.run(2, t -> {
            assertFalse(c.increment(0), "the old stamp, on a cell");
            assertTrue(c.increment(1));
        });
        assertEquals(before + 4, c.sum());
        assertEquals(before + 4, c.close());
    }

    /**
     * Threads add at the stamp a holder publishes while the holder moves on, stamp after stamp,
     * and takes what each counted: what every take gave adds up to the adds that were taken,
     * each stamp's adds in that stamp's takes (the time window's buckets), none lost.
     */
    @Tag("race")
    @Test
    void racingRestampsGiveEveryAddToItsOwnStamp() throws Exception {
        for (int round = 0; round < 10; round++) {
            CountedSuccesses c = new CountedSuccesses(0);
            java.util.concurrent.atomic.AtomicLongArray perStamp =
                    new java.util.concurrent.atomic.AtomicLongArray(2_001);
            long[] takenPerStamp = new long[2_001];
            java.util.concurrent.atomic.AtomicInteger published = new java.util.concurrent.atomic.AtomicInteger();
            java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
            Released.run(3, t -> {
                if (t == 2) {
                    for (int s = 0; s < 2_000; s++) {
                        for (int i = 0; i < 50; i++) {
                            takenPerStamp[s] += c.take(); // the holder's sums between stamps
                        }
                        c.restamp(s + 1);
                        takenPerStamp[s] += c.take();
                        published.set(s + 1);
                    }
                    done.set(true);
                } else {
                    while (!done.get()) {
                        int s = published.get();
                        if (c.increment(s)) {
                            perStamp.incrementAndGet(s);
                        }
                    }
                }
            });
            takenPerStamp[2_000] += c.take();
            for (int s = 0; s <= 2_000; s++) {
                assertEquals(perStamp.get(s), takenPerStamp[s], "round " + round + ", stamp " + s);
            }
        }
    }

    /** A word whose count is full refuses and asks the holder, whose next sum moves the count out. */
    @Test
    void aFullWordRefusesUntilTheHoldersNextSum() throws Exception {
        CountedSuccesses c = new CountedSuccesses(3);
        long count = (1L << 31) - 1;
        Field base = CountedSuccesses.class.getDeclaredField("base");
        base.setAccessible(true);
        base.setLong(c, (3L << 31) | (count - 1));
        assertTrue(c.increment(3), "the last add the word takes");
        assertFalse(c.increment(3), "full");
        assertEquals(count, c.sum(), "the sum serves the ask: the count moves out of the word");
        assertTrue(c.increment(3));
        assertEquals(count + 1, c.sum());
        assertEquals(count + 1, c.close());
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

    /**
     * Cells the holder makes when an add asks for them are at the count's stamp, whatever it is:
     * an add of that stamp is taken at once, one of another is refused. An ask for a full word
     * alone makes none.
     */
    @Test
    void cellsAskedForAreMadeAtTheCountsStampAndOnlyWhenAsked() throws Exception {
        CountedSuccesses full = new CountedSuccesses(7);
        ask(full, "FULL");
        assertEquals(0, full.sum());
        assertEquals(null, cells(full), "a full word asks the holder to move its count out, not for cells");
        for (long stamp : new long[] {0, 7}) {
            CountedSuccesses c = new CountedSuccesses(stamp);
            ask(c, "CELLS_WANTED");
            assertEquals(0, c.sum(), "the holder's sum serves the ask");
            assertTrue(cells(c) != null, "cells made, at stamp " + stamp + " (a base of 0 too)");
            assertTrue(c.increment(stamp), "a cell at the count's stamp takes the add");
            assertFalse(c.increment(stamp + 1), "one of another stamp is refused");
            assertEquals(1, c.sum());
            assertEquals(1, c.close());
        }
    }

    /**
     * A count at stamp 0 that has taken nothing holds words of 0 (a time window whose ticker
     * starts at 0 begins there): a restamp moves them on like any other, base and cells alike.
     */
    @Test
    void aCountAtStampZeroThatTookNothingMovesOnToTheNextStamp() throws Exception {
        CountedSuccesses bare = new CountedSuccesses(0);
        bare.restamp(1);
        assertTrue(bare.increment(1), "the base moved to stamp 1");
        assertFalse(bare.increment(0));
        CountedSuccesses withCells = new CountedSuccesses(0);
        ask(withCells, "CELLS_WANTED");
        withCells.sum();
        withCells.restamp(1);
        assertTrue(withCells.increment(1), "this thread's cell moved to stamp 1");
        assertFalse(withCells.increment(0));
        assertEquals(2, bare.sum() + withCells.sum());
    }

    /** Sets what an add asks of the holder, as a refused one would. */
    private static void ask(CountedSuccesses c, String what) throws ReflectiveOperationException {
        Field constant = CountedSuccesses.class.getDeclaredField(what);
        constant.setAccessible(true);
        Field asks = CountedSuccesses.class.getDeclaredField("asks");
        asks.setAccessible(true);
        asks.setInt(c, asks.getInt(c) | constant.getInt(null));
    }

    /**
     * A count whose adds have collided at least once, so that it has cells: two threads add until
     * one is refused, then this thread sums, as the holder would.
     */
    private static CountedSuccesses withCells() throws Exception {
        for (int attempt = 0; attempt < 100; attempt++) {
            CountedSuccesses c = new CountedSuccesses();
            java.util.concurrent.atomic.AtomicBoolean refused = new java.util.concurrent.atomic.AtomicBoolean();
            Released.run(2, t -> {
                for (int i = 0; i < 100_000 && !refused.get(); i++) {
                    if (!c.increment()) {
                        refused.set(true);
                    }
                }
            });
            c.sum();
            if (cells(c) != null) {
                return c;
            }
        }
        throw new AssertionError("two threads adding never collided in 100 attempts");
    }

    private static Object cells(CountedSuccesses c) {
        try {
            Field cells = CountedSuccesses.class.getDeclaredField("cells");
            cells.setAccessible(true);
            return cells.get(c);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }
}
