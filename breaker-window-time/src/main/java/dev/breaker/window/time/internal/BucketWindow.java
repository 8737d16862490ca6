package dev.breaker.window.time.internal;

import dev.breaker.Ticker;
import dev.breaker.spi.RateThresholds;
import dev.breaker.spi.Window;
import dev.breaker.spi.WindowCounts;
import dev.breaker.spi.WindowFactory;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Outcomes of the last {@code buckets * width} nanoseconds, in a ring of lazily rotated buckets.
 *
 * <p><b>Time.</b> The epoch of an instant is {@code (now - origin) / width}, where {@code origin}
 * is the ticker reading when the window was made: differences only, so a wrapping ticker is
 * harmless. At epoch {@code E} the window holds the buckets of epochs {@code E-buckets+1 .. E};
 * epoch {@code e} lives in slot {@code e % buckets}.
 *
 * <p><b>Rotation, by compare-and-set on the epoch stamp.</b> A bucket's epoch is final. A writer
 * at epoch {@code e} reads its slot: a bucket stamped {@code e} is used; one stamped earlier is
 * replaced by a fresh bucket for {@code e} with one CAS on the slot (the loser re-reads and uses
 * the winner's); one stamped later means epoch {@code e} has already left the window, and the
 * outcome is dropped, correctly. So a bucket is never reset under a writer: a thread still adding
 * into a replaced bucket adds into an object no window reads any more, and its epoch is out of
 * the window anyway. No count is lost from an epoch in the window, and none leaks into a new
 * epoch (the failure Sentinel's issue 3117 describes for buckets reset in place).
 *
 * <p><b>What is exact.</b> {@link #counts()} sums the in-window buckets on every call: exact at
 * bucket granularity once writers are done. The hot path works from an immutable {@code Epoch}
 * made once per epoch by whichever thread first sees it: the epoch's bounds (so finding the epoch
 * needs no division), its bucket (no ring lookup) and the sums of the window's other, closed,
 * buckets (no scan). The trip decision adds the current bucket to those sums. A writer that read its epoch just before a boundary
 * and adds just after it lands in a closed bucket after the cached sums were taken; such a straggler
 * is counted by {@code counts()} and by the next epoch's cached sums, but not by trip decisions
 * during the rest of the current epoch. Single-threaded, every decision is exact.
 *
 * <p><b>Cost.</b> A record is one ticker read, one volatile read of the cached epoch, one to
 * three uncontended striped adds and, only when the window holds a failure or a slow call, a sum
 * over the current bucket's stripes (which reads lines other threads write). A healthy window
 * decides from the cached sums and the bucket's write-once "unhealthy" flag alone. Allocation:
 * one bucket and one epoch view per epoch, nothing per call. An idle window does nothing; no
 * thread exists.
 */
public final class BucketWindow implements Window {

    /** The system property that sets the stripes per bucket (a power of two, 1 to 64). */
    public static final String STRIPES_PROPERTY = "dev.breaker.window.time.stripes";
    /** Stripes per bucket: the property, or else the processors rounded up to a power of two, at most 8. */
    public static final int STRIPES = stripes();

    private static int stripes() {
        Integer forced = Integer.getInteger(STRIPES_PROPERTY);
        if (forced == null) {
            return Math.min(
                    8, Integer.highestOneBit(Math.max(1, Runtime.getRuntime().availableProcessors() - 1)) << 1);
        }
        if (forced < 1 || forced > 64 || Integer.bitCount(forced) != 1) {
            throw new IllegalArgumentException(STRIPES_PROPERTY + " must be a power of two in [1, 64], was " + forced);
        }
        return forced;
    }

    private final Ticker ticker;
    private final long origin;
    private final long width;
    private final int buckets;
    private final RateThresholds thresholds;
    private final AtomicReferenceArray<Bucket> ring;
    /** The current epoch as last seen: its bounds, its bucket, and the sums of the window's other buckets. */
    private volatile Epoch latest; // null until the first record

    /**
     * One epoch, cached so that a record within it needs no division, no ring lookup and no scan.
     * Made once per epoch (by whichever thread first sees it) and never changed.
     *
     * @param epoch     the epoch
     * @param start     its first elapsed nanosecond ({@code epoch * width})
     * @param bucket    its bucket, as installed in the ring
     * @param calls     the window's other buckets at this epoch: outcomes
     * @param failures  their failures
     * @param slowCalls their slow calls
     */
    private record Epoch(long epoch, long start, Bucket bucket, long calls, long failures, long slowCalls) {}

    private BucketWindow(Ticker ticker, long width, int buckets, RateThresholds thresholds) {
        this.ticker = ticker;
        this.origin = ticker.read();
        this.width = width;
        this.buckets = buckets;
        this.thresholds = thresholds;
        this.ring = new AtomicReferenceArray<>(buckets);
    }

    /**
     * Makes a factory; arguments already validated by the builder or provider.
     *
     * @param width      bucket width in nanoseconds, at least 1
     * @param buckets    at least 1
     * @param thresholds the rate rule
     * @return the factory
     */
    public static WindowFactory factory(long width, int buckets, RateThresholds thresholds) {
        if (width < 1 || buckets < 1) {
            throw new IllegalArgumentException("width and buckets must be >= 1, was " + width + " and " + buckets);
        }
        return new Factory(width, buckets, thresholds);
    }

    @Override
    public boolean record(boolean failure, boolean slow) {
        long elapsed = Math.max(0, ticker.read() - origin);
        Epoch e = latest;
        if (e == null || elapsed < e.start || elapsed - e.start >= width) {
            e = epochOf(elapsed / width);
            if (e == null) {
                return false; // the outcome's epoch has already left the window
            }
        }
        Bucket current = e.bucket;
        // thread ids are handed out in sequence, so threads started together take different stripes
        current.add((int) Thread.currentThread().getId() & (STRIPES - 1), failure, slow);
        if ((e.failures | e.slowCalls) == 0 && !current.unhealthy()) {
            return false; // no failure and no slow call in the window: both rates are 0
        }
        return thresholds.trips(
                e.calls + current.calls(), e.failures + current.failures(), e.slowCalls + current.slowCalls());
    }

    @Override
    public WindowCounts counts() {
        long epoch = epoch(ticker.read());
        long[] sum = new long[3];
        for (int i = 0; i < buckets; i++) {
            Bucket b = ring.get(i);
            if (b != null && inWindow(b.epoch, epoch)) {
                b.addTo(sum);
            }
        }
        long calls = sum[0];
        return new WindowCounts(calls, Math.min(sum[1], calls), Math.min(sum[2], calls));
    }

    private long epoch(long now) {
        return Math.max(0, now - origin) / width;
    }

    private boolean inWindow(long bucketEpoch, long epoch) {
        return bucketEpoch <= epoch && bucketEpoch > epoch - buckets;
    }

    /** The bucket of {@code epoch}, rotating its slot if needed; null when the epoch has left the window. */
    private Bucket bucketFor(long epoch) {
        int slot = (int) (epoch % buckets);
        for (; ; ) {
            Bucket b = ring.get(slot);
            if (b != null) {
                if (b.epoch == epoch) {
                    return b;
                }
                if (b.epoch > epoch) {
                    return null;
                }
            }
            Bucket fresh = new Bucket(epoch, STRIPES);
            if (ring.compareAndSet(slot, b, fresh)) {
                return fresh;
            }
        }
    }

    /** The cached view of {@code epoch}, made and published if needed; null when the epoch has left the window. */
    private Epoch epochOf(long epoch) {
        Epoch cached = latest;
        if (cached != null && cached.epoch == epoch) {
            return cached;
        }
        Bucket bucket = bucketFor(epoch);
        if (bucket == null) {
            return null;
        }
        long[] sum = new long[3];
        for (int i = 0; i < buckets; i++) {
            Bucket b = ring.get(i);
            if (b != null && b.epoch != epoch && inWindow(b.epoch, epoch)) {
                b.addTo(sum);
            }
        }
        Epoch fresh = new Epoch(epoch, epoch * width, bucket, sum[0], sum[1], sum[2]);
        if (cached == null || epoch > cached.epoch) {
            latest = fresh; // racing threads compute the same view; any of them may publish it
        }
        return fresh;
    }

    private record Factory(long width, int buckets, RateThresholds thresholds) implements WindowFactory {
        @Override
        public Window create(Ticker ticker) {
            return new BucketWindow(ticker, width, buckets, thresholds);
        }

        @Override
        public String describe() {
            return "time(length=" + Duration.ofNanos(width * buckets) + ", buckets=" + buckets + ", " + thresholds
                    + ")";
        }
    }
}
