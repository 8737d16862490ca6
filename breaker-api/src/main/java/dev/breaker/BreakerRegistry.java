package dev.breaker;

import dev.breaker.internal.Names;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * One breaker per name, made on first use: a service with many dependencies (or one breaker per
 * host) asks the registry instead of keeping its own map.
 *
 * <pre>{@code
 * BreakerRegistry registry = BreakerRegistry.builder()
 *     .defaults(CircuitBreakerConfig.builder().window(Windows.consecutiveFailures(5)).build())
 *     .config("payments", paymentsConfig)
 *     .listener(event -> log(event))          // every breaker, also those made later
 *     .build();
 * CircuitBreaker payments = registry.breaker("payments");
 * }</pre>
 *
 * <p><b>Concurrency.</b> The breakers live in a {@link ConcurrentHashMap}. Asking for an existing
 * name is one lock-free read. A new name is made outside any lock (the window factory is the
 * user's code) and published with {@code putIfAbsent}: two threads that race to make the same
 * name may both build one, but only the first published is ever returned, to either of them, or
 * announced to watchers. The losing one was never used and is simply dropped.
 *
 * <p><b>Idle eviction</b> ({@link Builder#evictIdleAfter}): per-host breakers come and go with
 * the hosts. A sweep reads the ticker once and compares each breaker's running totals (every
 * call it counted, {@link BreakerMetrics}) with what the previous sweep saw: a CLOSED breaker
 * whose totals did not move for at least {@code evictIdleAfter} is removed, and watchers hear of
 * it. Nothing is added to a call: no clock read, no write beyond the totals. Sweeps run when a
 * new name is asked for (at most once per {@code evictIdleAfter}) and whenever
 * {@link #evictIdle()} is called (from a scheduler of yours, say). An evicted breaker keeps
 * working for whoever still holds it, but it is no longer the name's breaker: the registry makes
 * a new one the next time the name is asked for. A breaker that tripped counts as idle once it
 * no longer protects anyone, OPEN with its cooldown over and nobody asking (so a dead host's
 * breaker gives its open-share place back, SPEC rule 18). An OPEN breaker still cooling down, a
 * HALF_OPEN one and an isolated one are never evicted. Idle means no outcome or rejection
 * reported between sweeps: a CLOSED breaker whose calls all take longer than
 * {@code evictIdleAfter} does not keep its place, so make it longer than your longest call.
 *
 * <p><b>Watchers</b> ({@link #watch}) hear of every breaker added and removed, for example a
 * metrics binder. A watcher that throws is logged (WARNING, {@code System.Logger}
 * "dev.breaker") and changes nothing: the breaker is made or removed, and the other watchers
 * still hear of it. A watcher is told of the breakers that exist when it starts watching, then of
 * every change, on the threads that make those changes, so announcements of one name can arrive
 * out of order: a breaker made while the watcher is being added may be announced twice; a breaker
 * removed while it is being announced (by another thread, or by a watcher from {@code added}) may
 * be announced removed before added, then removed again; a name's new breaker may be announced
 * before the old one's {@code removed}. So a watcher treats a second {@code added}, and a
 * {@code removed} of a breaker it does not know, as no-ops, and may ask {@link #find(String)}
 * whether a breaker it is told of is still its name's (the Micrometer binder does). Once the calls
 * have returned, what each watcher was told last of each breaker is what the registry holds.
 */
public final class BreakerRegistry {

    /** Told when the registry adds or removes a breaker; runs on the thread that caused it. */
    public interface Watcher {
        /**
         * A breaker was made (or existed when watching began).
         *
         * @param breaker the breaker
         */
        void added(CircuitBreaker breaker);

        /**
         * A breaker was removed; whoever still holds it may go on using it.
         *
         * @param breaker the breaker
         */
        void removed(CircuitBreaker breaker);
    }

    private final CircuitBreakerConfig defaults;
    private final Map<String, CircuitBreakerConfig> configs;
    private final List<BreakerListener> listeners;
    private final List<CallObserver> observers;
    private final Ticker ticker;
    private final ConcurrentHashMap<String, CircuitBreaker> breakers = new ConcurrentHashMap<>();
    private final CopyOnWriteArrayList<Subscription> watchers = new CopyOnWriteArrayList<>();

    /** One call of {@link #watch}: closing it removes this one (by identity, once), not an equal watcher's. */
    private static final class Subscription {
        final Watcher watcher;

        Subscription(Watcher watcher) {
            this.watcher = watcher;
        }
    }
    /** 0 when eviction is off. */
    private final long idleNanos;
    /** The open-share cap (SPEC rule 18), or null when off. */
    private final OpenShare cap;
    /** One sweep at a time; a thread that finds one running does not wait for it. */
    private final java.util.concurrent.locks.ReentrantLock sweeping = new java.util.concurrent.locks.ReentrantLock();
    // guarded by sweeping
    /** Per breaker: its activity when last seen moving (or not CLOSED), and that sweep's time. */
    private final Map<CircuitBreaker, Seen> seen = new java.util.IdentityHashMap<>();

    private record Seen(long[] activity, long at) {}

    private long lastSweep;
    private boolean swept;

    private BreakerRegistry(Builder b) {
        this.defaults = b.defaults;
        this.configs = Map.copyOf(b.configs);
        this.listeners = List.copyOf(b.listeners);
        this.observers = List.copyOf(b.observers);
        this.ticker = b.ticker;
        this.idleNanos = b.idleNanos;
        this.cap = b.maxOpenShare > 0 ? new OpenShare(b.maxOpenShare) : null;
    }

    /**
     * Starts a registry: defaults from {@link CircuitBreakerConfig#defaults()}, no named configs,
     * no listeners, the system ticker.
     *
     * @return a builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Makes a registry from text properties, such as an application's {@code .properties} file;
     * the same as {@link #fromProperties(Map)} on its string properties (its defaults included).
     *
     * @param properties the properties; keys outside {@code breaker.} are ignored
     * @return the registry, empty, with the system ticker and no listeners
     * @throws IllegalArgumentException when a key under {@code breaker.} is unknown, or a
     *                                  value is bad (also a value that is not
     *                                  a string); the message starts with the whole key
     */
    public static BreakerRegistry fromProperties(Properties properties) {
        return fromProperties(ConfigProperties.strings(properties));
    }

    /**
     * Makes a registry from text properties:
     *
     * <pre>
     * breaker.defaults.window.type = consecutive
     * breaker.defaults.window.threshold = 5
     * breaker.defaults.cooldown = 30s
     * breaker.instances.payments.window.threshold = 2
     * breaker.instances.payments.eu.probes = 3
     * </pre>
     *
     * <ul>
     * <li>{@code breaker.defaults.<key>} make the defaults, starting from
     *     {@link CircuitBreakerConfig#defaults()};
     * <li>{@code breaker.instances.<name>.<key>} make the config of {@code <name>}, starting from
     *     the defaults: it inherits every setting it does not give;
     * <li>{@code breaker.registry.max-open-share} (a rate: {@link Builder#maxOpenShare}) and
     *     {@code breaker.registry.evict-idle-after} (a duration: {@link Builder#evictIdleAfter}).
     * </ul>
     * The {@code <key>}s, their spellings and values are those of
     * {@link CircuitBreakerConfig#fromProperties(Map, String, CircuitBreakerConfig)}. Keys outside
     * {@code breaker.} are not the registry's and are ignored; any other key under it is an
     * error that lists the valid keys.
     *
     * <p><b>Inheritance of plugins.</b> An instance that gives {@code window.type} other than the
     * defaults' window does not inherit the defaults' window settings (they belong to another
     * window); one that gives the same type, or only some {@code window.<setting>} keys, inherits
     * the defaults' type and every window setting it does not give. The same holds for
     * {@code half-open.*} and {@code classifier.*}. The defaults' {@code cooldown} and
     * {@code probes} are the settings of the fixed policy: an instance whose
     * {@code half-open.type} is another policy gets that policy, and the defaults' shorthand is
     * not an error there (the instance's policy wins). An instance's own {@code cooldown} or
     * {@code probes} change the defaults' policy when it is the fixed one, and are an error
     * naming both keys when it is not.
     *
     * <p><b>Names with dots.</b> An instance's name may contain dots ({@code payments.eu}): its key
     * is found from the right, first as {@code <group>.<setting>} (the segment before last being
     * {@code window}, {@code half-open} or {@code classifier}), then as a single setting
     * ({@code cooldown}), and the name is what comes before. The one ambiguity: an instance whose
     * name ends in {@code .window}, {@code .half-open} or {@code .classifier} cannot be given a
     * single setting, since {@code breaker.instances.a.window.probes} is instance {@code a}'s
     * window setting {@code probes} (which the window then refuses, by key).
     *
     * <p><b>Errors.</b> Every error is an {@link IllegalArgumentException} whose message starts
     * with the whole key and names the value; a window or policy name that no module provides gives
     * the message of {@link Windows#named} or {@link HalfOpenPolicies#named}, which lists what is
     * available. Every key is parsed first (in key order: unknown keys,
     * one setting in two spellings), then the defaults' values are read, then each instance's in
     * name order; the first error is thrown, and nothing is built when any key is bad.
     *
     * @param properties the properties; null keys are ignored, a null value under {@code breaker.}
     *                   is an error
     * @return the registry, empty, with the system ticker and no listeners
     * @throws IllegalArgumentException when a key under {@code breaker.} is unknown, or a
     *                                  value is bad
     */
    public static BreakerRegistry fromProperties(Map<String, String> properties) {
        return ConfigProperties.registry(properties).build();
    }

    /**
     * A builder set up from text properties as {@link #fromProperties(Map)} reads them, to add
     * what properties cannot say: listeners, a ticker.
     *
     * @param properties the properties; keys outside {@code breaker.} are ignored
     * @return the builder
     * @throws IllegalArgumentException as {@link #fromProperties(Map)}
     */
    public static Builder builder(Map<String, String> properties) {
        return ConfigProperties.registry(properties);
    }

    /**
     * The breaker of this name, made on first use from its own config or the defaults; the same
     * breaker for the same name until it is removed.
     *
     * @param name not null, not blank
     * @return the breaker
     * @throws NullPointerException     when name is null
     * @throws IllegalArgumentException when name is blank
     */
    public CircuitBreaker breaker(String name) {
        if (name != null) {
            CircuitBreaker existing = breakers.get(name); // a name in the map was checked when it was made
            if (existing != null) {
                return existing;
            }
        }
        CircuitBreaker made = make(checked(name));
        boolean capped = cap != null && !made.config().shadow(); // shadow breakers are outside the cap
        OpenShare.Member member =
                capped ? ((DefaultCircuitBreaker) made).joinCap(cap) : null; // before anyone can use it
        CircuitBreaker raced = breakers.putIfAbsent(name, made);
        if (raced != null) {
            if (capped) {
                ((DefaultCircuitBreaker) made).leaveCap(); // never used: it leaves as it came
            }
            return raced;
        }
        if (member != null) {
            member.admit(); // published: one of the registry's breakers, counted toward the limit
        }
        for (Subscription w : watchers) {
            tell(w.watcher, made, true);
        }
        if (breakers.get(name) != made) { // removed while announced: some may have heard of the removal first
            for (Subscription w : watchers) {
                tell(w.watcher, made, false);
            }
        }
        if (idleNanos > 0) {
            sweep(false);
        }
        return made;
    }

    /**
     * Sweeps now for idle breakers (see the class's note): removes each CLOSED breaker (or OPEN
     * one whose cooldown is over) whose running totals have not moved for at least
     * {@code evictIdleAfter}. Does nothing when
     * eviction is off, or while another thread sweeps.
     *
     * @return how many breakers it removed
     */
    public int evictIdle() {
        return idleNanos > 0 ? sweep(true) : 0;
    }

    private int sweep(boolean asked) {
        if (!sweeping.tryLock()) {
            return 0;
        }
        try {
            long now;
            try {
                now = ticker.read();
            } catch (RuntimeException e) {
                if (asked) {
                    throw e;
                }
                return 0; // the caller asked for a breaker and got it: a broken ticker only skips this sweep
            }
            if (!asked && swept && now - lastSweep < idleNanos) {
                return 0;
            }
            swept = true;
            lastSweep = now;
            int evicted = 0;
            java.util.Set<CircuitBreaker> present =
                    java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
            for (Map.Entry<String, CircuitBreaker> e : breakers.entrySet()) {
                CircuitBreaker b = e.getValue();
                present.add(b);
                long[] activity = ((DefaultCircuitBreaker) b).activity();
                Seen last = seen.get(b);
                if (last == null || !java.util.Arrays.equals(last.activity(), activity) || !evictable(b)) {
                    seen.put(b, new Seen(activity, now)); // moving, or kept whatever: idle from now at the earliest
                } else if (now - last.at() >= idleNanos && evict(e.getKey(), b, activity)) {
                    ((DefaultCircuitBreaker) b).leaveCap();
                    present.remove(b);
                    evicted++;
                    for (Subscription w : watchers) {
                        tell(w.watcher, b, false);
                    }
                }
            }
            seen.keySet().retainAll(present);
            return evicted;
        } finally {
            sweeping.unlock();
        }
    }

    /**
     * Removes an idle breaker the sweep found free to go, unless it moved meanwhile (a call, a
     * trip or a probe granted between the check and the removal): the check is made again and the
     * breaker removed in one atomic step of the map, so a {@code remove(name)}, a
     * {@code breaker(name)} or a watcher that comes meanwhile is ordered before or after it, never
     * between. Only the breaker's own state and totals are read inside (a throwing ticker is
     * caught there: see {@link CircuitBreaker#retryAfterNanos()}).
     *
     * @return whether it was removed
     */
    private boolean evict(String name, CircuitBreaker b, long[] activity) {
        dev.breaker.internal.race.Races.at(dev.breaker.internal.race.Races.EVICTION_CHECKED);
        boolean[] removed = {false};
        breakers.computeIfPresent(name, (k, v) -> {
            if (v == b && evictable(b) && java.util.Arrays.equals(activity, ((DefaultCircuitBreaker) b).activity())) {
                removed[0] = true;
                return null;
            }
            return v;
        });
        return removed[0];
    }

    /**
     * Whether a breaker that stood still may go: a CLOSED one, and one that tripped but is no
     * longer protecting anyone, OPEN with its cooldown over and nobody asking (the next call would
     * be a probe). Such a breaker of a host nobody calls any more would otherwise keep its place
     * under the open-share cap for good (an OPEN breaker moves on only when asked, SPEC rule 1),
     * and with hosts that come and go those places could all be taken by dead ones, suppressing
     * the trips of live ones. An OPEN breaker still cooling down, an isolated one (an operator's
     * choice) and a HALF_OPEN one are kept: a HALF_OPEN breaker's probe may be out (a grant moves
     * no total), and a fresh CLOSED breaker in its place would let every caller through to a host
     * that may still be down.
     */
    private static boolean evictable(CircuitBreaker b) {
        State state = b.state();
        return state == State.CLOSED || (state == State.OPEN && b.retryAfterNanos() == 0);
    }

    private CircuitBreaker make(String name) {
        CircuitBreakerBuilder b = CircuitBreaker.builder(name, configFor(name)).ticker(ticker);
        for (BreakerListener l : listeners) {
            b.listener(l);
        }
        for (CallObserver o : observers) {
            b.observer(o);
        }
        return b.build();
    }

    /**
     * The config a breaker of this name is (or would be) made from.
     *
     * @param name not null, not blank
     * @return its own config, or the defaults
     */
    public CircuitBreakerConfig configFor(String name) {
        return configs.getOrDefault(checked(name), defaults);
    }

    /**
     * The breaker of this name if it exists; never makes one.
     *
     * @param name not null, not blank
     * @return the breaker, or empty
     */
    public Optional<CircuitBreaker> find(String name) {
        return Optional.ofNullable(breakers.get(checked(name)));
    }

    /**
     * The breakers that exist now, in no particular order; a copy.
     *
     * @return the breakers
     */
    public Collection<CircuitBreaker> breakers() {
        return List.copyOf(breakers.values());
    }

    /**
     * Removes the breaker of this name. Whoever still holds it may go on using it; the registry
     * makes a new one the next time the name is asked for.
     *
     * @param name not null, not blank
     * @return whether there was one
     */
    public boolean remove(String name) {
        CircuitBreaker removed = breakers.remove(checked(name));
        if (removed == null) {
            return false;
        }
        ((DefaultCircuitBreaker) removed).leaveCap(); // rule 18: removal gives its place back
        for (Subscription w : watchers) {
            tell(w.watcher, removed, false);
        }
        return true;
    }

    /**
     * Starts telling {@code watcher} of every breaker added and removed, first of those that
     * exist now (see the class's note on a breaker announced twice).
     *
     * @param watcher not null
     * @return closing it stops the telling
     */
    public AutoCloseable watch(Watcher watcher) {
        Objects.requireNonNull(watcher, "watcher");
        Subscription subscription = new Subscription(watcher);
        watchers.add(subscription);
        for (Map.Entry<String, CircuitBreaker> e : breakers.entrySet()) {
            CircuitBreaker b = e.getValue();
            tell(watcher, b, true);
            if (breakers.get(e.getKey()) != b) { // removed while announced: this watcher may have heard of it first
                tell(watcher, b, false);
            }
        }
        return () -> watchers.remove(subscription);
    }

    private static final System.Logger LOG = System.getLogger("dev.breaker");

    /**
     * Tells one watcher of one change. A watcher that throws is logged and skipped: the breaker
     * was made or removed all the same, and the other watchers still hear of it.
     */
    private static void tell(Watcher w, CircuitBreaker b, boolean added) {
        try {
            if (added) {
                w.added(b);
            } else {
                w.removed(b);
            }
        } catch (RuntimeException | Error e) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    () -> "registry watcher " + Names.describe(w::toString, w) + " failed on "
                            + (added ? "added" : "removed") + " '" + b.name() + "'",
                    e);
        }
    }

    private static String checked(String name) {
        return Names.check("name", name);
    }

    @Override
    public String toString() {
        return "BreakerRegistry[" + breakers.size() + " breakers, " + configs.size() + " named configs]";
    }

    /** Builds a registry; every setter checks its argument at once. */
    public static final class Builder {

        private CircuitBreakerConfig defaults = CircuitBreakerConfig.defaults();
        private final Map<String, CircuitBreakerConfig> configs = new HashMap<>();
        private final List<BreakerListener> listeners = new ArrayList<>();
        private final List<CallObserver> observers = new ArrayList<>();
        private Ticker ticker = Ticker.system();
        private long idleNanos;
        private double maxOpenShare;

        private Builder() {}

        /**
         * The open-share cap (SPEC rule 18; off by default), as Envoy caps ejected hosts: at most
         * {@code max(1, floor(share * breakers))} of this registry's breakers may be not CLOSED
         * because of trips at once, so that a network blip does not open every per-host breaker.
         * A trip beyond it leaves its breaker CLOSED, its window recording, and publishes one
         * {@link TripSuppressed} per CLOSED era; the next outcome that trips asks again. Closing,
         * {@code reset()}, removal and eviction give places back. {@code isolate()} is never
         * refused, and isolated breakers count. Back-off openings (rule 19) and shadow breakers
         * (rule 17) are outside the cap.
         *
         * @param share in (0, 1]
         * @return this builder
         */
        public Builder maxOpenShare(double share) {
            if (!(share > 0 && share <= 1)) {
                throw new IllegalArgumentException("maxOpenShare must be in (0, 1], was " + share);
            }
            this.maxOpenShare = share;
            return this;
        }

        /**
         * Removes breakers unused this long, CLOSED ones and OPEN ones whose cooldown is over (see
         * the class's note); off by default.
         *
         * @param idle more than zero
         * @return this builder
         */
        public Builder evictIdleAfter(java.time.Duration idle) {
            this.idleNanos = dev.breaker.internal.Durations.positive("evictIdleAfter", idle);
            return this;
        }

        /**
         * The config of every name without its own.
         *
         * @param defaults not null
         * @return this builder
         */
        public Builder defaults(CircuitBreakerConfig defaults) {
            this.defaults = Objects.requireNonNull(defaults, "defaults");
            return this;
        }

        /**
         * The config of one name.
         *
         * @param name   not null, not blank
         * @param config not null
         * @return this builder
         */
        public Builder config(String name, CircuitBreakerConfig config) {
            configs.put(checked(name), Objects.requireNonNull(config, "config"));
            return this;
        }

        /**
         * A listener of every breaker's events, also of breakers made later.
         *
         * @param listener not null
         * @return this builder
         */
        public Builder listener(BreakerListener listener) {
            listeners.add(Objects.requireNonNull(listener, "listener"));
            return this;
        }

        /**
         * A call observer of every breaker, also of breakers made later (see {@link CallObserver}).
         *
         * @param observer not null
         * @return this builder
         */
        public Builder observer(CallObserver observer) {
            observers.add(Objects.requireNonNull(observer, "observer"));
            return this;
        }

        /**
         * The ticker every breaker reads.
         *
         * @param ticker not null
         * @return this builder
         */
        public Builder ticker(Ticker ticker) {
            this.ticker = Objects.requireNonNull(ticker, "ticker");
            return this;
        }

        /**
         * Makes the registry.
         *
         * @return the registry, empty
         */
        public BreakerRegistry build() {
            return new BreakerRegistry(this);
        }
    }
}
