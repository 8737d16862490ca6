package dev.breaker;

import java.util.concurrent.atomic.AtomicLong;

/**
 * One CLOSED era's ramp-up after recovery (SPEC rule 16): the running credit that turns the
 * policy's shares into admissions, with no random draw.
 *
 * <p><b>Concurrency.</b> The credit is one {@link AtomicLong} in fixed point (32 fractional
 * bits), shared by every request of the ramp. A request adds its share with one
 * {@code getAndAdd} and is admitted when that addition carried the integer part over a whole
 * unit. The additions are totally ordered by the atomic, so the whole units crossed are the
 * admissions, exactly: after any set of requests, the number admitted is the integer part of the
 * sum of their shares, whatever the interleaving (the total is the same in every order), and a
 * share of at most one unit crosses at most one. Each share is rounded up to the fixed point, so
 * the credit is never below the true sum and above it by less than 2^-32 per request. No lock, no retry loop; the cost is one
 * contended add per request, and only during a ramp: the snapshot of an era without a ramp has
 * none, and the one the ramp ends with is replaced by one without it.
 */
final class Ramp {

    /** One whole call in the credit's fixed point. */
    static final long UNIT = 1L << 32;

    /** How long the ramp lasts from the close. */
    final long nanos;

    private final AtomicLong credit = new AtomicLong();

    Ramp(long nanos) {
        this.nanos = nanos;
    }

    /**
     * Adds one request's share to the credit.
     *
     * @param share in (0, 1]
     * @return whether the request is admitted (the credit's integer part rose)
     */
    boolean admit(double share) {
        // rounded up: each request adds at least its share, so a sum of shares that is a whole
        // number (five shares of 0.2) is reached, never missed by rounding; the excess is below
        // 2^-32 per request, so the credit stays within one call of the sum for 2^32 requests
        long add = Math.max(1, Math.min(UNIT, (long) Math.ceil(share * UNIT)));
        long before = credit.getAndAdd(add);
        return ((before + add) >>> 32) != (before >>> 32);
    }
}
