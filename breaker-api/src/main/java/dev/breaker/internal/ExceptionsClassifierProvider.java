package dev.breaker.internal;

import dev.breaker.FailureClassifier;
import dev.breaker.spi.FailureClassifierProvider;
import dev.breaker.spi.Settings;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Provides {@code FailureClassifier.builder()}'s exception lists by name, {@code "exceptions"}:
 * {@code recordExceptions} and {@code ignoreExceptions} (in properties also {@code record-exceptions}, {@code ignore-exceptions}), each fully qualified class names
 * (binary names, {@code Outer$Inner}) separated by commas. A class is loaded, without being
 * initialised, with the thread's context class loader, then with this provider's own. With no
 * setting it gives the default classifier.
 */
public final class ExceptionsClassifierProvider implements FailureClassifierProvider {

    /** Exceptions that count as failures; any other exception is then a success. */
    static final String RECORD = "recordExceptions";
    /** Exceptions that count for nothing; ignore wins over record. */
    static final String IGNORE = "ignoreExceptions";

    private static final String OWNER = "failure classifier 'exceptions'";

    /** Makes the provider; called by {@link java.util.ServiceLoader}. */
    public ExceptionsClassifierProvider() {}

    @Override
    public String name() {
        return "exceptions";
    }

    @Override
    public Set<String> settingKeys() {
        return Set.of(RECORD, IGNORE);
    }

    @Override
    public FailureClassifier create(Map<String, String> settings) {
        Settings s = Settings.of(OWNER, settings, settingKeys());
        List<Class<? extends Throwable>> record = types(s, RECORD, settings.get(RECORD));
        List<Class<? extends Throwable>> ignore = types(s, IGNORE, settings.get(IGNORE));
        for (Class<? extends Throwable> r : record) {
            Class<?> covering = ExceptionTypes.coveringIgnored(r, ignore);
            if (covering != null) {
                throw s.fail(RECORD + " lists " + r.getName()
                        + (covering == r
                                ? ", which " + IGNORE + " lists too"
                                : ", a subtype of " + covering.getName() + " in " + IGNORE)
                        + ": ignore wins when both match, so it would never be recorded; was " + RECORD + "='"
                        + settings.get(RECORD) + "', " + IGNORE + "='" + settings.get(IGNORE) + "'");
            }
        }
        FailureClassifier.Builder b = FailureClassifier.builder();
        for (Class<? extends Throwable> r : record) {
            b.recordExceptions(r);
        }
        for (Class<? extends Throwable> i : ignore) {
            b.ignoreExceptions(i);
        }
        return s.build(b::build);
    }

    /** The types a setting lists; none when it is absent. */
    private static List<Class<? extends Throwable>> types(Settings s, String key, String value) {
        List<Class<? extends Throwable>> types = new ArrayList<>();
        if (value == null) {
            return types;
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (Character.isISOControl(c) && c != '\t') {
                throw s.fail(key + " must not contain control characters, was '"
                        + value.replace("\n", "\\n").replace("\r", "\\r").replace("\0", "\\0") + "'");
            }
        }
        for (String part : value.split(",", -1)) {
            String name = part.strip();
            if (name.isEmpty()) {
                throw s.fail(key + " must be fully qualified class names separated by commas (leave the setting"
                        + " out for none), was '" + value + "'");
            }
            Class<?> type = load(s, key, value, name);
            if (!Throwable.class.isAssignableFrom(type)) {
                throw s.fail(key + " names " + type.getName() + ", which is not a Throwable, was '" + value + "'");
            }
            String never = ExceptionTypes.neverClassified(type);
            if (never != null) {
                throw s.fail(key + " must not list " + type.getName() + ", was '" + value + "': " + never);
            }
            types.add(type.asSubclass(Throwable.class));
        }
        return types;
    }

    private static Class<?> load(Settings s, String key, String value, String name) {
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        try {
            if (context != null) {
                try {
                    return Class.forName(name, false, context);
                } catch (ClassNotFoundException e) {
                    // not there: try the loader that loaded this library
                }
            }
            return Class.forName(name, false, ExceptionsClassifierProvider.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw s.fail(key + " names a class that was not found, '" + name
                    + "' (looked up with the thread's context class loader and dev.breaker's), was '" + value + "'");
        } catch (LinkageError e) {
            throw s.fail(
                    key + " names a class that could not be loaded, '" + name + "' (" + e + "), was '" + value + "'");
        }
    }
}
