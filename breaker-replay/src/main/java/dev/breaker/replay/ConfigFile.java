package dev.breaker.replay;

import dev.breaker.CircuitBreakerConfig;
import dev.breaker.halfopen.ExponentialPolicy;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * One configuration to replay: a properties file of {@code breaker.defaults.*} keys, read by
 * {@link CircuitBreakerConfig#fromProperties(Map, String)}, so keys, values and messages are the
 * library's. Any key outside {@code breaker.defaults.} is an error naming it (a replay has one
 * breaker per file), and so is {@code shadow = true} (a shadow breaker rejects nothing, so its
 * replay would show nothing).
 *
 * <p>An {@code exponential} half-open policy draws its jitter from a {@link SplittableRandom}
 * seeded with the run's seed, one per configuration: the same seed gives the same run, and every
 * configuration of a run sees the same draws, so adding one changes no other's result.
 *
 * @param name   as the outputs show it: the file name, or more of its path when another has the same
 *               (see {@link #names(List)})
 * @param config the config, its jitter seeded
 */
record ConfigFile(String name, CircuitBreakerConfig config) {

    static final String PREFIX = "breaker.defaults";

    /**
     * Reads a configuration file.
     *
     * @param file the properties file
     * @param seed the seed of its random draws
     * @return the configuration
     * @throws ConfigException when it cannot be read or a key or value is bad
     */
    static ConfigFile load(Path file, long seed) throws ConfigException {
        return load(file, names(List.of(file)).get(0), seed);
    }

    /**
     * Reads a configuration file, a byte order mark at its start skipped (as in a trace).
     *
     * @param file the properties file
     * @param name its name in the outputs, from {@link #names(List)}
     * @param seed the seed of its random draws
     * @return the configuration
     * @throws ConfigException when it cannot be read or a key or value is bad
     */
    static ConfigFile load(Path file, String name, long seed) throws ConfigException {
        Properties properties = new Properties();
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            in.mark(1);
            if (in.read() != '\uFEFF') {
                in.reset();
            }
            properties.load(in);
        } catch (IOException e) {
            throw new ConfigException(name + ": cannot read " + file + " (" + e + ")");
        } catch (IllegalArgumentException e) {
            throw new ConfigException(name + ": not a properties file: " + e.getMessage());
        }
        return of(name, properties, seed);
    }

    /**
     * Makes a configuration from properties already read.
     *
     * @param name       its name, as the outputs show it
     * @param properties its keys
     * @param seed       the seed of its random draws
     * @return the configuration
     * @throws ConfigException when a key or value is bad
     */
    static ConfigFile of(String name, Properties properties, long seed) throws ConfigException {
        Map<String, String> keys = new TreeMap<>();
        for (String key : properties.stringPropertyNames()) {
            if (!key.startsWith(PREFIX + ".")) {
                throw new ConfigException(name + ": " + key + ": unknown key; a config file holds " + PREFIX
                        + ".* keys only (window.type, window.<setting>, cooldown, probes, slow-call-threshold,"
                        + " half-open.type, half-open.<setting>, ...)");
            }
            keys.put(key, properties.getProperty(key));
        }
        CircuitBreakerConfig config;
        try {
            config = CircuitBreakerConfig.fromProperties(keys, PREFIX);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(name + ": " + oneLine(e.getMessage()));
        }
        if (config.shadow()) {
            throw new ConfigException(name + ": " + PREFIX + ".shadow"
                    + ": a shadow breaker rejects nothing, so its replay shows nothing; replay it without shadow");
        }
        if (isExponential(keys)) {
            SplittableRandom random = new SplittableRandom(seed);
            config = CircuitBreakerConfig.builder(config)
                    .halfOpen(ExponentialPolicy.withRandom(config.halfOpen(), random::nextDouble))
                    .build();
        }
        return new ConfigFile(name, config);
    }

    /**
     * The names the outputs give configuration files: each its file name, unless another has the
     * same; then each of those is named by as many of its path's last elements as tell them apart
     * ({@code staging/x.properties}, {@code prod/x.properties}), and a file given twice by a count
     * ({@code x.properties (2)}).
     *
     * @param files the files, in the order given
     * @return their names, in that order
     */
    static List<String> names(List<Path> files) {
        List<Path> full = new ArrayList<>();
        for (Path f : files) {
            full.add(f.toAbsolutePath().normalize());
        }
        List<String> names = new ArrayList<>();
        for (int i = 0; i < files.size(); i++) {
            Path p = full.get(i);
            int elements = 1;
            while (elements < p.getNameCount() && sharesSuffix(full, i, elements)) {
                elements++;
            }
            names.add(
                    p.getNameCount() == 0
                            ? p.toString()
                            : p.subpath(p.getNameCount() - elements, p.getNameCount())
                                    .toString()
                                    .replace('\\', '/'));
        }
        List<String> distinct = new ArrayList<>();
        for (String n : names) {
            String name = n;
            for (int k = 2; distinct.contains(name); k++) {
                name = n + " (" + k + ")";
            }
            distinct.add(name);
        }
        return distinct;
    }

    /** Whether another file than {@code i} (not the same one) ends in the same {@code elements} elements. */
    private static boolean sharesSuffix(List<Path> full, int i, int elements) {
        Path p = full.get(i);
        Path suffix = p.subpath(p.getNameCount() - elements, p.getNameCount());
        for (int j = 0; j < full.size(); j++) {
            Path q = full.get(j);
            if (j != i && !q.equals(p) && q.getNameCount() >= elements && q.endsWith(suffix)) {
                return true;
            }
        }
        return false;
    }

    /**
     * A name as a table's column or a picture's heading shows it: without {@code .properties}.
     *
     * @param name from {@link #names(List)}
     * @return the label
     */
    static String label(String name) {
        return name.replaceFirst("\\.properties( \\(\\d+\\))?$", "$1");
    }

    private static boolean isExponential(Map<String, String> keys) {
        for (String spelling : new String[] {".half-open.type", ".halfOpen.type"}) {
            String type = keys.get(PREFIX + spelling);
            if (type != null && type.strip().equals("exponential")) {
                return true;
            }
        }
        return false;
    }

    private static String oneLine(String message) {
        return String.valueOf(message).replaceAll("\\s*\\R\\s*", " ");
    }
}
