package dev.breaker;

import dev.breaker.spi.Window;
import dev.breaker.spi.WindowCounts;
import dev.breaker.spi.WindowFactory;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A window for tests: records what the breaker tells it, trips after {@code tripAfter} failures,
 * and reports counts that a test may change (as a time window's counts change while time passes).
 */
final class RecordingWindow implements Window {

    /** What one {@link #record} call said. */
    record Call(boolean failure, boolean slow) {}

    final List<Call> calls = new CopyOnWriteArrayList<>();
    /** The readings the breaker passed along through {@link #recordAt}, in order. */
    final List<Long> stamps = new CopyOnWriteArrayList<>();

    private final int tripAfter;
    private final AtomicLong failures = new AtomicLong();
    volatile WindowCounts counts = WindowCounts.empty();

    RecordingWindow(int tripAfter) {
        this.tripAfter = tripAfter;
    }

    @Override
    public boolean record(boolean failure, boolean slow) {
        calls.add(new Call(failure, slow));
        counts = new WindowCounts(
                calls.size(),
                failure ? failures.incrementAndGet() : failures.get(),
                calls.stream().filter(Call::slow).count());
        return failure && failures.get() >= tripAfter;
    }

    @Override
    public boolean recordAt(boolean failure, boolean slow, long nowNanos) {
        stamps.add(nowNanos);
        return record(failure, slow);
    }

    @Override
    public WindowCounts counts() {
        return counts;
    }

    /** A factory whose windows are kept, newest last, so tests can look at them. */
    static final class Factory implements WindowFactory {
        final List<RecordingWindow> made = new CopyOnWriteArrayList<>();
        private final int tripAfter;

        Factory(int tripAfter) {
            this.tripAfter = tripAfter;
        }

        @Override
        public Window create(Ticker ticker) {
            RecordingWindow w = new RecordingWindow(tripAfter);
            made.add(w);
            return w;
        }

        RecordingWindow current() {
            return made.get(made.size() - 1);
        }

        @Override
        public String describe() {
            return "recording(tripAfter=" + tripAfter + ")";
        }
    }
}
