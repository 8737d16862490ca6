package dev.breaker.halfopen;

import dev.breaker.RetryAfter;
import java.time.Duration;

/** A dependency's "retry after" (SPEC rule 19), unchecked so that a supplier can throw it. */
final class RateLimited extends RuntimeException implements RetryAfter {

    private static final long serialVersionUID = 1L;
    private final transient Duration wait;

    RateLimited(Duration wait) {
        super("429, retry after " + wait);
        this.wait = wait;
    }

    @Override
    public Duration retryAfter() {
        return wait;
    }
}
