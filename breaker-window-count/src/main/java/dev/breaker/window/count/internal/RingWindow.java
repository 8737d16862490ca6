package dev.breaker.window.count.internal;

import dev.breaker.Ticker;
import dev.breaker.spi.FailureStreak;
import dev.breaker.spi.RateThresholds;
import dev.breaker.spi.Window;
import dev.breaker.spi.WindowCounts;
import dev.breaker.spi.WindowFactory;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The last {@code size} outcomes in a ring, with running totals, lock-free and allocation-free.
 *
 * <p><b>What is shared.</b> A cursor (a long that only grows), the ring of one-byte outcome codes,
 * and one long that packs the three running totals (calls, failures, slow calls) as 21-bit fields.
 *
 * <p><b>Recording.</b> {@code getAndAdd} on the cursor gives each outcome its own position; the
 * slot at that position modulo {@code size} is swapped with {@code getAndSet}, which returns the
 * outcome it evicts; the totals then change by (new - evicted), one {@code getAndAdd} of a packed
 * difference. Each outcome is therefore added exactly once and removed exactly once, so when the
 * writers are done the totals are exactly the content of the ring: the last {@code size}
 * outcomes by position. When the slot already holds the same outcome the swap is skipped: writing
 * it would change neither the ring nor the totals, so the invariant "totals = content" holds.
 * <p><b>The healthy steady state writes nothing.</b> When the totals say the ring holds
 * {@code size} plain successes, one more plain success cannot change the ring's content, whichever
 * slot it would evict, so it is not written at all: it linearizes at its read of the totals (a
 * failure recorded concurrently is ordered after it). A healthy dependency therefore costs each
 * call one volatile read of a line nobody writes, and threads do not contend.
 *
 * <p><b>Why a bias.</b> Two writers may apply their differences out of order (the evictor of a
 * slot before the writer that filled it), so a field can dip below zero for an instant. Each field
 * holds its value plus 2^20, so a transient -1 never borrows from its neighbour; {@link #MAX_SIZE}
 * keeps the largest true value clear of the top. While writers are running a reader may see
 * such an instant (the counts are clamped into a consistent snapshot); at rest they are exact.
 *
 * <p><b>Why no lock.</b> Every call of the service writes here; a lock would serialise them.
 * The trip decision reads the totals the caller's own atomic add returned: O(1), no scan.
 */
public final class RingWindow implements Window {

    /** Field width of the packed totals. */
    private static final int BITS = 21;

    private static final long MASK = (1L << BITS) - 1;
    private static final long BIAS = 1L << (BITS - 1);
    /** The largest ring: 2^20 less a margin for in-flight writers. */
    public static final int MAX_SIZE = 1_000_000;

    private static final byte RECORDED = 1;
    private static final byte FAILED = 2;
    private static final byte SLOW = 4;
    /** Packed contribution of each outcome code to the totals. */
    private static final long[] CONTRIBUTION = new long[8];

    private static final long EMPTY_TOTALS = BIAS | (BIAS << BITS) | (BIAS << (2 * BITS));

    private static final VarHandle CURSOR;
    private static final VarHandle TOTALS;
    private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(byte[].class);

    static {
        for (int code = 0; code < 8; code++) {
            CONTRIBUTION[code] = (code & RECORDED)
                    + ((long) ((code & FAILED) >> 1) << BITS)
                    + ((long) ((code & SLOW) >> 2) << (2 * BITS));
        }
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            CURSOR = lookup.findVarHandle(RingWindow.class, "cursor", long.class);
            TOTALS = lookup.findVarHandle(RingWindow.class, "totals", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final int size;
    /** The packed totals of a ring holding {@code size} plain successes. */
    private final long fullOfSuccesses;

    private final byte[] slots;
    private final RateThresholds thresholds;
    /** Null when there is no consecutive-failure limit. */
    private final FailureStreak streak;
    /*
     * The two contended words sit on their own cache lines (padding on both sides), so writing
     * them does not evict the read-only fields above from the other cores' caches.
     */
    @SuppressWarnings("unused")
    private long p01, p02, p03, p04, p05, p06, p07;

    @SuppressWarnings("unused") // accessed through CURSOR
    private volatile long cursor;

    @SuppressWarnings("unused")
    private long p11, p12, p13, p14, p15, p16, p17;

    @SuppressWarnings("unused") // accessed through TOTALS
    private volatile long totals = EMPTY_TOTALS;

    @SuppressWarnings("unused")
    private long p21, p22, p23, p24, p25, p26, p27;

    private RingWindow(int size, RateThresholds thresholds, int consecutiveFailures) {
        this.size = size;
        this.fullOfSuccesses = EMPTY_TOTALS + size * CONTRIBUTION[RECORDED];
        this.slots = new byte[size];
        this.thresholds = thresholds;
        this.streak = consecutiveFailures > 0 ? new FailureStreak(consecutiveFailures) : null;
    }

    /**
     * Makes a factory of rings; arguments already validated by the builder or provider.
     *
     * @param size                1 to {@link #MAX_SIZE}
     * @param thresholds          the rate rule
     * @param consecutiveFailures a run that also trips, or 0 for none
     * @return the factory
     */
    public static WindowFactory factory(int size, RateThresholds thresholds, int consecutiveFailures) {
        if (size < 1 || size > MAX_SIZE) {
            throw new IllegalArgumentException("size must be in [1, " + MAX_SIZE + "], was " + size);
        }
        return new Factory(size, thresholds, consecutiveFailures);
    }

    @Override
    public boolean record(boolean failure, boolean slow) {
        int code = RECORDED | (failure ? FAILED : 0) | (slow ? SLOW : 0);
        if (code == RECORDED && (long) TOTALS.getVolatile(this) == fullOfSuccesses) {
            // size successes in the ring: one more, whichever it evicts, leaves the same content
            if (streak != null) {
                streak.record(false);
            }
            return false;
        }
        long position = (long) CURSOR.getAndAdd(this, 1L);
        int slot = (int) (position % size);
        int evicted = (byte) SLOTS.getVolatile(slots, slot);
        if (evicted != code) {
            evicted = (byte) SLOTS.getAndSet(slots, slot, (byte) code);
        }
        long now;
        if (evicted == code) {
            now = (long) TOTALS.getVolatile(this);
        } else {
            long delta = CONTRIBUTION[code] - CONTRIBUTION[evicted];
            now = (long) TOTALS.getAndAdd(this, delta) + delta;
        }
        long calls = clamp(field(now, 0), size);
        boolean trips = thresholds.trips(calls, clamp(field(now, 1), calls), clamp(field(now, 2), calls));
        // the streak must see every outcome, so it is consulted even when the rates already trip
        return streak != null ? streak.record(failure) | trips : trips;
    }

    @Override
    public WindowCounts counts() {
        long now = (long) TOTALS.getVolatile(this);
        long calls = clamp(field(now, 0), size);
        return new WindowCounts(calls, clamp(field(now, 1), calls), clamp(field(now, 2), calls));
    }

    private static long field(long packed, int index) {
        return ((packed >>> (index * BITS)) & MASK) - BIAS;
    }

    private static long clamp(long value, long max) {
        return Math.max(0, Math.min(value, max));
    }

    private record Factory(int size, RateThresholds thresholds, int consecutiveFailures) implements WindowFactory {
        @Override
        public Window create(Ticker ticker) {
            return new RingWindow(size, thresholds, consecutiveFailures);
        }

        @Override
        public String describe() {
            return "count(size=" + size + ", " + thresholds
                    + (consecutiveFailures > 0 ? ", consecutiveFailures=" + consecutiveFailures : "") + ")";
        }
    }
}
