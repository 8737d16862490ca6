package dev.breaker.events;

import dev.breaker.BreakerEvent;
import dev.breaker.internal.race.Races;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * The asynchronous half of a bus: a bounded queue that publishers never wait on, drained by one
 * thread at a time, either a daemon thread the bus owns or tasks on a user's executor.
 *
 * <p><b>What is shared.</b> Publishers (any thread, any breaker) and the one drainer share the
 * queue (lock-free, unbounded in itself), {@code size} (which makes it bounded), {@code wip} and
 * {@code closed}. Nothing else is written by more than one thread.
 *
 * <p><b>The bound.</b> A publisher first reserves a place: {@code size.incrementAndGet()}; if that
 * passes the capacity it gives the place back and counts the event as dropped. The drainer gives a
 * place back for each event it takes. So at most {@code capacity} events wait, and a full queue
 * costs a publisher two atomic adds, never a wait.
 *
 * <p><b>Who drains.</b> {@code wip} counts publications not yet accounted for by the drainer. The
 * publisher that moves it from 0 wakes the drainer (unparks the bus's thread, or submits one task
 * to the executor); others only add. The drainer reads {@code wip}, takes everything queued, then
 * subtracts what it read; if the result is not 0, more arrived, and it goes round again. (After a
 * round of {@value #TASK_BUDGET} events, which may not have emptied the queue, it subtracts all but
 * one: the count stays bounded, and above 0, so the drain stays its own.) An event is
 * queued before its publisher adds to {@code wip}, so when the drainer's subtraction reaches 0 every
 * counted event has been taken: none is stranded, and only one drainer runs at a time, which keeps
 * each breaker's events (published one at a time, in generation order) in order.
 *
 * <p><b>Executors.</b> A task delivers at most {@value #TASK_BUDGET} events, then resubmits itself
 * (still the one drainer) so that a shared pool is not held. Each submission is claimed once, by
 * the task when it runs or by the submitter when {@code execute} throws, so an executor that both
 * accepts a task and throws never makes two drainers. An executor that runs the task on the spot
 * ({@code Runnable::run}) is detected, and the drain goes on in its loop instead of one stack frame
 * deeper per task. An executor that refuses a task
 * (throws) turns what waits into dropped events, counted, and the next publication tries again. An
 * executor must run every task it accepts: one that silently discards tasks would strand events.
 *
 * <p><b>Closing.</b> {@code closed} stops new events (counted as dropped). Close waits, up to its
 * bound, for the drainer to empty the queue; what is still queued then is taken by the closer and
 * counted as dropped, and the bus's own thread ends.
 */
final class AsyncDelivery {

    /** Most events one executor task delivers before resubmitting itself. */
    static final int TASK_BUDGET = 256;

    private final Subscribers subscribers;
    private final int capacity;
    /** Null when the bus owns its thread. */
    private final Executor executor;

    private final Thread thread;
    private final ConcurrentLinkedQueue<BreakerEvent> queue = new ConcurrentLinkedQueue<>();
    private final AtomicInteger size = new AtomicInteger();
    private final AtomicInteger wip = new AtomicInteger();
    private final LongAdder dropped = new LongAdder();
    private volatile boolean closed;
    /** Set when close has given up waiting: the drainer delivers nothing more. */
    private volatile boolean stopped;
    /**
     * The thread draining right now (the bus's own, or an executor's), to tell a close from a
     * subscriber. A task clears it only if it is still its own (a resubmitted task may already run).
     */
    private volatile Thread drainer;
    /** The drainer's thread while it is inside {@code execute} for its own next task. */
    private volatile Thread resubmitter;
    /** Set when that next task ran on the spot; written and read only on the resubmitter's thread. */
    private boolean ranInline;

    private static final VarHandle DRAINER;

    static {
        try {
            DRAINER = MethodHandles.lookup().findVarHandle(AsyncDelivery.class, "drainer", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
    /** What {@code wip} becomes when the bus's own thread ends: negative, whatever is added to it later. */
    private static final int GONE = Integer.MIN_VALUE / 2;

    AsyncDelivery(Subscribers subscribers, int capacity, Executor executor, String threadName) {
        this.subscribers = subscribers;
        this.capacity = capacity;
        this.executor = executor;
        if (executor == null) {
            thread = new Thread(this::runOwnThread, threadName);
            drainer = thread;
            thread.setDaemon(true);
            thread.start();
        } else {
            thread = null;
        }
    }

    void publish(BreakerEvent event) {
        if (closed) {
            dropped.increment();
            return;
        }
        Races.at(EventRaces.PUBLISH_OPEN);
        if (size.incrementAndGet() > capacity) {
            size.decrementAndGet();
            dropped.increment();
            return;
        }
        queue.offer(event);
        int before = wip.getAndIncrement();
        if (before == 0) {
            wake();
        } else if (before < 0) { // the bus's thread has ended (closed): nobody will drain, so this publisher does
            for (BreakerEvent e; (e = queue.poll()) != null; ) {
                size.decrementAndGet();
                dropped.increment();
            }
        }
    }

    private void wake() {
        if (thread != null) {
            LockSupport.unpark(thread);
            return;
        }
        submit(false);
    }

    /**
     * Hands the drain to the executor; a refusal drops what waits and gives the drain up.
     *
     * @param resubmit true when the drainer hands its own drain on
     * @return true when the executor ran the resubmitted task on the spot, on this thread: the caller
     *     is still the drainer and goes on
     */
    private boolean submit(boolean resubmit) {
        Task task = new Task();
        if (resubmit) {
            ranInline = false;
            resubmitter = Thread.currentThread();
        }
        try {
            executor.execute(task);
        } catch (Throwable refused) { // RejectedExecutionException, or any executor failure
            if (task.claim()) { // nobody runs it
                discard();
                return false;
            } // else it ran or runs anyway: its thread is the drainer, the complaint changes nothing
        } finally {
            if (resubmit) {
                resubmitter = null;
            }
        }
        return resubmit && ranInline;
    }

    /** One submission of the drain: it runs once, and not at all if its submitter claimed it back. */
    private final class Task implements Runnable {
        private final AtomicBoolean claimed = new AtomicBoolean();

        boolean claim() {
            return claimed.compareAndSet(false, true);
        }

        @Override
        public void run() {
            if (!claim()) {
                return; // the executor threw after accepting it: what waited was dropped
            }
            if (resubmitter == Thread.currentThread()) {
                ranInline = true; // run on the spot by the drainer's own execute: its loop goes on
                return;
            }
            drainTask();
        }
    }

    /** Takes everything counted so far as dropped and gives the drain up (the next publisher takes it). */
    private void discard() {
        int seen = wip.get();
        for (; ; ) {
            for (BreakerEvent e; (e = queue.poll()) != null; ) {
                size.decrementAndGet();
                dropped.increment();
            }
            seen = wip.addAndGet(-seen);
            if (seen == 0) {
                Races.at(EventRaces.DISCARDED);
                return;
            }
        }
    }

    private void drainTask() {
        Thread me = Thread.currentThread();
        drainer = me;
        try {
            drainSome();
        } finally {
            DRAINER.compareAndSet(this, me, null); // not the next task's
        }
    }

    private void drainSome() {
        int seen = wip.get();
        int budget = TASK_BUDGET;
        for (; ; ) {
            for (BreakerEvent e; budget > 0 && (e = queue.poll()) != null; budget--) {
                size.decrementAndGet();
                deliver(e);
            }
            if (budget == 0 && !queue.isEmpty()) { // more waits: stay the drainer, on a fresh task
                wip.addAndGet(1 - seen); // all it has seen but one: the count stays bounded, and above 0
                if (!submit(true)) {
                    return;
                }
                seen = wip.get(); // the executor ran it here and now: go on in this loop, not a frame deeper
                budget = TASK_BUDGET;
                continue;
            }
            seen = wip.addAndGet(-seen);
            if (seen == 0) {
                return;
            }
        }
    }

    private void runOwnThread() {
        for (; ; ) {
            int seen = wip.get();
            if (seen == 0) {
                if (closed && wip.compareAndSet(0, GONE)) {
                    Races.at(EventRaces.THREAD_GONE);
                    return; // later publishers see a negative count and drop their events themselves
                }
                // a subscriber that interrupted this thread would make park return at once, forever
                Thread.interrupted();
                LockSupport.park(this); // woken by the publisher that moves wip from 0, or by close
                continue;
            }
            int budget = TASK_BUDGET;
            for (BreakerEvent e; budget > 0 && (e = queue.poll()) != null; budget--) {
                size.decrementAndGet();
                deliver(e);
            }
            // a queue that never empties (a subscriber a little slower than its publishers) would keep
            // the count growing past Integer.MAX_VALUE: after a full budget, account for all it has seen
            // but one, which keeps the count bounded and above 0 (the drain stays this thread's)
            wip.addAndGet(budget == 0 ? 1 - seen : -seen);
            Races.at(EventRaces.ROUND_ACCOUNTED);
        }
    }

    private void deliver(BreakerEvent e) {
        if (stopped) {
            dropped.increment(); // close gave up waiting: what is left is counted, not delivered
            return;
        }
        try {
            subscribers.deliver(e, thread != null);
        } catch (Throwable unexpected) {
            // deliver lets no subscriber's failure out; should anything else escape, the drain must
            // live on, or every later event would be stranded
        }
    }

    long dropped() {
        return dropped.sum();
    }

    int queued() {
        return size.get();
    }

    /**
     * Stops new events, waits up to {@code waitNanos} for what is queued to be delivered, then counts
     * what is left as dropped and ends the bus's thread: when everything was delivered in time it
     * returns once that thread has ended (within what is left of the wait); when not, it interrupts
     * the thread, which a subscriber still holds, and returns.
     */
    void close(long waitNanos) {
        closed = true;
        if (thread != null) {
            LockSupport.unpark(thread);
        }
        if (drainer == Thread.currentThread()) {
            return; // closed from a subscriber: it cannot wait for itself; its drain delivers the rest
        }
        long deadline = System.nanoTime() + waitNanos;
        boolean drained;
        while (!(drained = wip.get() <= 0) && System.nanoTime() - deadline < 0) {
            LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(1));
        }
        if (!drained) {
            stopped = true;
            Races.at(EventRaces.CLOSE_GAVE_UP);
            for (BreakerEvent e; (e = queue.poll()) != null; ) {
                size.decrementAndGet();
                dropped.increment();
            }
            if (thread != null) {
                thread.interrupt(); // a subscriber still holds the bus's own thread: ask it to let go, so it ends
            }
        }
        if (thread != null) {
            LockSupport.unpark(thread);
            try { // on its way out, unless a subscriber holds it: wait for it, not past the deadline
                TimeUnit.NANOSECONDS.timedJoin(thread, deadline - System.nanoTime());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt(); // the closer asked not to wait; the thread still ends
            }
        }
    }

    /**
     * The bus became unreachable without being closed: nobody can publish any more, so its thread
     * delivers what waits and ends. Does not wait (it runs on a cleaner's thread).
     */
    void abandon() {
        closed = true;
        if (thread != null) {
            LockSupport.unpark(thread);
        }
    }
}
