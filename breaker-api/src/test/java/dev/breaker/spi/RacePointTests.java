package dev.breaker.spi;

import static dev.breaker.spi.CombiningWindowTests.await;
import static dev.breaker.spi.CombiningWindowTests.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breaker.internal.Races;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Interleavings of {@link CombiningWindow} that need a thread held between two of its own steps,
 * where no caller's or plugin's code runs: held at a {@link Races race point}, every run meets
 * the interleaving that a race test meets only now and then.
 */
class RacePointTests {

    /** Holds one thread at one point, once, until {@link #letGo()}. */
    private static final class Hold {
        final int point;
        final CountDownLatch inside = new CountDownLatch(1);
        final CountDownLatch leave = new CountDownLatch(1);
        volatile Thread target;

        Hold(int point, Thread target) {
            this.point = point;
            this.target = target;
            Races.handle(p -> {
                if (p == this.point && Thread.currentThread() == this.target) {
                    this.target = null;
                    inside.countDown();
                    await(leave);
                }
            });
        }

        void letGo() {
            leave.countDown();
        }
    }

    private final ExecutorService maker = CombiningWindowTests.onStripe("maker", i -> true);
    private final int stripe = get(maker.submit(CombiningWindow::index));
    private final ExecutorService appender = CombiningWindowTests.onStripe("appender", i -> i == stripe);
    private final ExecutorService holder = CombiningWindowTests.onStripe("holder", i -> i != stripe);
    private final int holders = get(holder.submit(CombiningWindow::index));
    private final ExecutorService third = CombiningWindowTests.onStripe("third", i -> i != stripe && i != holders);

    @AfterEach
    void stop() {
        Races.handle(null);
        maker.shutdownNow();
        appender.shutdownNow();
        holder.shutdownNow();
        third.shutdownNow();
    }

    private static Thread threadOf(ExecutorService ex) {
        return get(ex.submit(Thread::currentThread));
    }

    /**
     * The fault a review found in {@link Stripe}: thread M installs a new stripe and is held
     * before it tells the holder; A, of the same stripe index, appends a success to that stripe
     * and raises the urgent bit; the holder's drain must know the stripe, or A's next outcome, a
     * failure, is applied before A's success.
     */
    @Test
    void anAppendToAStripeNobodyHasListedYetIsDrainedInItsWritersOrder() {
        CombiningWindowTests.Pausing w = new CombiningWindowTests.Pausing(1_000);
        // buffering, with the holder's stripe made already: its next batch makes none, so it
        // refreshes its list of stripes only when told the stripes changed
        CombiningWindowTests.collide(w, holder, third);
        CountDownLatch leave = new CountDownLatch(1);
        Future<Boolean> held = w.holdTheLock(holder, leave);
        Hold installing = new Hold(Races.STRIPE_INSTALLED, threadOf(maker));
        Future<Boolean> made = maker.submit(() -> w.record(false, false)); // the lock busy: makes the stripe
        await(installing.inside);
        assertFalse(get(appender.submit(() -> w.record(false, false))), "buffered, behind the busy lock");
        leave.countDown();
        assertFalse(get(held));
        assertFalse(get(appender.submit(() -> w.record(true, false))));
        installing.letGo();
        assertFalse(get(made));
        w.counts(); // drains what waits
        assertEquals(
                List.of("S", "S", "S", "S", "F", "S"),
                w.log,
                "two successes of the collision, the holder's, then the appender's success before its failure, then"
                        + " the maker's");
    }

    /**
     * A trip that a drain found with nobody to tell is told by the next offer, once: here two
     * offers read the flag, and the first is held before it acts on it while the second takes it.
     * The first must neither tell the trip again nor skip its own outcome.
     */
    @Test
    void aTripToTellIsToldOnceWhenAnotherOfferTakesItBetweenTheReadAndTheClear() {
        CombiningWindowTests.Pausing w = new CombiningWindowTests.Pausing(1);
        w.ratePercent = 25; // one failure in four calls trips; in five or more it does not
        CombiningWindowTests.collide(w, holder, appender);
        CountDownLatch leave = new CountDownLatch(1);
        Future<Boolean> held = w.holdTheLock(holder, leave);
        assertFalse(get(appender.submit(() -> w.record(true, false))), "urgent: for the holder to decide");
        leave.countDown();
        assertFalse(get(held));
        assertEquals(List.of("S", "S", "S", "F"), w.log, "the holder applied it: a trip with nobody to tell");

        Hold reading = new Hold(Races.FLAGS_READ, threadOf(maker));
        Future<Boolean> first = maker.submit(() -> w.record(false, false));
        await(reading.inside);
        assertTrue(get(appender.submit(() -> w.record(false, false))), "the second offer tells the trip");
        reading.letGo();
        assertFalse(get(first), "the first does not tell it again");
        w.counts();
        assertEquals(List.of("S", "S", "S", "F", "S", "S"), w.log, "and neither success was skipped");
    }
}
