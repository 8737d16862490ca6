package dev.breaker;

import java.util.List;

/** A registry watcher that writes {@code +name} for each breaker added and {@code -name} for each removed. */
final class SeenWatcher implements BreakerRegistry.Watcher {
    private final List<String> seen;

    SeenWatcher(List<String> seen) {
        this.seen = seen;
    }

    @Override
    public void added(CircuitBreaker breaker) {
        seen.add("+" + breaker.name());
    }

    @Override
    public void removed(CircuitBreaker breaker) {
        seen.add("-" + breaker.name());
    }
}
