package dev.breaker.spring;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The {@code breaker.*} configuration, bound by Spring from any property source
 * ({@code application.yml}, {@code application.properties}, environment variables, ...).
 *
 * <p>The breakers' own keys ({@code breaker.defaults.*}, {@code breaker.instances.<name>.*},
 * {@code breaker.registry.*}) are collected here as text, exactly as written, and handed to
 * {@link dev.breaker.BreakerRegistry#builder(Map)}: the properties format of {@code breaker-api}
 * decides what they mean, so a value means the same in YAML as in a {@code .properties} file or
 * in {@code BreakerRegistry.fromProperties} (durations {@code 30s} or {@code PT30S}, rates
 * {@code 0.5} or {@code 50%}, keys in kebab-case or camelCase), and a named instance inherits the
 * defaults key by key. A YAML list becomes the comma-separated value the format expects.
 *
 * <p>{@code breaker.health.include} is the starter's own: the breakers whose state the
 * {@code breakers} health contributor reports.
 */
@ConfigurationProperties(prefix = "breaker", ignoreUnknownFields = false)
public class BreakerProperties {

    private static final Pattern KEBAB = Pattern.compile("-([a-zA-Z0-9])");
    private static final Pattern INDEXED = Pattern.compile("(.+)(?:\\[(\\d+)]|\\.(\\d+))");

    private final Map<String, String> defaults = new LinkedHashMap<>();
    private final Map<String, String> instances = new LinkedHashMap<>();
    private final Map<String, String> registry = new LinkedHashMap<>();
    private final Health health = new Health();

    /** Creates empty properties; Spring fills them. */
    public BreakerProperties() {}

    /**
     * The keys after {@code breaker.defaults.}, such as {@code window.type} or {@code cooldown}.
     *
     * @return the live map Spring binds into
     */
    public Map<String, String> getDefaults() {
        return defaults;
    }

    /**
     * The keys after {@code breaker.instances.}, such as {@code payments.window.threshold}.
     *
     * @return the live map Spring binds into
     */
    public Map<String, String> getInstances() {
        return instances;
    }

    /**
     * The keys after {@code breaker.registry.}: {@code max-open-share}, {@code evict-idle-after}.
     *
     * @return the live map Spring binds into
     */
    public Map<String, String> getRegistry() {
        return registry;
    }

    /**
     * What the health contributor reports.
     *
     * @return the health settings
     */
    public Health getHealth() {
        return health;
    }

    /**
     * The breakers' keys as the properties format of {@code breaker-api} reads them: whole keys
     * ({@code breaker.defaults.cooldown}) to their text.
     *
     * @return a new sorted map
     */
    public Map<String, String> toProperties() {
        return toProperties(null);
    }

    /**
     * {@link #toProperties()}, each list bound whole from the environment, as Spring binds a list:
     * from the highest source that has it, whose list (or comma-separated value) replaces the
     * others' whole. The map Spring binds into takes each element from whichever source has it,
     * so a command-line value left a YAML list in place, and a profile's shorter list kept the
     * tail of the one it overrides.
     *
     * @param environment where the keys came from, or null to join the bound elements as they are
     * @return a new sorted map
     */
    public Map<String, String> toProperties(org.springframework.core.env.Environment environment) {
        org.springframework.boot.context.properties.bind.Binder binder =
                environment == null ? null : org.springframework.boot.context.properties.bind.Binder.get(environment);
        Map<String, String> all = new TreeMap<>();
        put(all, "breaker.defaults.", defaults, binder);
        put(all, "breaker.instances.", instances, binder);
        put(all, "breaker.registry.", registry, binder);
        return all;
    }

    /**
     * Puts {@code values} under {@code prefix}, joining a YAML list's elements with commas in their
     * order. Keys that Spring takes for one property ({@code slow-call-threshold} in a file and
     * {@code slowCallThreshold} on the command line) are bound to the value of the source that
     * wins, once per spelling; such a key is put once, as for any other Spring property (two
     * spellings with different values are both put, and the properties format refuses them). A
     * list is put as the {@code binder} binds it whole, when it can, spellings and all; else as
     * its elements were bound, beside any scalar of another spelling.
     */
    private static void put(
            Map<String, String> all,
            String prefix,
            Map<String, String> values,
            org.springframework.boot.context.properties.bind.Binder binder) {
        Map<String, TreeMap<Integer, String>> lists = new TreeMap<>();
        Map<String, String> seen = new HashMap<>();
        for (Map.Entry<String, String> e : values.entrySet()) {
            String before = seen.putIfAbsent(camelCase(e.getKey()), e.getValue());
            if (before != null && before.equals(e.getValue())) {
                continue; // the same property, spelt another way: Spring gave both the winning value
            }
            Matcher m = INDEXED.matcher(e.getKey());
            if (m.matches()) {
                lists.computeIfAbsent(m.group(1), k -> new TreeMap<>())
                        .put(Integer.valueOf(m.group(2) != null ? m.group(2) : m.group(3)), e.getValue());
            } else {
                all.put(prefix + e.getKey(), e.getValue());
            }
        }
        lists.forEach((key, elements) -> {
            List<String> whole = binder == null ? null : boundWhole(binder, prefix + key);
            if (whole != null && !whole.isEmpty()) {
                // Spring's answer is the list, whatever the spellings its sources used: a scalar
                // in another spelling is part of it
                all.keySet().removeIf(k -> k.startsWith(prefix) && camelCase(k).equals(camelCase(prefix + key)));
                all.put(prefix + key, String.join(",", whole));
            } else {
                // no answer (a name Spring needs brackets for, say): the elements as bound, and a
                // scalar in another spelling stays beside them, for the properties format to refuse
                all.put(prefix + key, String.join(",", elements.values()));
            }
        });
    }

    /** The list at {@code name} as Spring binds a {@code List<String>}, or null when it cannot say. */
    private static List<String> boundWhole(
            org.springframework.boot.context.properties.bind.Binder binder, String name) {
        try {
            return binder.bind(
                            org.springframework.boot.context.properties.source.ConfigurationPropertyName.adapt(
                                    name, '.'),
                            org.springframework.boot.context.properties.bind.Bindable.listOf(String.class))
                    .orElse(null);
        } catch (RuntimeException cannot) {
            return null; // the elements as bound: the properties format then judges them
        }
    }

    /** {@code slow-call-threshold} as {@code slowCallThreshold}; case otherwise kept (breaker names are case-sensitive). */
    private static String camelCase(String key) {
        return KEBAB.matcher(key).replaceAll(m -> m.group(1).toUpperCase(Locale.ROOT));
    }

    /** {@code breaker.health.*}: which breakers the {@code breakers} health contributor reports. */
    public static class Health {

        private List<String> include = new ArrayList<>();

        /** Creates empty settings; Spring fills them. */
        public Health() {}

        /**
         * The names of the breakers whose state is reported (none by default: a breaker's health
         * is opt-in, since an OPEN breaker is a protected dependency, not a sick application).
         *
         * @return the names
         */
        public List<String> getInclude() {
            return include;
        }

        /**
         * Sets the names of the breakers whose state is reported.
         *
         * @param include the names
         */
        public void setInclude(List<String> include) {
            this.include = new ArrayList<>(include);
        }
    }
}
