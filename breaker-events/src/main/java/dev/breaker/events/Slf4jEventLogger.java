package dev.breaker.events;

import dev.breaker.BreakerEvent;
import dev.breaker.BreakerListener;
import dev.breaker.CallObserver;
import dev.breaker.CircuitBreaker;
import dev.breaker.LateResult;
import dev.breaker.State;
import dev.breaker.StateTransition;
import dev.breaker.Ticker;
import dev.breaker.TripSuppressed;
import dev.breaker.internal.race.Races;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs what breakers do through SLF4J: one line per state transition, and rejections summarised,
 * never a line per rejected call. Attach it both ways, as a listener for the events and as an
 * observer for the rejections:
 *
 * <pre>{@code
 * Slf4jEventLogger log = Slf4jEventLogger.create();          // logger "dev.breaker.events"
 * CircuitBreaker b = CircuitBreaker.builder("payments").listener(log).observer(log).build();
 * }</pre>
 *
 * <table>
 * <caption>What is logged, and at which level</caption>
 * <tr><th>what</th><th>level</th><th>example</th></tr>
 * <tr><td>a {@link StateTransition} to OPEN</td><td>WARN</td>
 *     <td>{@code breaker 'payments' CLOSED -> OPEN (WINDOW_TRIPPED, generation 1): 20 calls, failure rate 55.0%,
 *     slow-call rate 10.0%}</td></tr>
 * <tr><td>any other transition</td><td>INFO</td>
 *     <td>{@code breaker 'payments' HALF_OPEN -> CLOSED (PROBES_SUCCEEDED, generation 3): 2 calls, failure rate 0.0%,
 *     slow-call rate not measured}</td></tr>
 * <tr><td>a {@link TripSuppressed}</td><td>WARN</td>
 *     <td>{@code breaker 'payments' trip suppressed (generation 4): the open-share cap is full, 2 of at most 2
 *     breakers not CLOSED; it stays CLOSED}</td></tr>
 * <tr><td>a {@link LateResult}</td><td>DEBUG</td>
 *     <td>{@code breaker 'payments' late result: a permit of generation 2 reported in generation 5; it decided
 *     nothing}</td></tr>
 * <tr><td>rejections, summarised</td><td>INFO</td>
 *     <td>{@code breaker 'payments' rejected 48213 calls in the last 10.0 s (state OPEN)}</td></tr>
 * </table>
 *
 * <p>The figures of a transition are those it was decided on (see {@link StateTransition}); rates
 * are printed as percentages with one decimal, and a rate that was not measured ({@code NaN}: the
 * slow-call rate of a half-open round) as {@code not measured}.
 *
 * <p><b>Rejections.</b> A summary line says how many calls a breaker rejected since the last one,
 * and in which states (calls shed while a breaker ramps up after recovery count as rejected in
 * CLOSED). It is written at most once per {@linkplain Builder#rejectionSummaryInterval interval}
 * per breaker, by a rejecting thread: no timer thread. Pending rejections are also written, before
 * the transition's own line, whenever the breaker changes state, so a burst that ends because the
 * breaker closes or moves on is reported then, not only when rejections resume.
 *
 * <p><b>What is shared, and the protocol.</b> The logger keeps one small record per breaker name
 * with rejections pending, made by that breaker's first rejection (the only allocation on the
 * rejection path) in a concurrent map; breakers are told apart by name, as the log lines are. A
 * record holds a counter per state and the time its current interval ends ({@code due}), read from
 * the logger's {@link Ticker}; the rejection that makes a record begins its first interval (due one
 * interval after that rejection's reading), so it has nothing to claim and only counts (should two
 * threads make a record at once, the map keeps one, and the other thread's rejection is an ordinary
 * one of that record's interval). A rejection costs a map lookup, one ticker reading, one volatile read
 * of {@code due}, one atomic increment and one volatile read of a flag; no lock is taken.
 *
 * <ol>
 *   <li><b>Claiming an interval.</b> A rejecting thread that reads the ticker at or after {@code due}
 *       tries to move {@code due} one interval past its own reading by compare-and-set. Of the
 *       threads that race there, exactly one succeeds; it empties every counter with
 *       {@code getAndSet(0)} and writes the summary (nothing when they were all zero, as after a
 *       quiet spell: its claim only starts a new interval). The losers and everyone before
 *       {@code due} only count. The claimant counts its own rejection after emptying, so it belongs
 *       to the interval it began. Two claims are therefore at least one interval apart, and the
 *       summary's span is measured from the claim that began its interval.
 *   <li><b>Counting exactly.</b> Counters are only ever incremented, and only ever emptied by
 *       {@code getAndSet(0)}: every rejection is taken by exactly one emptying, whichever threads
 *       race, so the counts in all summaries plus what is still pending equal the rejections
 *       observed.
 *   <li><b>Transitions.</b> The thread that delivers a transition event moves {@code due} one
 *       interval past now unconditionally (a claimant racing it then loses its compare-and-set,
 *       or has already emptied the counters), empties the counters and writes what was pending.
 *   <li><b>Forgetting a breaker that closed.</b> On a transition to CLOSED the record is removed
 *       from the map, then marked retired, then emptied, so a breaker that recovered costs no
 *       memory. A rejecting thread may still hold the record it looked up before the removal: after
 *       its increment it reads the retired flag. If it reads false, its increment came before the
 *       flag was set (all of these are volatile or atomic accesses, which happen in one total
 *       order), hence before the emptying that follows, which takes it. If it reads true, it empties
 *       the record itself and adds what it found to the breaker's current record (making one if
 *       needed, and repeating should that one be retired meanwhile). Either way no rejection is lost
 *       or counted twice.
 *   <li><b>Forgetting a breaker that went quiet.</b> A record that saw no rejection for a whole
 *       interval after its own ended (its breaker was removed from a registry or evicted while
 *       OPEN, or shed calls while ramping up and then closed for good, with no transition to
 *       tell) is written and forgotten the same way, removed, retired, then emptied, by a sweep
 *       over the records. The sweep is claimed like an interval, at most once per interval, by a
 *       thread that made a new record: the map holds only the breakers with rejections in about
 *       the last two intervals, however many come and go.
 * </ol>
 *
 * <p>A rejection decided in one state can reach this observer after the event that ended that state
 * was logged (the observer runs on the rejecting thread, the event on whichever thread delivers
 * it). It is then counted in the breaker's next summary, with its state named there, rather than
 * lost. Calls shed by a ramp-up that ends without a transition likewise wait for the next summary
 * or transition of that breaker, or for the sweep that forgets it.
 *
 * <p><b>Failures.</b> The logger adds no failure of its own: it formats nothing that can throw and
 * holds no lock. What the logging backend or an injected ticker throws propagates to the breaker,
 * which logs and ignores a listener's or an observer's failure (SPEC rule 13). A {@code null} event
 * or argument, which a breaker never passes, is a {@link NullPointerException}: it is a caller's
 * bug, and the {@link BreakerListener} contract says events are never null. An event of a kind
 * added in a later release is ignored.
 *
 * <p>Thread-safe; one logger may serve any number of breakers and registries.
 */
public final class Slf4jEventLogger implements BreakerListener, CallObserver {

    /** The logger name {@link #create()} uses: {@value}. */
    public static final String DEFAULT_LOGGER_NAME = "dev.breaker.events";

    /** How often, at most, rejections of one breaker are summarised unless told otherwise: 10 seconds. */
    public static final Duration DEFAULT_REJECTION_SUMMARY_INTERVAL = Duration.ofSeconds(10);

    /** The longest summary interval accepted: one day (a rarer summary is no summary). */
    public static final Duration MAX_REJECTION_SUMMARY_INTERVAL = Duration.ofDays(1);

    private static final State[] STATES = State.values();

    private final Logger log;
    private final Duration interval;
    private final long intervalNanos;
    private final Ticker ticker;
    private final ConcurrentHashMap<String, Rejections> rejections = new ConcurrentHashMap<>();
    /** When the next sweep for quiet records may run, once {@link #sweepArmed}. */
    private final AtomicLong sweepDue = new AtomicLong();

    private volatile boolean sweepArmed;

    private Slf4jEventLogger(Logger log, Duration interval, Ticker ticker) {
        this.log = log;
        this.interval = interval;
        this.intervalNanos = interval.toNanos();
        this.ticker = ticker;
    }

    /**
     * A logger writing to SLF4J logger {@value #DEFAULT_LOGGER_NAME}, summarising rejections every
     * {@link #DEFAULT_REJECTION_SUMMARY_INTERVAL} at most, with the system ticker.
     *
     * @return a new logger
     */
    public static Slf4jEventLogger create() {
        return builder().build();
    }

    /**
     * Starts building a logger with the defaults of {@link #create()}.
     *
     * @return a builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Logs a transition, a suppressed trip or a late result; a transition first writes the
     * rejections still pending for its breaker.
     *
     * @param event the event
     * @throws NullPointerException when the event is null
     */
    @Override
    public void onEvent(BreakerEvent event) {
        Objects.requireNonNull(event, "event");
        if (event instanceof StateTransition t) {
            transition(t);
        } else if (event instanceof TripSuppressed s) {
            suppressed(s);
        } else if (event instanceof LateResult l) {
            late(l);
        }
    }

    /**
     * Counts a rejection; if the breaker's summary interval is over and this thread claims it,
     * writes the summary of the rejections before this one.
     *
     * @param breaker the breaker that rejected
     * @param state   the state that rejected
     * @throws NullPointerException when an argument is null
     */
    @Override
    public void onRejected(CircuitBreaker breaker, State state) {
        String name = breaker.name();
        int slot = state.ordinal();
        Rejections r = rejections.get(name);
        long now = ticker.read(); // after the lookup: a test's ticker can hold a thread between the two
        Rejections made = null;
        if (r == null) { // this breaker's first rejection since it was made or last closed
            made = new Rejections(now + intervalNanos);
            r = rejections.putIfAbsent(name, made);
        }
        if (r == null) { // this thread made the record: its interval begins now, nothing is due
            r = made;
            forgetQuiet(now); // the map grew: the records of breakers that went quiet may go
        } else {
            long due = r.due.get();
            if (now - due >= 0 && r.due.compareAndSet(due, now + intervalNanos)) {
                summarize(name, r, now - (due - intervalNanos));
            }
        }
        r.counts.incrementAndGet(slot);
        if (r.retired) {
            rescue(name, r, now);
        }
    }

    /**
     * Writes and forgets the records that saw no rejection for a whole interval after theirs
     * ended (see the class comment): at most one sweep per interval, by the thread that made a
     * record and claims the sweep.
     */
    private void forgetQuiet(long now) {
        if (!sweepArmed) { // the first record: the first sweep is due one interval from now
            sweepArmed = true;
            sweepDue.set(now + intervalNanos);
            return;
        }
        long due = sweepDue.get();
        if (now - due < 0 || !sweepDue.compareAndSet(due, now + intervalNanos)) {
            return;
        }
        for (java.util.Map.Entry<String, Rejections> e : rejections.entrySet()) {
            Rejections r = e.getValue();
            long ends = r.due.get();
            // claimed as a summary claims an interval, so no rejecting thread writes it too
            if (now - ends >= intervalNanos && r.due.compareAndSet(ends, now + intervalNanos)) {
                if (rejections.remove(e.getKey(), r)) {
                    r.retired = true; // after the removal, before the emptying, as for a breaker that closed
                }
                summarize(e.getKey(), r, now - (ends - intervalNanos));
            }
        }
    }

    /** The rejections of this name not yet written (for tests; exact when no thread is counting). */
    long pendingRejections(String breakerName) {
        Rejections r = rejections.get(breakerName);
        long pending = 0;
        if (r != null) {
            for (int s = 0; s < STATES.length; s++) {
                pending += r.counts.get(s);
            }
        }
        return pending;
    }

    /** How many breaker names have a record (for tests). */
    int trackedBreakers() {
        return rejections.size();
    }

    private void transition(StateTransition t) {
        String name = t.breakerName();
        Rejections r = name == null ? null : rejections.get(name);
        if (r != null) {
            long now = ticker.read();
            long due = r.due.getAndSet(now + intervalNanos);
            if (t.to() == State.CLOSED) {
                rejections.remove(name, r);
                r.retired = true; // after the removal, before the emptying: see the class comment
            }
            summarize(name, r, now - (due - intervalNanos));
        }
        boolean opened = t.to() == State.OPEN;
        if (opened ? log.isWarnEnabled() : log.isInfoEnabled()) {
            StringBuilder line = new StringBuilder(160)
                    .append("breaker '")
                    .append(name)
                    .append("' ")
                    .append(t.from())
                    .append(" -> ")
                    .append(t.to())
                    .append(" (")
                    .append(t.reason())
                    .append(", generation ")
                    .append(t.generation())
                    .append("): ")
                    .append(t.calls())
                    .append(t.calls() == 1 ? " call" : " calls")
                    .append(", failure rate ")
                    .append(percent(t.failureRate()))
                    .append(", slow-call rate ")
                    .append(percent(t.slowCallRate()));
            if (opened) {
                log.warn(line.toString());
            } else {
                log.info(line.toString());
            }
        }
    }

    private void suppressed(TripSuppressed s) {
        if (log.isWarnEnabled()) {
            log.warn("breaker '" + s.breakerName() + "' trip suppressed (generation " + s.generation()
                    + "): the open-share cap is full, " + s.notClosed() + " of at most " + s.limit()
                    + " breakers not CLOSED; it stays CLOSED");
        }
    }

    private void late(LateResult l) {
        if (log.isDebugEnabled()) {
            log.debug("breaker '" + l.breakerName() + "' late result: a permit of generation " + l.permitGeneration()
                    + " reported in generation " + l.currentGeneration() + "; it decided nothing");
        }
    }

    /** Empties every counter of {@code r} and writes what it held, if anything. */
    private void summarize(String name, Rejections r, long spanNanos) {
        long[] taken = new long[STATES.length]; // once per interval or transition, never per rejection
        long total = 0;
        int statesSeen = 0;
        for (int s = 0; s < STATES.length; s++) {
            taken[s] = r.counts.getAndSet(s, 0);
            if (taken[s] != 0) {
                total += taken[s];
                statesSeen++;
            }
        }
        if (total == 0 || !log.isInfoEnabled()) {
            return;
        }
        StringBuilder line = new StringBuilder(120)
                .append("breaker '")
                .append(name)
                .append("' rejected ")
                .append(total)
                .append(total == 1 ? " call" : " calls")
                .append(" in the last ")
                .append(span(spanNanos))
                .append(" (");
        if (statesSeen == 1) {
            for (int s = 0; s < STATES.length; s++) {
                if (taken[s] != 0) {
                    line.append("state ").append(STATES[s]);
                }
            }
        } else {
            String separator = "";
            for (int s = 0; s < STATES.length; s++) {
                if (taken[s] != 0) {
                    line.append(separator).append(STATES[s]).append(' ').append(taken[s]);
                    separator = ", ";
                }
            }
        }
        log.info(line.append(')').toString());
    }

    /** Moves what a retired record holds to the breaker's current one; see the class comment. */
    private void rescue(String name, Rejections retired, long now) {
        for (Rejections from = retired; from != null; ) {
            Rejections to = null;
            for (int s = 0; s < STATES.length; s++) {
                long n = from.counts.getAndSet(s, 0);
                if (n != 0) {
                    if (to == null) {
                        to = rejections.computeIfAbsent(name, k -> new Rejections(now + intervalNanos));
                        Races.at(EventRaces.RESCUE_TARGET);
                    }
                    to.counts.addAndGet(s, n);
                }
            }
            from = to != null && to.retired ? to : null;
        }
    }

    /** A share in [0, 1] as a percentage with one decimal; NaN (not measured) in words. */
    static String percent(double share) {
        if (Double.isNaN(share)) {
            return "not measured";
        }
        return String.format(Locale.ROOT, "%.1f%%", share * 100);
    }

    /** A span for people: milliseconds below a second, then seconds, minutes or hours with one decimal. */
    static String span(long nanos) {
        long n = Math.max(0, nanos);
        if (n < 1_000_000_000L) {
            return n / 1_000_000 + " ms";
        }
        double seconds = n / 1e9;
        if (seconds < 100) {
            return String.format(Locale.ROOT, "%.1f s", seconds);
        }
        if (seconds < 6000) {
            return String.format(Locale.ROOT, "%.1f min", seconds / 60);
        }
        return String.format(Locale.ROOT, "%.1f h", seconds / 3600);
    }

    /**
     * Names the logger and the interval.
     *
     * @return for example {@code Slf4jEventLogger[logger=dev.breaker.events, rejectionSummaryInterval=PT10S]}
     */
    @Override
    public String toString() {
        return "Slf4jEventLogger[logger=" + log.getName() + ", rejectionSummaryInterval=" + interval + "]";
    }

    /** One breaker name's pending rejections; see the class comment for who touches what. */
    private static final class Rejections {
        /** Rejections not yet written, by {@link State#ordinal()}. */
        final AtomicLongArray counts = new AtomicLongArray(STATES.length);
        /** The ticker reading at which the current interval ends. */
        final AtomicLong due;
        /** Set once, after this record left the map; the counters are emptied after it is set. */
        volatile boolean retired;

        Rejections(long due) {
            this.due = new AtomicLong(due);
        }
    }

    /**
     * Builds a {@link Slf4jEventLogger}. Every setter checks its argument at once and names the
     * setting and the value in its exception; a rejected value leaves the builder unchanged.
     */
    public static final class Builder {
        private Logger logger;
        private String loggerName = DEFAULT_LOGGER_NAME;
        private Duration interval = DEFAULT_REJECTION_SUMMARY_INTERVAL;
        private Ticker ticker = Ticker.system();

        private Builder() {}

        /**
         * The name of the SLF4J logger to write to (the last of this and {@link #logger} wins).
         *
         * @param name not blank; default {@value Slf4jEventLogger#DEFAULT_LOGGER_NAME}
         * @return this builder
         * @throws NullPointerException     when the name is null
         * @throws IllegalArgumentException when the name is blank
         */
        public Builder loggerName(String name) {
            Objects.requireNonNull(name, "loggerName");
            if (name.isBlank()) {
                throw new IllegalArgumentException("loggerName must not be blank, was '" + name + "'");
            }
            this.loggerName = name;
            this.logger = null;
            return this;
        }

        /**
         * The SLF4J logger to write to (the last of this and {@link #loggerName} wins).
         *
         * @param logger not null
         * @return this builder
         * @throws NullPointerException when the logger is null
         */
        public Builder logger(Logger logger) {
            this.logger = Objects.requireNonNull(logger, "logger");
            return this;
        }

        /**
         * How often, at most, one breaker's rejections are summarised.
         *
         * @param interval positive, at most {@link Slf4jEventLogger#MAX_REJECTION_SUMMARY_INTERVAL};
         *                 default {@link Slf4jEventLogger#DEFAULT_REJECTION_SUMMARY_INTERVAL}
         * @return this builder
         * @throws NullPointerException     when the interval is null
         * @throws IllegalArgumentException when the interval is zero, negative or longer than a day
         */
        public Builder rejectionSummaryInterval(Duration interval) {
            Objects.requireNonNull(interval, "rejectionSummaryInterval");
            if (interval.isZero() || interval.isNegative()) {
                throw new IllegalArgumentException("rejectionSummaryInterval must be positive, was " + interval);
            }
            if (interval.compareTo(MAX_REJECTION_SUMMARY_INTERVAL) > 0) {
                throw new IllegalArgumentException("rejectionSummaryInterval must be at most "
                        + MAX_REJECTION_SUMMARY_INTERVAL + ", was " + interval);
            }
            this.interval = interval;
            return this;
        }

        /**
         * The time source for summary intervals; a fake one in tests.
         *
         * @param ticker monotonic nanoseconds; default {@link Ticker#system()}
         * @return this builder
         * @throws NullPointerException when the ticker is null
         */
        public Builder ticker(Ticker ticker) {
            this.ticker = Objects.requireNonNull(ticker, "ticker");
            return this;
        }

        /**
         * Builds the logger; the SLF4J logger is looked up now when given by name.
         *
         * @return a new logger
         */
        public Slf4jEventLogger build() {
            Logger l = logger != null ? logger : LoggerFactory.getLogger(loggerName);
            return new Slf4jEventLogger(l, interval, ticker);
        }
    }
}
