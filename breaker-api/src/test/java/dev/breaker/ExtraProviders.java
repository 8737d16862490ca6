package dev.breaker;

import dev.breaker.spi.HalfOpenPolicy;
import dev.breaker.spi.HalfOpenPolicyProvider;
import dev.breaker.spi.Settings;
import dev.breaker.spi.Window;
import dev.breaker.spi.WindowFactory;
import dev.breaker.spi.WindowProvider;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * A window and a policy that stand for those of other jars ({@code count}, {@code exponential}),
 * with multi-word settings, a rate and a check across settings. Listed in
 * {@code extra-providers/META-INF/services}, outside the test classes' own {@code META-INF} (on the
 * module path the test classes are patched into {@code dev.breaker}, whose descriptor a services
 * file cannot extend, and {@code ModuleLayoutTests} pins its services files), and found by
 * {@link #run} through a class loader that adds that folder: on the class path only.
 */
public final class ExtraProviders {

    private ExtraProviders() {}

    /**
     * Runs {@code body} with the context class loader, which {@link java.util.ServiceLoader} reads,
     * seeing these providers too.
     */
    static <T> T run(Supplier<T> body) {
        URL services = ExtraProviders.class.getResource(
                "/extra-providers/META-INF/services/" + WindowProvider.class.getName());
        Thread thread = Thread.currentThread();
        ClassLoader before = thread.getContextClassLoader();
        try (URLClassLoader loader = new URLClassLoader(
                new URL[] {
                    Path.of(services.toURI())
                            .getParent()
                            .getParent()
                            .getParent()
                            .toUri()
                            .toURL()
                },
                ExtraProviders.class.getClassLoader())) {
            thread.setContextClassLoader(loader);
            return body.get();
        } catch (java.io.IOException | URISyntaxException e) {
            throw new IllegalStateException(e);
        } finally {
            thread.setContextClassLoader(before);
        }
    }

    /**
     * The window {@code sampled}: a value, so configs that hold it compare.
     *
     * @param size                 its size
     * @param failureRateThreshold a rate
     * @param minimumCalls         at most size
     */
    public record Sampled(int size, double failureRateThreshold, int minimumCalls) implements WindowFactory {
        @Override
        public Window create(Ticker ticker) {
            return Windows.consecutiveFailures(size).create(ticker);
        }

        @Override
        public String describe() {
            return "sampled(size=" + size + ", failureRateThreshold=" + failureRateThreshold + ", minimumCalls="
                    + minimumCalls + ")";
        }
    }

    /**
     * Provides {@code sampled}: settings {@code size} (100), {@code failureRateThreshold} (0.5),
     * {@code minimumCalls} (min(size, 10)). A broken provider on purpose at size 13 (answers null)
     * and 666 (throws an {@code IllegalStateException}); a careless one at sizes 7 and 8, whose
     * messages name no owner (7: no colon at all; 8: an empty owner, so the message starts with
     * {@code ": "}).
     */
    public static final class SampledWindowProvider implements WindowProvider {
        /** For the ServiceLoader. */
        public SampledWindowProvider() {}

        @Override
        public String name() {
            return "sampled";
        }

        @Override
        public Set<String> settingKeys() {
            return Set.of("size", "failureRateThreshold", "minimumCalls");
        }

        @Override
        public WindowFactory create(Map<String, String> settings) {
            Settings s = Settings.of("window 'sampled'", settings, settingKeys());
            int size = s.intValue("size", 100, 1);
            double rate = s.rate("failureRateThreshold", 0.5);
            int minimum = s.intValue("minimumCalls", Math.min(size, 10), 1);
            if (minimum > size) {
                throw s.fail("minimumCalls (" + minimum + ") must be <= size (" + size + ")");
            }
            if (size == 7) {
                throw new IllegalArgumentException("minimumCalls and size 7 are refused together");
            }
            if (size == 8) {
                throw Settings.of("", settings, settingKeys()).fail("size 8 is refused");
            }
            if (size == 13) {
                return null;
            }
            if (size == 666) {
                throw new IllegalStateException("unlucky");
            }
            return new Sampled(size, rate, minimum);
        }
    }

    /**
     * The policy {@code stepped}: cooldown {@code initial * k} at the k-th opening.
     *
     * @param initial the first cooldown
     * @param probes  per round
     */
    public record Stepped(Duration initial, int probes) implements HalfOpenPolicy {
        @Override
        public long cooldownNanos(int consecutiveOpens) {
            return initial.toNanos() * consecutiveOpens;
        }

        @Override
        public int probes(int consecutiveOpens) {
            return probes;
        }

        @Override
        public Verdict decide(int consecutiveOpens, int successes, int failures) {
            return failures > 0 ? Verdict.OPEN : successes >= probes ? Verdict.CLOSE : Verdict.WAIT;
        }

        @Override
        public String toString() {
            return "stepped(initial=" + initial + ", probes=" + probes + ")";
        }
    }

    /**
     * Provides {@code stepped}: settings {@code initial} (1 s), {@code probes} (1; a broken
     * provider on purpose: it lets 0 through, which the config refuses).
     */
    public static final class SteppedPolicyProvider implements HalfOpenPolicyProvider {
        /** For the ServiceLoader. */
        public SteppedPolicyProvider() {}

        @Override
        public String name() {
            return "stepped";
        }

        @Override
        public Set<String> settingKeys() {
            return Set.of("initial", "probes");
        }

        @Override
        public HalfOpenPolicy create(Map<String, String> settings) {
            Settings s = Settings.of("half-open policy 'stepped'", settings, settingKeys());
            return new Stepped(s.duration("initial", Duration.ofSeconds(1)), s.intValue("probes", 1, 0));
        }
    }
}
