package dev.breaker.halfopen;

import dev.breaker.State;

/**
 * SPEC rules 1 to 7 and 14 to 16 as a plain sequential program: a consecutive-failure window,
 * the exponential cooldown (no jitter) with its calm period, rounds of {@code probes} that close
 * on {@code closeAfter} successes, a ramp-up after a round closes, a maximum half-open duration,
 * generations and late results. Time is unbounded (no wrap). The oracle of
 * {@link ExponentialChainProperties} and {@link ExponentialLincheckModel}.
 *
 * <p>Ramp shares are summed as exact fractions of {@code rampNanos * 2}: the tests choose
 * settings whose shares are such fractions, so the model needs no floating point.
 */
final class ExponentialModel {

    /** The settings the model and the breaker under test share. */
    record Settings(
            int threshold,
            long initial,
            long multiplier,
            long max,
            int probes,
            int closeAfter,
            long calm,
            long ramp,
            long rampFromHalves,
            long maxHalfOpen) {}

    final Settings s;

    State state = State.CLOSED;
    long generation;
    long since;
    int opens;
    long cooldown;
    int run;
    int admitted;
    int successes;
    int failures;
    boolean ramping;
    /** The ramp's credit, in units of 1 / (2 * ramp). */
    long credit;

    long rejected;
    long late;

    /**
     * @param s     the settings (rampFromHalves: the ramp's first share is this over 2, 1 or 2)
     * @param start the time the breaker was made
     */
    ExponentialModel(Settings s, long start) {
        this.s = s;
        this.since = start;
    }

    long cooldownFor(int k) {
        long w = s.initial;
        for (int i = 1; i < k && w < s.max; i++) {
            w *= s.multiplier;
        }
        return Math.min(w, s.max);
    }

    private void enter(State to, long now) {
        state = to;
        generation++;
        since = now;
        admitted = 0;
        successes = 0;
        failures = 0;
        run = 0;
        ramping = false;
        credit = 0;
    }

    private void open(int k, long now) {
        enter(State.OPEN, now);
        opens = k;
        cooldown = cooldownFor(k);
    }

    /** @return the permit's generation, or -1 when rejected */
    long acquire(long now) {
        switch (state) {
            case CLOSED:
                if (ramping) {
                    long elapsed = now - since;
                    if (elapsed >= s.ramp) {
                        ramping = false;
                        return generation;
                    }
                    // share = from + (1 - from) * elapsed / ramp, in units of 1 / (2 * ramp)
                    long share = s.rampFromHalves * s.ramp + (2 - s.rampFromHalves) * elapsed;
                    long unit = 2 * s.ramp;
                    long before = credit / unit;
                    credit += share;
                    if (credit / unit > before) {
                        return generation;
                    }
                    rejected++;
                    return -1;
                }
                return generation;
            case OPEN:
                if (now - since < cooldown) {
                    rejected++;
                    return -1;
                }
                int k = opens;
                long c = cooldown;
                enter(State.HALF_OPEN, now);
                opens = k;
                cooldown = c;
                admitted = 1;
                return generation;
            case HALF_OPEN:
                if (now - since >= s.maxHalfOpen) {
                    open(opens + 1, now);
                    rejected++;
                    return -1;
                }
                if (admitted < s.probes) {
                    admitted++;
                    return generation;
                }
                rejected++;
                return -1;
            default:
                rejected++;
                return -1;
        }
    }

    /** A report of {@code outcome} (true: success, false: failure, null: release) on a permit of {@code g}. */
    void report(long g, Boolean outcome, long now) {
        if (outcome == null) {
            if (g == generation && state == State.HALF_OPEN) {
                admitted--;
            }
            return;
        }
        if (state == State.HALF_OPEN && g == generation && now - since >= s.maxHalfOpen) {
            open(opens + 1, now); // the round timed out: the report that sees it reopens, and is not late
            return;
        }
        if (g != generation) {
            late++;
            return;
        }
        if (state == State.CLOSED) {
            if (outcome) {
                run = 0;
            } else if (++run >= s.threshold) {
                int carried = s.calm == 0 || now - since >= s.calm ? 0 : opens;
                open(carried + 1, now);
            }
            return;
        }
        // HALF_OPEN
        if (outcome) {
            successes++;
        } else {
            failures++;
        }
        if (successes >= s.closeAfter) {
            int k = opens;
            enter(State.CLOSED, now);
            opens = k;
            ramping = s.ramp > 0;
        } else if (failures > s.probes - s.closeAfter) {
            open(opens + 1, now);
        }
    }

    void reset(long now) {
        enter(State.CLOSED, now);
        opens = 0;
    }
}
