package dev.breaker;

import java.util.concurrent.atomic.LongAdder;

/**
 * A breaker's calls by outcome since it was made, whatever its window: one striped increment per
 * settled call ({@link LongAdder}: uncontended, one compare-and-set on its base; contended, a
 * cell of the thread's own). Each call lands in exactly one counter, so the slow ones are kept
 * apart and added back when read.
 */
final class Totals {

    private final LongAdder fastSuccesses = new LongAdder();
    private final LongAdder slowSuccesses = new LongAdder();
    private final LongAdder fastFailures = new LongAdder();
    private final LongAdder slowFailures = new LongAdder();
    private final LongAdder ignored = new LongAdder();

    void record(boolean failed, boolean slow) {
        (failed ? (slow ? slowFailures : fastFailures) : (slow ? slowSuccesses : fastSuccesses)).increment();
    }

    void ignored() {
        ignored.increment();
    }

    long slowSuccesses() {
        return slowSuccesses.sum();
    }

    long slowFailures() {
        return slowFailures.sum();
    }

    long successes(long slow) {
        return fastSuccesses.sum() + slow;
    }

    long failures(long slow) {
        return fastFailures.sum() + slow;
    }

    /**
     * Every counter, for telling whether calls were counted between two readings.
     *
     * @return each counter's value, in a fixed order: equal arrays mean no call was counted in between
     */
    long[] each() {
        return new long[] {
            fastSuccesses.sum(), slowSuccesses.sum(), fastFailures.sum(), slowFailures.sum(), ignored.sum()
        };
    }

    long ignoredCalls() {
        return ignored.sum();
    }
}
