package dev.breaker;

import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The synchronous execute API: ask, time (when a slow-call threshold is set), call, settle.
 *
 * <p>Settling never depends on the plugins behaving: whatever the ticker or the classifier throws
 * or answers, the permit is settled exactly once (the outcome recorded, or the permit released),
 * and then the failure surfaces. When the call itself threw, the call's exception is what the
 * caller gets, with the plugin's failure suppressed in it; when it returned, the plugin's failure
 * is thrown in place of the result. Every method checks its arguments before anything else.
 */
final class Calls {

    private Calls() {}

    static <T> T call(DefaultCircuitBreaker b, Callable<T> callable) throws Exception {
        Objects.requireNonNull(callable, "callable");
        Permit permit = permitOrThrow(b);
        long start = start(b, permit);
        T result;
        try {
            result = callable.call();
        } catch (Throwable t) {
            settleThrown(b, permit, t, start, true);
            throw t;
        }
        settleReturned(b, permit, result, start);
        return result;
    }

    static <T> T get(DefaultCircuitBreaker b, Supplier<T> supplier) {
        Objects.requireNonNull(supplier, "supplier");
        Permit permit = permitOrThrow(b);
        long start = start(b, permit);
        T result;
        try {
            result = supplier.get();
        } catch (Throwable t) {
            settleThrown(b, permit, t, start, true);
            throw t;
        }
        settleReturned(b, permit, result, start);
        return result;
    }

    static void run(DefaultCircuitBreaker b, Runnable runnable) {
        Objects.requireNonNull(runnable, "runnable");
        Permit permit = permitOrThrow(b);
        long start = start(b, permit);
        try {
            runnable.run();
        } catch (Throwable t) {
            settleThrown(b, permit, t, start, true);
            throw t;
        }
        settleReturned(b, permit, null, start);
    }

    static <T> T call(
            DefaultCircuitBreaker b, Callable<T> callable, Function<? super Exception, ? extends T> fallback) {
        Objects.requireNonNull(callable, "callable");
        Objects.requireNonNull(fallback, "fallback");
        try {
            return call(b, callable);
        } catch (Exception e) {
            return fallback.apply(e);
        }
    }

    static <T> T get(
            DefaultCircuitBreaker b, Supplier<T> supplier, Function<? super RuntimeException, ? extends T> fallback) {
        Objects.requireNonNull(supplier, "supplier");
        Objects.requireNonNull(fallback, "fallback");
        try {
            return get(b, supplier);
        } catch (RuntimeException e) {
            return fallback.apply(e);
        }
    }

    static void run(DefaultCircuitBreaker b, Runnable runnable, Consumer<? super RuntimeException> fallback) {
        Objects.requireNonNull(runnable, "runnable");
        Objects.requireNonNull(fallback, "fallback");
        try {
            run(b, runnable);
        } catch (RuntimeException e) {
            fallback.accept(e);
        }
    }

    /** The permit for a call, or the rejection thrown here, where the JIT can see the caller's catch. */
    static Permit permitOrThrow(DefaultCircuitBreaker b) {
        Object decision = b.acquireForCall();
        if (decision instanceof CallNotPermittedException rejected) {
            throw rejected;
        }
        return (Permit) decision;
    }

    /** The start time of a timed call; a ticker that fails here gives the permit back, and the call is not made. */
    static long start(DefaultCircuitBreaker b, Permit permit) {
        if (!b.timed) {
            return 0;
        }
        try {
            return b.ticker.read();
        } catch (Throwable t) {
            try {
                permit.release();
            } catch (Throwable r) {
                t.addSuppressed(r);
            }
            DefaultCircuitBreaker.rethrow(t);
            return 0;
        }
    }

    /**
     * The call threw: settle its permit; a plugin's failure on the way is suppressed in the call's
     * exception.
     *
     * @param onCallersThread whether the call ran on this thread, so that its interrupt flag tells
     *                        whether the caller gave up
     */
    static void settleThrown(
            DefaultCircuitBreaker b, Permit permit, Throwable thrown, long start, boolean onCallersThread) {
        Throwable failure = settle(b, permit, null, thrown, start, onCallersThread);
        if (failure != null && failure != thrown) {
            thrown.addSuppressed(failure);
        }
    }

    /** The call returned: settle its permit, then surface a plugin's failure, if any. */
    static void settleReturned(DefaultCircuitBreaker b, Permit permit, Object result, long start) {
        DefaultCircuitBreaker.rethrow(settle(b, permit, result, null, start, false));
    }

    /**
     * Settles the permit exactly once (SPEC rule 10). A call that returned is classified by its
     * result, whatever the thread's interrupt flag. A call that threw is released with no outcome
     * when the exception (under any future or stage wrapper) is an {@link Error}, a cancellation
     * or an interruption, or when it threw on the caller's thread while that thread was
     * interrupted (the caller gave up; the flag is left as it is); anything else is classified on
     * its cause and recorded. A ticker that fails at the end of the call leaves the duration
     * unknown (0, not slow) but the outcome is still recorded.
     *
     * @return the plugins' failure, or null
     */
    static Throwable settle(
            DefaultCircuitBreaker b,
            Permit permit,
            Object result,
            Throwable thrown,
            long start,
            boolean onCallersThread) {
        long duration = 0;
        long end = 0;
        boolean endKnown = false;
        Throwable failure = null;
        if (b.timed) {
            try {
                end = b.ticker.read();
                duration = Math.max(0, end - start);
                endKnown = true; // the window is handed this reading and need not take its own
            } catch (Throwable t) {
                failure = t;
            }
        }
        try {
            if (thrown != null
                    && (onCallersThread && Thread.currentThread().isInterrupted()
                            || thrown instanceof Error
                            || Causes.gaveUp(Causes.unwrap(thrown)))) {
                permit.release();
            } else { // a permit the execute path was granted
                ((GrantedPermit) permit).onResultAt(result, thrown, duration, end, endKnown);
            }
        } catch (Throwable t) {
            failure = DefaultCircuitBreaker.combine(failure, t);
        }
        return failure;
    }
}
