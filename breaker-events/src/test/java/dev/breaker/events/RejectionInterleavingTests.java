package dev.breaker.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breaker.CircuitBreaker;
import dev.breaker.State;
import dev.breaker.StateTransition;
import dev.breaker.Ticker;
import dev.breaker.TransitionReason;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Chosen interleavings of a rejecting thread with the thread that delivers a transition, or with
 * another rejection: the rejecter is held inside {@link Slf4jEventLogger#onRejected} after it looked
 * its breaker's record up and before it counts (its ticker reading is where it waits), while the
 * other thread acts.
 */
class RejectionInterleavingTests {

    /** A ticker that holds the thread named {@code held} at its first reading until released. */
    private static final class GateTicker implements Ticker {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        @Override
        public long read() {
            if (Thread.currentThread().getName().equals("held") && entered.getCount() > 0) {
                entered.countDown();
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return 0;
        }
    }

    private final GateTicker ticker = new GateTicker();
    private final CapturedLog captured = new CapturedLog();
    private final Slf4jEventLogger log =
            Slf4jEventLogger.builder().logger(captured).ticker(ticker).build();
    private final CircuitBreaker b = CircuitBreaker.builder("held").build();

    /** What the held rejecter's {@code onRejected} threw, if anything. */
    private final AtomicReference<Throwable> heldFailure = new AtomicReference<>();

    /**
     * Starts the rejection that the ticker holds, on a daemon thread named {@code held}, and waits
     * until it is held (it has looked its breaker's record up).
     */
    private Thread startHeldRejection() throws InterruptedException {
        Thread held = new Thread(
                () -> {
                    try {
                        log.onRejected(b, State.OPEN);
                    } catch (Throwable t) {
                        heldFailure.set(t);
                    }
                },
                "held");
        held.setDaemon(true); // a wrong rescue that never ends must not keep the JVM up
        held.start();
        assertTrue(Patience.await(ticker.entered), "the rejecter reached its ticker reading");
        return held;
    }

    /** The held rejection returns, and throws nothing: the logger adds no failure of its own. */
    private void heldRejectionReturns(Thread held) throws InterruptedException {
        Patience.join(held);
        assertFalse(held.isAlive(), "the held rejection returned");
        assertNull(heldFailure.get(), "the held rejection threw nothing");
    }

    /** Counts three rejections, then delivers {@code to} while a fourth is held between lookup and count. */
    private void transitionWhileARejectionIsHeld(State to) throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            log.onRejected(b, State.OPEN);
        }
        Thread held = startHeldRejection();
        log.onEvent(new StateTransition("held", State.OPEN, to, 2, TransitionReason.RESET, 0));
        ticker.release.countDown();
        heldRejectionReturns(held);
    }

    @Test
    void aRejectionHeldAcrossACloseIsMovedToTheBreakersNewRecordNotLost() throws InterruptedException {
        transitionWhileARejectionIsHeld(State.CLOSED);
        assertEquals(
                List.of("breaker 'held' rejected 3 calls in the last 0 ms (state OPEN)"),
                captured.summaries().stream().map(CapturedLog.Line::text).toList());
        assertEquals(1, log.trackedBreakers(), "the retired record's late count found a new one");
        assertEquals(1, log.pendingRejections("held"));

        log.onEvent(new StateTransition("held", State.CLOSED, State.OPEN, 3, TransitionReason.WINDOW_TRIPPED, 0));
        assertEquals(4, captured.summarised());
        assertEquals(
                "breaker 'held' rejected 1 call in the last 0 ms (state OPEN)",
                captured.summaries().get(1).text());
    }

    @Test
    void aRejectionHeldAcrossAnotherTransitionWaitsForTheNextSummary() throws InterruptedException {
        transitionWhileARejectionIsHeld(State.HALF_OPEN);
        assertEquals(3, captured.summarised());
        assertEquals(1, log.trackedBreakers());
        assertEquals(1, log.pendingRejections("held"));
    }

    /**
     * Two first rejections of a breaker at once: the held one found no record, and while it waits
     * another makes it. The held one must count into that record, not into one of its own that the
     * map refused.
     */
    @Test
    void twoFirstRejectionsAtOnceCountIntoTheOneRecordTheMapKeeps() throws InterruptedException {
        Thread held = startHeldRejection(); // it found no record
        log.onRejected(b, State.OPEN); // makes it
        ticker.release.countDown();
        heldRejectionReturns(held);
        assertEquals(1, log.trackedBreakers());
        assertEquals(2, log.pendingRejections("held"), "both counted in the record the map keeps");
        assertEquals(List.of(), captured.summaries(), "neither was due: the interval began with the first");
        log.onEvent(new StateTransition("held", State.OPEN, State.HALF_OPEN, 2, TransitionReason.COOLDOWN_ELAPSED, 0));
        assertEquals(2, captured.summarised());
    }

    @Test
    void aRejectionCountedWhileTheClosesSummaryIsWrittenIsMovedNotLost() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            log.onRejected(b, State.OPEN);
        }
        CountDownLatch writing = new CountDownLatch(1);
        CountDownLatch written = new CountDownLatch(1);
        captured.beforeEachLine = line -> { // the closer, having emptied the record, waits here
            if (Thread.currentThread().getName().equals("closer")) {
                writing.countDown();
                await(written);
            }
        };
        Thread held = startHeldRejection(); // the rejecter has looked the record up
        Thread closer = new Thread(
                () -> log.onEvent(new StateTransition("held", State.OPEN, State.CLOSED, 2, TransitionReason.RESET, 0)),
                "closer");
        closer.start();
        assertTrue(Patience.await(writing)); // the record is emptied, and (it must be) retired
        ticker.release.countDown();
        heldRejectionReturns(held); // counted into the emptied record, then saw it retired
        written.countDown();
        Patience.join(closer);
        assertFalse(closer.isAlive(), "the closer returned");

        assertEquals(3, captured.summarised());
        assertEquals(1, log.pendingRejections("held"), "moved to the breaker's new record");
    }

    private static void await(CountDownLatch latch) {
        try {
            Patience.await(latch);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
