package dev.breaker.replay;

/** A configuration file that cannot be used: the message is one line naming the file and the key. */
final class ConfigException extends Exception {

    private static final long serialVersionUID = 1L;

    ConfigException(String message) {
        super(message);
    }
}
