package dev.breaker.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.ServiceLoader;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Finds one provider by name through {@link ServiceLoader}, loudly: a name taken by two providers
 * and an unknown name are both {@link IllegalArgumentException}s that say what was found. There
 * is no fallback, because a breaker silently built without its window would protect nothing. A
 * broken provider on the path (a stale service entry, a class that is missing or whose
 * constructor throws, a {@code name()} that throws or is null) cannot be the one asked for: it is
 * passed over, and named in the error when the name asked for is not found.
 */
public final class Discovery {

    /** Where the project's providers that are not built in come from, by kind and then name, for the error message. */
    private static final Map<String, Map<String, String>> KNOWN_MODULES = Map.of(
            "window", Map.of("count", "breaker-window-count", "time", "breaker-window-time"),
            "half-open policy", Map.of("exponential", "breaker-halfopen"));

    /** Broken providers named in an error at most. */
    private static final int MAX_LISTED = 16;

    /** Broken providers passed over at most: a loader that fails on every entry still ends. */
    private static final int MAX_BROKEN = 1_000;

    private Discovery() {}

    /**
     * Finds the provider of {@code type} whose name is {@code name}.
     *
     * @param type   the service type; the {@code dev.breaker} module {@code uses} it
     * @param kind   what it is, for messages ("window")
     * @param name   the name asked for
     * @param nameOf reads a provider's name
     * @param <P>    the service type
     * @return the one provider with that name
     * @throws IllegalArgumentException when none or more than one provider has the name
     */
    public static <P> P find(Class<P> type, String kind, String name, Function<? super P, String> nameOf) {
        Objects.requireNonNull(name, () -> kind + " name");
        return choose(ServiceLoader.load(type), kind, name, nameOf);
    }

    /** Which artifact brings {@code name}, when it is one of the project's, or what kind of plugin it is. */
    private static String hint(String kind, String name) {
        String module = KNOWN_MODULES.getOrDefault(kind, Map.of()).get(name);
        if (module != null) {
            return "; '" + name + "' comes with " + module + ", which is not on the class or module path";
        }
        for (Map.Entry<String, Map<String, String>> other : KNOWN_MODULES.entrySet()) {
            if (other.getValue().containsKey(name)) {
                return "; '" + name + "' is a " + other.getKey() + " (from "
                        + other.getValue().get(name) + "), not a " + kind;
            }
        }
        return "";
    }

    /**
     * Picks the provider named {@code name} among {@code providers}, with the errors of {@link #find}.
     *
     * @param providers the candidates
     * @param kind      what they are, for messages
     * @param name      the name asked for
     * @param nameOf    reads a provider's name
     * @param <P>       the service type
     * @return the one provider with that name
     */
    static <P> P choose(Iterable<P> providers, String kind, String name, Function<? super P, String> nameOf) {
        Map<String, List<P>> byName = new TreeMap<>();
        List<String> broken = new ArrayList<>();
        int passedOver = 0;
        java.util.Iterator<P> it = providers.iterator();
        while (passedOver < MAX_BROKEN) {
            P provider;
            String n;
            try {
                if (!it.hasNext()) {
                    break;
                }
                provider = it.next();
            } catch (java.util.ServiceConfigurationError
                    | LinkageError e) { // a stale entry, a class or its dependency missing
                passedOver++;
                note(broken, e.getMessage());
                continue; // the loader goes on to the next entry
            }
            try {
                n = nameOf.apply(provider);
            } catch (RuntimeException | LinkageError e) {
                passedOver++;
                note(broken, provider.getClass().getName() + ": its name() threw " + e);
                continue;
            }
            if (n == null) {
                passedOver++;
                note(broken, provider.getClass().getName() + ": its name() is null");
                continue;
            }
            byName.computeIfAbsent(n, k -> new ArrayList<>(1)).add(provider);
        }
        List<P> found = byName.get(name);
        if (found == null) {
            throw new IllegalArgumentException("no " + kind + " named '" + name + "'; found: " + byName.keySet()
                    + hint(kind, name) + (broken.isEmpty() ? "" : "; providers on the path that failed: " + broken));
        }
        if (found.size() > 1) {
            List<String> classes = new ArrayList<>();
            for (P p : found) {
                classes.add(p.getClass().getName());
            }
            throw new IllegalArgumentException(found.size() + " " + kind + " providers are named '" + name + "': "
                    + classes + "; remove all but one from the path");
        }
        return found.get(0);
    }

    private static void note(List<String> broken, String what) {
        if (broken.size() < MAX_LISTED) {
            broken.add(what);
        }
    }
}
