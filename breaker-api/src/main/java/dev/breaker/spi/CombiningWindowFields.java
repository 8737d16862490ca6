package dev.breaker.spi;

import dev.breaker.internal.Totals;

/**
 * The fields of a {@link CombiningWindow} that every offer reads, apart from those its lock
 * holder writes while it applies outcomes ({@link CombiningWindowPadding} keeps them a cache line
 * apart): see {@link CombiningWindow}'s class comment for what each one means.
 */
abstract class CombiningWindowFields implements Window {
    /**
     * The stripes, at a fixed index per thread (a hash of its id), made when first used: a
     * thread's outcomes always go to the same stripe, so its order is kept (a thread moved to
     * another stripe could have a later outcome drained before an earlier one).
     */
    volatile Stripe[] stripes; // null until the first stripe: a window used by one thread never needs it
    /**
     * Packed {@code (low 32 bits of the stamp << 32) | share}: buffering is allowed for outcomes of
     * that stamp when the share (each stripe's part of the margin, also set as its budget) is not
     * negative. A stamp that matches only modulo 2^32 is harmless: the entry keeps its full stamp,
     * and the budget, not the gate, bounds what is pending.
     */
    volatile long gate = ((long) Integer.MAX_VALUE << 32) | 0xFFFF_FFFFL;
    /**
     * The holder's stamp as last published ({@code stampLocked()} after a batch): while the
     * {@code HEALTHY} bit is up, a plain success of this stamp is only counted. Written only with
     * the count of successes already at this stamp, and, when the window is not healthy at it,
     * only after the bit is down: so an offer reads it before the flags.
     */
    volatile long published;
    /** The window's {@code HEALTHY}, {@code TRIP_PENDING} and {@code URGENT} bits. */
    @SuppressWarnings("unused") // accessed through FLAGS
    volatile int flags;
    /** Set by a thread that made a stripe; the holder then refreshes its list of stripes. */
    volatile boolean stripesChanged;

    @SuppressWarnings("unused") // accessed through LOCK
    volatile int lock;

    /**
     * True while threads are seen colliding: outcomes are buffered within their margins. False
     * (the start) while one thread at a time records: every outcome takes the lock and is applied
     * at once, and the gate allows no buffering, so no margin needs upkeep.
     */
    volatile boolean buffering;

    /**
     * Set by a recorder that found another recorder holding the lock (their calls overlapped),
     * cleared by the holder that grants the window's lag for it: evidence of concurrent
     * recording, which threads that only take turns never give.
     */
    volatile boolean collided;

    /**
     * The breaker's totals this window counts into, or null (a window used alone). Set under the
     * lock before the breaker publishes the window, so every thread that records into it sees it.
     */
    Totals sink;

    /**
     * Plain successes taken without the lock; part of the breaker's running counts until retired.
     * Made by the holder before it first raises the {@code HEALTHY} flag,
     * and read by offers only after they read that flag, which publishes it.
     */
    CountedSuccesses successes;
}
