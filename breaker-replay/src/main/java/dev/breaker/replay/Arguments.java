package dev.breaker.replay;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line: {@code --trace T.csv --config A.properties [--config B.properties ...]
 * [--svg OUT.svg] [--json] [--seed N]}; each option with a value also as {@code --option=value}.
 * Each option but {@code --config} is given at most once, and a value given apart does not start
 * with {@code --} ({@code --svg --json} forgot the file name; {@code --svg=--x} names such a file).
 *
 * @param trace   the trace file
 * @param configs the configuration files, in the order given
 * @param svg     where to draw the picture, or null
 * @param json    JSON lines instead of the table
 * @param seed    the seed of random draws (jitter)
 */
record Arguments(Path trace, List<Path> configs, Path svg, boolean json, long seed) {

    static final String USAGE = "usage: java -jar breaker-replay.jar --trace T.csv --config A.properties"
            + " [--config B.properties ...] [--svg OUT.svg] [--json] [--seed N]";

    /** A command line that cannot be run; the message is one line. */
    static final class BadArguments extends Exception {
        private static final long serialVersionUID = 1L;

        BadArguments(String message) {
            super(message);
        }
    }

    /**
     * Reads the command line.
     *
     * @param args as given to {@code main}
     * @return the arguments
     * @throws BadArguments when an option is unknown, repeated, lacks its value, or a required one is missing
     */
    static Arguments parse(String[] args) throws BadArguments {
        Path trace = null;
        Path svg = null;
        boolean json = false;
        Long seed = null;
        List<Path> configs = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            String option = arg;
            String value = null;
            int eq = arg.indexOf('=');
            if (arg.startsWith("--") && eq > 0) {
                option = arg.substring(0, eq);
                value = arg.substring(eq + 1);
            }
            switch (option) {
                case "--json" -> {
                    if (value != null) {
                        throw new BadArguments("--json takes no value, was '" + arg + "'");
                    }
                    if (json) {
                        throw new BadArguments("--json given twice");
                    }
                    json = true;
                }
                case "--trace", "--config", "--svg", "--seed" -> {
                    if (value == null) {
                        if (i + 1 >= args.length) {
                            throw new BadArguments(option + " needs a value; " + USAGE);
                        }
                        value = args[++i];
                        if (value.startsWith("--")) {
                            // "--svg --json": the file name was forgotten; "--svg=--x" or "./--x" name such a file
                            throw new BadArguments(option + " needs a value, not the option '" + value + "'");
                        }
                    }
                    if (value.isEmpty()) {
                        throw new BadArguments(option + " needs a value, was empty");
                    }
                    switch (option) {
                        case "--trace" -> trace = once(option, trace, path(option, value));
                        case "--svg" -> svg = once(option, svg, path(option, value));
                        case "--seed" -> seed = once(option, seed, seed(value));
                        default -> configs.add(path(option, value));
                    }
                }
                default -> throw new BadArguments("unknown argument '" + arg + "'; " + USAGE);
            }
        }
        if (trace == null) {
            throw new BadArguments("--trace is required; " + USAGE);
        }
        if (configs.isEmpty()) {
            throw new BadArguments("at least one --config is required; " + USAGE);
        }
        return new Arguments(trace, List.copyOf(configs), svg, json, seed == null ? 0 : seed);
    }

    private static <T> T once(String option, T old, T value) throws BadArguments {
        if (old != null) {
            throw new BadArguments(option + " given twice");
        }
        return value;
    }

    private static Path path(String option, String value) throws BadArguments {
        try {
            return Path.of(value);
        } catch (java.nio.file.InvalidPathException e) {
            throw new BadArguments(option + ": not a path: " + e.getMessage());
        }
    }

    private static long seed(String value) throws BadArguments {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new BadArguments("--seed must be a whole number, was '" + value + "'");
        }
    }
}
