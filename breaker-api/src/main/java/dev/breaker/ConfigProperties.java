package dev.breaker;

import dev.breaker.internal.ConsecutiveWindow;
import dev.breaker.internal.Discovery;
import dev.breaker.internal.FixedHalfOpenPolicy;
import dev.breaker.internal.Names;
import dev.breaker.spi.FailureClassifierProvider;
import dev.breaker.spi.HalfOpenPolicy;
import dev.breaker.spi.HalfOpenPolicyProvider;
import dev.breaker.spi.Settings;
import dev.breaker.spi.WindowFactory;
import dev.breaker.spi.WindowProvider;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Reads configuration from text properties for {@link CircuitBreakerConfig#fromProperties} and
 * {@link BreakerRegistry#fromProperties}. Three steps, and an error in any of them is thrown
 * before anything is returned:
 *
 * <ol>
 * <li>every key under the prefix is parsed, in key order, into its scope ({@code breaker.defaults}
 *     or one {@code breaker.instances.<name>}): unknown keys and one
 *     setting given in two spellings fail here;
 * <li>the defaults are built, starting from {@link CircuitBreakerConfig#defaults()};
 * <li>each instance is built, in name order, starting from the defaults' config.
 * </ol>
 *
 * <p><b>Groups.</b> A window, a half-open policy and a classifier are each made by a provider
 * from a type and text settings ({@code window.type}, {@code window.<setting>}). To let one scope
 * change some settings of what it inherits, each built scope keeps an {@link Origin} per group:
 * the type and the settings that made it. A scope that sets a group's type other than the origin's
 * starts that group from the provider's defaults; one that sets the same type, or settings only,
 * adds its settings to the origin's. An origin comes from the defaults' properties, or is read
 * back from a built-in plugin of the config started from (the consecutive window, the fixed policy,
 * the default classifier); a plugin made otherwise has no origin, and settings without a type are
 * then an error.
 *
 * <p><b>Errors</b> are {@link IllegalArgumentException}s whose message starts with the whole key.
 * A provider's error does not say which key it is about, only which setting: the key blamed is
 * the one whose setting the message names first, this scope's before inherited ones, else the
 * scope's type key (or its first key of the group).
 */
final class ConfigProperties {

    /** Every key of ours starts with this; other keys belong to the application. */
    static final String ROOT = "breaker.";

    static final String DEFAULTS = "breaker.defaults";
    static final String INSTANCES = "breaker.instances";
    static final String REGISTRY = "breaker.registry";

    /** The keys of one config that take one value, in camelCase. */
    private static final Set<String> SINGLE = Set.of(
            "cooldown",
            "probes",
            "slowCallThreshold",
            "maxHalfOpenDuration",
            "backOffMax",
            "rejectionStackTraces",
            "trackedPermits",
            "shadow");

    /** The keys of one config, for messages. */
    static final String VALID_KEYS = "window.type, window.<setting>, cooldown, probes, slow-call-threshold,"
            + " max-half-open-duration, half-open.type, half-open.<setting>, back-off-max, classifier.type,"
            + " classifier.<setting>, rejection-stack-traces, tracked-permits, shadow (each also in camelCase, such"
            + " as slowCallThreshold)";

    private static final Pattern KEBAB = Pattern.compile("[a-z0-9]+(-[a-z0-9]+)+");

    private ConfigProperties() {}

    /** Puts {@code e} under {@code setting}, refusing a second spelling of the same setting. */
    private static void once(Map<String, Entry> given, String setting, Entry e) {
        Entry before = given.putIfAbsent(setting, e);
        if (before != null) {
            throw new IllegalArgumentException(before.key() + " and " + e.key()
                    + " are the same setting; give it once (values '" + before.value() + "' and '" + e.value()
                    + "')");
        }
    }

    /** A plugin made by a provider from a type and settings. */
    enum Group {
        WINDOW("window", "window", "window"),
        HALF_OPEN("halfOpen", "half-open", "half-open policy"),
        CLASSIFIER("classifier", "classifier", "failure classifier");

        final String camel;
        final String kebab;
        /** As {@link Discovery} and the providers name it in messages. */
        final String kind;

        Group(String camel, String kebab, String kind) {
            this.camel = camel;
            this.kebab = kebab;
            this.kind = kind;
        }

        /** The group a key segment names, in either spelling, or null. */
        static Group of(String segment) {
            String c = camel(segment);
            for (Group g : values()) {
                if (g.camel.equals(c)) {
                    return g;
                }
            }
            return null;
        }

        /** Finds the provider named {@code name}; its errors are those of {@code Windows.named} and the like. */
        Function<Map<String, String>, Object> provider(String name) {
            switch (this) {
                case WINDOW -> {
                    WindowProvider p = Discovery.find(WindowProvider.class, kind, name, WindowProvider::name);
                    return p::create;
                }
                case HALF_OPEN -> {
                    HalfOpenPolicyProvider p =
                            Discovery.find(HalfOpenPolicyProvider.class, kind, name, HalfOpenPolicyProvider::name);
                    return p::create;
                }
                default -> {
                    FailureClassifierProvider p = Discovery.find(
                            FailureClassifierProvider.class, kind, name, FailureClassifierProvider::name);
                    return p::create;
                }
            }
        }

        String describe(CircuitBreakerConfig c) {
            return switch (this) {
                case WINDOW -> Names.describe(c.window()::describe, c.window());
                case HALF_OPEN -> Names.describe(c.halfOpen()::toString, c.halfOpen());
                default -> Names.describe(c.classifier()::toString, c.classifier());
            };
        }
    }

    /**
     * One property.
     *
     * @param key   the whole key, or null for a setting read back from a built config
     * @param value its text
     */
    record Entry(String key, String value) {}

    /**
     * A key of one config: a single setting ({@code group} null) or a group's {@code type} or setting.
     *
     * @param group the group, or null
     * @param name  camelCase
     */
    record Key(Group group, String name) {
        String canonical() {
            return group == null ? name : group.camel + "." + name;
        }
    }

    /**
     * What made a group's plugin, for a scope that inherits it.
     *
     * @param type      the provider's name
     * @param typeEntry the property that set the type, or null when read back from a config
     * @param settings  camelCase setting to its property
     */
    record Origin(String type, Entry typeEntry, Map<String, Entry> settings) {}

    /**
     * A built scope.
     *
     * @param config  the config
     * @param origins per group, what a scope inheriting from this one starts from (absent: unknown)
     */
    record Built(CircuitBreakerConfig config, Map<Group, Origin> origins) {}

    /** The keys of one config ({@code breaker.defaults}, one instance, or a caller's prefix). */
    static final class Scope {
        final String prefix;
        final Map<String, Entry> single = new TreeMap<>();
        final Map<Group, Entry> types = new EnumMap<>(Group.class);
        final Map<Group, Map<String, Entry>> settings = new EnumMap<>(Group.class);
        /** Every key given, by its camelCase form: finds a setting given in two spellings. */
        private final Map<String, Entry> canonical = new HashMap<>();

        Scope(String prefix) {
            this.prefix = prefix;
            for (Group g : Group.values()) {
                settings.put(g, new TreeMap<>());
            }
        }

        String key(String rest) {
            return prefix.isEmpty() ? rest : prefix + "." + rest;
        }

        void add(Key k, Entry e) {
            once(canonical, k.canonical(), e);
            if (k.group() == null) {
                single.put(k.name(), e);
            } else if (k.name().equals("type")) {
                types.put(k.group(), e);
            } else {
                settings.get(k.group()).put(k.name(), e);
            }
        }

        boolean has(Group g) {
            return types.containsKey(g) || !settings.get(g).isEmpty();
        }

        /** The group's type key here, else its first setting key here (in key order). */
        Entry first(Group g) {
            Entry type = types.get(g);
            if (type != null) {
                return type;
            }
            Entry first = null;
            for (Entry e : settings.get(g).values()) {
                if (first == null || e.key().compareTo(first.key()) < 0) {
                    first = e;
                }
            }
            return first;
        }

        /** The fixed policy's shorthand keys given here, {@code cooldown} first. */
        List<Entry> shorthand() {
            List<Entry> found = new ArrayList<>(2);
            for (String name : List.of("cooldown", "probes")) {
                Entry e = single.get(name);
                if (e != null) {
                    found.add(e);
                }
            }
            return found;
        }
    }

    /**
     * A kebab-case segment ({@code failure-rate-threshold}) in camelCase; any other segment as it is.
     *
     * @param segment one part of a key
     * @return its camelCase form
     */
    static String camel(String segment) {
        if (!KEBAB.matcher(segment).matches()) {
            return segment;
        }
        StringBuilder b = new StringBuilder(segment.length());
        boolean upper = false;
        for (int i = 0; i < segment.length(); i++) {
            char c = segment.charAt(i);
            if (c == '-') {
                upper = true;
            } else {
                b.append(upper ? Character.toUpperCase(c) : c);
                upper = false;
            }
        }
        return b.toString();
    }

    /**
     * The key that {@code rest} (what follows a scope's prefix and its dot) spells, or null.
     *
     * @param rest such as {@code cooldown} or {@code window.type}
     * @return the key, or null when it is none
     */
    static Key configKey(String rest) {
        int dot = rest.indexOf('.');
        if (dot < 0) {
            String name = camel(rest);
            return SINGLE.contains(name) ? new Key(null, name) : null;
        }
        Group g = Group.of(rest.substring(0, dot));
        String setting = rest.substring(dot + 1);
        if (g == null || setting.isEmpty() || setting.indexOf('.') >= 0) {
            return null;
        }
        return new Key(g, camel(setting));
    }

    /**
     * Splits what follows {@code breaker.instances.} into the instance's name and its key, matching
     * the key's shapes from the right: {@code <group>.<setting>} first, then a single setting.
     *
     * @param rest such as {@code payments.eu.window.size}
     * @return the name and the key, or null when no shape matches
     */
    static String[] instanceKey(String rest) {
        int last = rest.lastIndexOf('.');
        if (last < 0) {
            return null;
        }
        int second = last == 0 ? -1 : rest.lastIndexOf('.', last - 1);
        if (second >= 0 && last + 1 < rest.length() && Group.of(rest.substring(second + 1, last)) != null) {
            return new String[] {rest.substring(0, second), rest.substring(second + 1)};
        }
        if (SINGLE.contains(camel(rest.substring(last + 1)))) {
            return new String[] {rest.substring(0, last), rest.substring(last + 1)};
        }
        return null;
    }

    /** The keys that start with {@code start}, in key order; a null value under it is an error. */
    private static SortedMap<String, String> under(Map<String, String> properties, String start) {
        SortedMap<String, String> found = new TreeMap<>();
        for (Map.Entry<String, String> e : properties.entrySet()) {
            String key = e.getKey();
            if (key != null && key.startsWith(start)) {
                if (e.getValue() == null) {
                    throw new IllegalArgumentException(key + ": the value must not be null");
                }
                found.put(key, e.getValue());
            }
        }
        return found;
    }

    private static IllegalArgumentException unknown(String key, String value, String valid) {
        return new IllegalArgumentException(key + ": unknown key (value '" + value + "'); " + valid);
    }

    /**
     * The string properties of {@code properties}, with its defaults.
     *
     * @param properties the properties
     * @return key to value
     * @throws IllegalArgumentException when a key under {@code breaker.} has a value that is not a string
     */
    static Map<String, String> strings(Properties properties) {
        return strings(properties, ROOT);
    }

    /**
     * The string properties of {@code properties}, with its defaults; a value under {@code under}
     * that is not a string (its own or its defaults') is refused, not dropped unsaid, while keys
     * elsewhere are the rest of the application's.
     *
     * @param properties the properties
     * @param under      the keys checked, such as {@code breaker.}; empty for every key
     * @return key to value
     * @throws IllegalArgumentException when a key under {@code under} has a value that is not a string
     */
    static Map<String, String> strings(Properties properties, String under) {
        Objects.requireNonNull(properties, "properties");
        for (Map.Entry<Object, Object> e : properties.entrySet()) {
            if (e.getKey() instanceof String key && key.startsWith(under) && !(e.getValue() instanceof String)) {
                throw new IllegalArgumentException(key + ": the value must be a String, was "
                        + e.getValue().getClass().getName() + " " + e.getValue());
            }
        }
        Map<String, String> found = new HashMap<>();
        for (String key : properties.stringPropertyNames()) {
            found.put(key, properties.getProperty(key));
        }
        // a key of the Properties' own defaults whose value is not a String: stringPropertyNames() drops it
        java.util.Enumeration<?> names;
        try {
            names = properties.propertyNames();
        } catch (ClassCastException notAString) { // a key that is not a String, not ours: the defaults go unchecked
            return found;
        }
        while (names.hasMoreElements()) {
            String key = (String) names.nextElement();
            if (key.startsWith(under) && !found.containsKey(key)) {
                throw new IllegalArgumentException(
                        key + ": the value must be a String, was not one (in the defaults of the Properties)");
            }
        }
        return found;
    }

    /**
     * Reads one config: every key under {@code prefix + "."}.
     *
     * @param properties the properties
     * @param prefix     the prefix, with or without its final dot; empty for every key
     * @param base       the config to start from
     * @return the config
     */
    static CircuitBreakerConfig config(Map<String, String> properties, String prefix, CircuitBreakerConfig base) {
        Objects.requireNonNull(properties, "properties");
        Objects.requireNonNull(prefix, "prefix");
        Objects.requireNonNull(base, "base");
        String scope = prefix.endsWith(".") ? prefix.substring(0, prefix.length() - 1) : prefix;
        String start = scope.isEmpty() ? "" : scope + ".";
        Scope s = new Scope(scope);
        for (Map.Entry<String, String> e : under(properties, start).entrySet()) {
            Key k = configKey(e.getKey().substring(start.length()));
            if (k == null) {
                throw unknown(
                        e.getKey(),
                        e.getValue(),
                        (start.isEmpty() ? "valid keys: " : "valid keys after " + start + ": ") + VALID_KEYS);
            }
            s.add(k, new Entry(e.getKey(), e.getValue()));
        }
        return build(s, derived(base), base).config();
    }

    /**
     * Reads a registry: {@code breaker.defaults.<key>}, {@code breaker.instances.<name>.<key>} and
     * {@code breaker.registry.<setting>}.
     *
     * @param properties the properties
     * @return a builder with the defaults and every instance's config
     */
    static BreakerRegistry.Builder registry(Map<String, String> properties) {
        Objects.requireNonNull(properties, "properties");
        Scope defaults = new Scope(DEFAULTS);
        Map<String, Scope> instances = new TreeMap<>();
        Map<String, Entry> registrySettings = new TreeMap<>();
        for (Map.Entry<String, String> e : under(properties, ROOT).entrySet()) {
            String key = e.getKey();
            Entry entry = new Entry(key, e.getValue());
            if (key.startsWith(DEFAULTS + ".")) {
                Key k = configKey(key.substring(DEFAULTS.length() + 1));
                if (k == null) {
                    throw unknown(key, entry.value(), "valid keys after " + DEFAULTS + ".: " + VALID_KEYS);
                }
                defaults.add(k, entry);
            } else if (key.startsWith(INSTANCES + ".")) {
                String[] split = instanceKey(key.substring(INSTANCES.length() + 1));
                if (split == null) {
                    throw unknown(
                            key,
                            entry.value(),
                            "an instance's keys are " + INSTANCES + ".<name>.<key>, read from the right, where <key>"
                                    + " is one of: " + VALID_KEYS);
                }
                String name = split[0];
                try {
                    Names.check("the instance name", name);
                } catch (IllegalArgumentException bad) {
                    throw new IllegalArgumentException(key + ": " + bad.getMessage(), bad);
                }
                instances
                        .computeIfAbsent(name, n -> new Scope(INSTANCES + "." + n))
                        .add(configKey(split[1]), entry);
            } else if (key.startsWith(REGISTRY + ".")) {
                String setting = camel(key.substring(REGISTRY.length() + 1));
                if (setting.equals("evictIdleAfter") || setting.equals("maxOpenShare")) {
                    once(registrySettings, setting, entry);
                    continue;
                }
                throw unknown(key, entry.value(), REGISTRY + ". takes evict-idle-after and max-open-share");
            } else {
                throw unknown(
                        key,
                        entry.value(),
                        "the keys under " + ROOT + " are " + DEFAULTS + ".<key>, " + INSTANCES + ".<name>.<key> and "
                                + REGISTRY + ".<setting>, where <key> is one of: " + VALID_KEYS);
            }
        }
        CircuitBreakerConfig start = CircuitBreakerConfig.defaults();
        Built d = build(defaults, derived(start), start);
        BreakerRegistry.Builder registry = BreakerRegistry.builder().defaults(d.config());
        for (Map.Entry<String, Scope> i : instances.entrySet()) {
            registry.config(
                    i.getKey(), build(i.getValue(), d.origins(), d.config()).config());
        }
        for (Map.Entry<String, Entry> r : registrySettings.entrySet()) {
            String setting = r.getKey();
            Entry e = r.getValue();
            Settings s = Settings.of(e.key(), Map.of(setting, e.value()), Set.of(setting));
            s.build(() -> setting.equals("evictIdleAfter")
                    ? registry.evictIdleAfter(s.duration(setting, null))
                    : registry.maxOpenShare(s.rate(setting, 1)));
        }
        return registry;
    }

    /** What can be read back from a config's built-in plugins; a group absent when its plugin is not one. */
    static Map<Group, Origin> derived(CircuitBreakerConfig c) {
        Map<Group, Origin> origins = new EnumMap<>(Group.class);
        int threshold = ConsecutiveWindow.thresholdOf(c.window());
        if (threshold > 0) {
            origins.put(
                    Group.WINDOW,
                    new Origin("consecutive", null, Map.of("threshold", new Entry(null, Integer.toString(threshold)))));
        }
        if (c.halfOpen() instanceof FixedHalfOpenPolicy fixed) {
            origins.put(Group.HALF_OPEN, fixedOrigin(fixed));
        }
        if (c.classifier() == FailureClassifier.defaults()) {
            origins.put(Group.CLASSIFIER, new Origin("default", null, Map.of()));
        }
        return origins;
    }

    private static Origin fixedOrigin(FixedHalfOpenPolicy fixed) {
        return new Origin(
                "fixed",
                null,
                Map.of(
                        "cooldown",
                                new Entry(
                                        null,
                                        Duration.ofNanos(fixed.cooldownNanos()).toString()),
                        "probes", new Entry(null, Integer.toString(fixed.probes()))));
    }

    /**
     * Builds one scope.
     *
     * @param s         its keys
     * @param inherited per group, what it starts from
     * @param base      the config it starts from
     * @return the config, and what a scope inheriting from it starts from
     */
    static Built build(Scope s, Map<Group, Origin> inherited, CircuitBreakerConfig base) {
        List<Entry> shorthand = s.shorthand();
        if (!shorthand.isEmpty() && s.has(Group.HALF_OPEN)) {
            Entry policy = s.first(Group.HALF_OPEN);
            throw new IllegalArgumentException(shorthand.get(0).key()
                    + ": cooldown and probes are the fixed policy's shorthand and cannot be combined with "
                    + policy.key() + " (value '" + policy.value() + "'); give the policy's settings as "
                    + s.key("half-open.<setting>") + " (value '"
                    + shorthand.get(0).value() + "')");
        }
        if (!shorthand.isEmpty() && !(base.halfOpen() instanceof FixedHalfOpenPolicy)) {
            Origin from = inherited.get(Group.HALF_OPEN);
            String policy = from != null && from.typeEntry() != null
                    ? "the half-open policy here is '" + from.type() + "', from "
                            + from.typeEntry().key()
                    : "the half-open policy it starts from is " + Group.HALF_OPEN.describe(base);
            throw new IllegalArgumentException(shorthand.get(0).key()
                    + ": cooldown and probes are the fixed policy's shorthand, but " + policy
                    + "; give its own settings as " + s.key("half-open.<setting>") + " (value '"
                    + shorthand.get(0).value() + "')");
        }
        CircuitBreakerConfig.Builder b = CircuitBreakerConfig.builder(base);
        for (Map.Entry<String, Entry> e : s.single.entrySet()) {
            set(b, e.getKey(), e.getValue());
        }
        Map<Group, Origin> origins = new EnumMap<>(Group.class);
        origins.putAll(inherited);
        for (Group g : Group.values()) {
            if (!s.has(g)) {
                continue;
            }
            Origin o = origin(s, g, inherited.get(g), base);
            Object made = make(g, o, s);
            switch (g) {
                case WINDOW -> b.window((WindowFactory) made);
                case HALF_OPEN -> b.halfOpen((HalfOpenPolicy) made);
                default -> b.classifier((FailureClassifier) made);
            }
            origins.put(g, o);
        }
        CircuitBreakerConfig config;
        try {
            config = b.build();
        } catch (IllegalArgumentException e) { // the policy's answers; cooldown and probes were checked above
            Entry blamed =
                    s.has(Group.HALF_OPEN) ? s.first(Group.HALF_OPEN) : shorthand.isEmpty() ? null : shorthand.get(0);
            if (blamed == null) {
                throw e;
            }
            throw prefixed(blamed, e);
        }
        if (!shorthand.isEmpty()) {
            origins.put(Group.HALF_OPEN, fixedOrigin((FixedHalfOpenPolicy) config.halfOpen()));
        }
        return new Built(config, origins);
    }

    private static void set(CircuitBreakerConfig.Builder b, String name, Entry e) {
        Settings s = Settings.of(e.key(), Map.of(name, e.value()), Set.of(name));
        s.build(() -> switch (name) {
            case "cooldown" -> b.cooldown(s.duration(name, null));
            case "probes" -> b.probes(s.intValue(name, 1, 1));
            case "slowCallThreshold" -> b.slowCallThreshold(s.duration(name, null));
            case "maxHalfOpenDuration" -> b.maxHalfOpenDuration(s.duration(name, null));
            case "backOffMax" -> b.backOffMax(s.duration(name, null));
            case "rejectionStackTraces" -> b.rejectionStackTraces(bool(s, name, e.value()));
            case "trackedPermits" -> b.trackedPermits(bool(s, name, e.value()));
            case "shadow" -> b.shadow(bool(s, name, e.value()));
            default -> throw new IllegalStateException("no setting " + name);
        });
    }

    /** {@code true} or {@code false} in any case, surrounding spaces ignored; control characters refused. */
    private static boolean bool(Settings s, String name, String text) {
        String value = text.strip();
        boolean control = false;
        for (int i = 0; i < text.length(); i++) {
            control |= Character.isISOControl(text.charAt(i)) && text.charAt(i) != '\t';
        }
        if (!control && value.equalsIgnoreCase("true")) {
            return true;
        }
        if (!control && value.equalsIgnoreCase("false")) {
            return false;
        }
        throw s.fail(name + " must be true or false, was '"
                + text.replace("\n", "\\n").replace("\r", "\\r").replace("\0", "\\0") + "'");
    }

    /** The type and settings of group {@code g} in scope {@code s}, with what it inherits. */
    private static Origin origin(Scope s, Group g, Origin inherited, CircuitBreakerConfig base) {
        Entry type = s.types.get(g);
        Map<String, Entry> own = s.settings.get(g);
        Map<String, Entry> merged = new TreeMap<>();
        if (type != null) {
            String name = type.value().strip();
            if (inherited != null && inherited.type().equals(name)) {
                merged.putAll(inherited.settings());
            }
            merged.putAll(own);
            return new Origin(name, type, merged);
        }
        if (inherited == null) {
            Entry first = s.first(g);
            throw new IllegalArgumentException(first.key() + ": no " + g.kebab + ".type to apply it to: the "
                    + g.kind + " it starts from, " + g.describe(base) + ", was not made from settings that can be"
                    + " read back; give " + s.key(g.kebab + ".type") + " (value '" + first.value() + "')");
        }
        merged.putAll(inherited.settings());
        merged.putAll(own);
        return new Origin(inherited.type(), inherited.typeEntry(), merged);
    }

    /** Makes group {@code g}'s plugin through its provider; every error prefixed with a key of scope {@code s}. */
    private static Object make(Group g, Origin o, Scope s) {
        Entry own = s.first(g);
        Function<Map<String, String>, Object> provider;
        try {
            provider = g.provider(o.type());
        } catch (IllegalArgumentException e) {
            throw prefixed(own, e);
        }
        Map<String, String> values = new TreeMap<>();
        o.settings().forEach((name, e) -> values.put(name, e.value()));
        Object made;
        try {
            made = provider.apply(Map.copyOf(values));
        } catch (IllegalArgumentException e) {
            throw prefixed(blame(String.valueOf(e.getMessage()), o, s, g), e);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(
                    own.key() + ": " + g.kind + " '" + o.type() + "' failed to build: " + e + " (value '" + own.value()
                            + "')",
                    e);
        }
        if (made == null) {
            throw new IllegalArgumentException(own.key() + ": " + g.kind + " '" + o.type()
                    + "' made nothing: its provider returned null (value '" + own.value() + "')");
        }
        return made;
    }

    /**
     * The key a provider's message is about: the setting it names first (after its owner, such as
     * {@code window 'count': }), set in this scope before inherited; else the scope's first key of
     * the group.
     */
    private static Entry blame(String message, Origin o, Scope s, Group g) {
        int colon = message.indexOf(": ");
        String body = colon < 0 ? message : message.substring(colon + 2);
        Entry found = firstNamed(body, s.settings.get(g));
        if (found == null) {
            found = firstNamed(body, o.settings());
        }
        return found != null ? found : s.first(g);
    }

    private static Entry firstNamed(String body, Map<String, Entry> settings) {
        Entry found = null;
        int foundAt = Integer.MAX_VALUE;
        for (Map.Entry<String, Entry> e : settings.entrySet()) {
            int at = wordAt(body, e.getKey());
            if (at >= 0 && at < foundAt && e.getValue().key() != null) {
                found = e.getValue();
                foundAt = at;
            }
        }
        return found;
    }

    /** Where {@code word} first stands alone in {@code text} (not inside a longer identifier), or -1. */
    static int wordAt(String text, String word) {
        if (word.isEmpty()) {
            return -1;
        }
        for (int at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
            int end = at + word.length();
            boolean before = at == 0 || !Character.isJavaIdentifierPart(text.charAt(at - 1));
            boolean after = end == text.length() || !Character.isJavaIdentifierPart(text.charAt(end));
            if (before && after) {
                return at;
            }
        }
        return -1;
    }

    private static IllegalArgumentException prefixed(Entry key, IllegalArgumentException e) {
        return new IllegalArgumentException(key.key() + ": " + e.getMessage(), e);
    }
}
