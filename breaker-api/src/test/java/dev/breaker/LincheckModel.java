package dev.breaker;

/**
 * The sequential specification Lincheck checks {@link BreakerLincheckTests} against: the same
 * operations, on {@link BreakerModel} and a plain array of held permits.
 */
public final class LincheckModel {

    private final BreakerModel model = new BreakerModel(
            BreakerLincheckTests.THRESHOLD,
            BreakerLincheckTests.PROBES,
            BreakerLincheckTests.COOLDOWN,
            BreakerLincheckTests.MAX_HALF_OPEN,
            BreakerLincheckTests.BACK_OFF_MAX);
    /** The generation each slot's permit was granted in, or -1 for an empty slot. */
    private final long[] slots = {-1, -1};

    private long now;

    /** Lincheck makes one per scenario. */
    public LincheckModel() {}

    /** @return whether granted */
    public boolean acquireA() {
        return acquire(0);
    }

    /** Reports success on slot A. */
    public void successA() {
        report(0, Outcome.SUCCESS);
    }

    /** Reports failure on slot A. */
    public void failureA() {
        report(0, Outcome.FAILURE);
    }

    /** Releases slot A. */
    public void releaseA() {
        report(0, Outcome.IGNORED);
    }

    /** Reports a back-off verdict on slot A. */
    public void backOffA() {
        backOff(0);
    }

    /** @return whether granted */
    public boolean acquireB() {
        return acquire(1);
    }

    /** Reports success on slot B. */
    public void successB() {
        report(1, Outcome.SUCCESS);
    }

    /** Reports failure on slot B. */
    public void failureB() {
        report(1, Outcome.FAILURE);
    }

    /** Releases slot B. */
    public void releaseB() {
        report(1, Outcome.IGNORED);
    }

    /** Reports a back-off verdict on slot B. */
    public void backOffB() {
        backOff(1);
    }

    private void backOff(int slot) {
        long generation = slots[slot];
        slots[slot] = -1;
        if (generation >= 0) {
            model.backOff(generation, BreakerLincheckTests.ASKED_DELAY, now);
        }
    }

    private boolean acquire(int slot) {
        long generation = model.acquire(now);
        if (generation >= 0) {
            slots[slot] = generation;
        }
        return generation >= 0;
    }

    private void report(int slot, Outcome outcome) {
        long generation = slots[slot];
        slots[slot] = -1;
        if (generation >= 0) {
            model.report(generation, outcome, now);
        }
    }

    /** @param nanos how far the clock moves */
    public void advance(int nanos) {
        now += nanos;
    }

    /** @return the state */
    public State state() {
        return model.state;
    }

    /** @return the generation */
    public long generation() {
        return model.generation;
    }

    /** Resets the model. */
    public void reset() {
        model.reset(now);
    }
}
