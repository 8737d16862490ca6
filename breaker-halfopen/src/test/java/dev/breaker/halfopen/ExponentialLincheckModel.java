package dev.breaker.halfopen;

import dev.breaker.State;

/**
 * The sequential specification Lincheck checks {@link ExponentialLincheckTests} against: the same
 * operations on {@link ExponentialModel} and two slots of held permits.
 */
public final class ExponentialLincheckModel {

    private final ExponentialModel model = new ExponentialModel(ExponentialLincheckTests.SETTINGS, 0);
    /** The generation each slot's permit was granted in, or -1 for an empty slot. */
    private final long[] slots = {-1, -1};

    private long now;

    /** Lincheck makes one per scenario. */
    public ExponentialLincheckModel() {}

    /** @return whether granted */
    public boolean acquireA() {
        return acquire(0);
    }

    /** Reports success on slot A. */
    public void successA() {
        report(0, true);
    }

    /** Reports failure on slot A. */
    public void failureA() {
        report(0, false);
    }

    /** @return whether granted */
    public boolean acquireB() {
        return acquire(1);
    }

    /** Reports success on slot B. */
    public void successB() {
        report(1, true);
    }

    /** Reports failure on slot B. */
    public void failureB() {
        report(1, false);
    }

    private boolean acquire(int slot) {
        long generation = model.acquire(now);
        if (generation >= 0) {
            slots[slot] = generation;
        }
        return generation >= 0;
    }

    private void report(int slot, boolean success) {
        long generation = slots[slot];
        slots[slot] = -1;
        if (generation >= 0) {
            model.report(generation, success, now);
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

    /** @return rejections so far (ramp rejections included) */
    public long rejected() {
        return model.rejected;
    }
}
