package dev.breaker;

/**
 * The SPEC as a plain sequential program: consecutive window, fixed cooldown, N probes that must
 * all succeed, a maximum half-open duration, generations, late results, back-off verdicts (rule
 * 19). Time is unbounded (no wrap). Used as the oracle of {@link BreakerChainProperties}.
 */
final class BreakerModel {

    final int threshold;
    final int probes;
    final long cooldown;
    final long maxHalfOpen;
    final long backOffMax;

    State state = State.CLOSED;
    long generation;
    long since;
    long openFor;
    int run;
    int admitted;
    int successes;
    long rejected;
    long late;

    BreakerModel(int threshold, int probes, long cooldown, long maxHalfOpen, long backOffMax) {
        this.threshold = threshold;
        this.probes = probes;
        this.cooldown = cooldown;
        this.maxHalfOpen = maxHalfOpen;
        this.backOffMax = backOffMax;
    }

    /** @return the permit's generation, or -1 when rejected */
    long acquire(long now) {
        switch (state) {
            case CLOSED:
                return generation;
            case OPEN:
                if (now - since < openFor) {
                    rejected++;
                    return -1;
                }
                enter(State.HALF_OPEN, now);
                admitted = 1;
                return generation;
            case HALF_OPEN:
                if (now - since >= maxHalfOpen) {
                    enter(State.OPEN, now);
                } else if (admitted < probes) {
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

    void report(long permitGeneration, Outcome outcome, long now) {
        if (outcome == Outcome.IGNORED) { // a release carries no outcome: never late, decides nothing
            if (permitGeneration == generation && state == State.HALF_OPEN) {
                admitted--;
            }
            return;
        }
        if (permitGeneration != generation) {
            late++;
            return;
        }
        if (state == State.CLOSED) {
            if (outcome == Outcome.SUCCESS) {
                run = 0;
            } else if (outcome == Outcome.FAILURE && ++run >= threshold) {
                enter(State.OPEN, now);
            }
            return;
        }
        // HALF_OPEN: a probe of this round
        if (now - since >= maxHalfOpen) {
            enter(State.OPEN, now);
        } else if (outcome == Outcome.FAILURE) {
            enter(State.OPEN, now);
        } else if (++successes >= probes) {
            enter(State.CLOSED, now);
        }
    }

    /** A failure whose dependency asked for a pause of {@code delay}: rule 19. */
    void backOff(long permitGeneration, long delay, long now) {
        if (delay <= 0) {
            report(permitGeneration, Outcome.FAILURE, now);
            return;
        }
        if (permitGeneration != generation) {
            late++;
            return;
        }
        enter(State.OPEN, now);
        openFor = Math.min(delay, backOffMax);
    }

    void isolate(long now) {
        if (state != State.ISOLATED) {
            enter(State.ISOLATED, now);
        }
    }

    void reset(long now) {
        enter(State.CLOSED, now);
    }

    private void enter(State next, long now) {
        state = next;
        generation++;
        since = now;
        run = 0;
        admitted = 0;
        successes = 0;
        openFor = cooldown;
    }
}
