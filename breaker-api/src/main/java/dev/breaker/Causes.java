package dev.breaker;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * What a thrown exception says about the dependency (SPEC rule 10). Wrappers that futures and
 * stages add ({@link ExecutionException}, {@link CompletionException}) say nothing: the cause is
 * judged. A cancellation or an interruption is the caller giving up, not the dependency failing.
 */
final class Causes {

    /** Enough for any real nesting; a cycle of causes cannot loop forever. */
    private static final int MAX_DEPTH = 32;

    private Causes() {}

    /** The exception under any number of future and stage wrappers. */
    static Throwable unwrap(Throwable t) {
        Throwable c = t;
        for (int i = 0;
                i < MAX_DEPTH
                        && (c instanceof CompletionException || c instanceof ExecutionException)
                        && c.getCause() != null;
                i++) {
            c = c.getCause();
        }
        return c;
    }

    /** Whether the call ended because its caller gave up (cancelled or interrupted), judged on the unwrapped cause. */
    static boolean gaveUp(Throwable unwrapped) {
        return unwrapped instanceof CancellationException || unwrapped instanceof InterruptedException;
    }
}
