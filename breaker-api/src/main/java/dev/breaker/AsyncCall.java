package dev.breaker;

import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Future;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The stage {@link CircuitBreaker#callAsync} returns. Two parties may finish it: the call's own
 * stage (through {@link #accept}) and the caller, who may cancel it, time it out
 * ({@code orTimeout}) or complete it. Whichever comes first settles the permit; {@code settled}
 * makes that happen exactly once.
 *
 * <ul>
 * <li>The call's stage completed: its outcome is classified and recorded (the classifier sees
 *     the cause under {@link java.util.concurrent.CompletionException} and
 *     {@link java.util.concurrent.ExecutionException} wrappers); a call's stage that ends
 *     cancelled or interrupted releases the permit (the caller gave up).
 *     Then this stage completes with the call's result, or its failure (through the fallback,
 *     when there is one). A ticker or classifier that fails on the way still settles the permit
 *     and still completes this stage: with the call's exception (the plugin's failure
 *     suppressed in it), or with the plugin's failure when the call succeeded.</li>
 * <li>The caller finished this stage first: a {@link TimeoutException} is a failure of the
 *     dependency (slow too, when a slow-call threshold is set) and cancels the call's stage;
 *     a cancellation releases the permit and cancels the call's stage; any other completion by
 *     the caller releases the permit. The call's later outcome is then ignored.</li>
 * </ul>
 */
final class AsyncCall<T> extends CompletableFuture<T> implements BiConsumer<T, Throwable> {

    private final DefaultCircuitBreaker breaker;
    private final Permit permit;
    private final long start;
    /** Maps a failure to a result; null when the caller gave none. */
    private final Function<? super Throwable, ? extends T> fallback;

    private final AtomicBoolean settled = new AtomicBoolean();
    private volatile CompletionStage<T> source;

    private AsyncCall(
            DefaultCircuitBreaker breaker,
            Permit permit,
            long start,
            Function<? super Throwable, ? extends T> fallback) {
        this.breaker = breaker;
        this.permit = permit;
        this.start = start;
        this.fallback = fallback;
    }

    /**
     * Asks for a permit and starts the call. Never throws for a rejection or a failing plugin: the
     * returned stage carries them. An {@link Error} thrown by the supplier itself propagates, after
     * the permit is released.
     */
    static <T> CompletableFuture<T> start(
            DefaultCircuitBreaker breaker,
            Supplier<? extends CompletionStage<T>> supplier,
            Function<? super Throwable, ? extends T> fallback) {
        Objects.requireNonNull(supplier, "supplier");
        Permit permit;
        long start;
        try {
            permit = Calls.permitOrThrow(breaker);
        } catch (Throwable rejectedOrFailed) { // a rejection, or a ticker that failed while deciding
            return failed(rejectedOrFailed, fallback);
        }
        try {
            start = Calls.start(breaker, permit);
        } catch (Throwable tickerFailed) { // the permit is back; the call is not made
            return failed(tickerFailed, fallback);
        }
        AsyncCall<T> call = new AsyncCall<>(breaker, permit, start, fallback);
        CompletionStage<T> stage;
        try {
            stage = supplier.get();
        } catch (Throwable t) {
            Throwable failure = Calls.settle(breaker, permit, null, t, start, true);
            if (t instanceof Error) {
                throw t;
            }
            return failed(withSuppressed(Causes.unwrap(t), failure), fallback);
        }
        if (stage == null) { // a bug in the caller's code, not an answer of the dependency: no outcome
            Throwable failure = releaseQuietly(permit);
            return failed(
                    withSuppressed(new NullPointerException("callAsync supplier returned null"), failure), fallback);
        }
        call.source = stage;
        try {
            stage.whenComplete(call);
        } catch (Throwable t) { // a stage that cannot be observed: the outcome will never be known
            call.unobservable(t);
        }
        return call;
    }

    /**
     * The call's stage refused an observer: its outcome will never be known. Like a supplier that
     * returns null, a fault of the caller's code that says nothing of the dependency, so the
     * permit is released (no outcome; SPEC rule 12) and this stage fails with the refusal. An
     * answer the stage gave before it refused stands.
     */
    private void unobservable(Throwable refusal) {
        if (settled.compareAndSet(false, true)) {
            finish(null, withSuppressed(refusal, releaseQuietly(permit)));
        }
    }

    private static <T> CompletableFuture<T> failed(
            Throwable failure, Function<? super Throwable, ? extends T> fallback) {
        if (fallback == null) {
            return CompletableFuture.failedFuture(failure);
        }
        try {
            return CompletableFuture.completedFuture(fallback.apply(failure));
        } catch (Throwable t) {
            return CompletableFuture.failedFuture(t);
        }
    }

    private static Throwable withSuppressed(Throwable main, Throwable suppressed) {
        if (suppressed != null && suppressed != main) {
            main.addSuppressed(suppressed);
        }
        return main;
    }

    /** The call's stage completed. Unless the caller finished this stage first, settle, then complete. */
    @Override
    public void accept(T result, Throwable thrown) {
        if (!settled.compareAndSet(false, true)) {
            return; // the caller finished this stage first, and owns its completion
        }
        Throwable cause = thrown == null ? null : Causes.unwrap(thrown);
        Throwable failure = Causes.gaveUp(cause)
                ? releaseQuietly(permit)
                : Calls.settle(breaker, permit, result, cause, start, false);
        if (cause != null) {
            finish(null, withSuppressed(cause, failure));
        } else if (failure != null) {
            finish(null, failure);
        } else {
            finish(result, null);
        }
    }

    private static Throwable releaseQuietly(Permit permit) {
        try {
            permit.release();
            return null;
        } catch (Throwable t) {
            return t;
        }
    }

    /** Completes this stage on the call's behalf, through the fallback when there is one. */
    private void finish(T result, Throwable failure) {
        if (failure == null) {
            super.complete(result);
        } else if (fallback == null) {
            super.completeExceptionally(failure);
        } else {
            try {
                super.complete(fallback.apply(failure));
            } catch (Throwable t) {
                super.completeExceptionally(t);
            }
        }
    }

    // ---------------------------------------------------------------- the caller finishing this stage
    // Whoever wins {@code settled} settles the permit and completes this stage; the permit is
    // settled before the stage completes, so a thread woken by the completion sees the outcome.

    @Override
    public boolean complete(T value) {
        if (!callerWins()) {
            return false;
        }
        try {
            settleForCaller(null, false);
        } finally {
            super.complete(value);
        }
        return true;
    }

    @Override
    public boolean completeExceptionally(Throwable ex) {
        Objects.requireNonNull(ex, "ex");
        if (!callerWins()) {
            return false;
        }
        try {
            settleForCaller(ex, false);
        } finally {
            super.completeExceptionally(ex);
        }
        return true;
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        if (!callerWins()) {
            return isCancelled();
        }
        try {
            settleForCaller(new CancellationException(), mayInterruptIfRunning);
        } finally {
            super.cancel(mayInterruptIfRunning);
        }
        return true;
    }

    @Override
    public void obtrudeValue(T value) {
        try {
            if (settled.compareAndSet(false, true)) {
                settleForCaller(null, false);
            }
        } finally {
            super.obtrudeValue(value);
        }
    }

    @Override
    public void obtrudeException(Throwable ex) {
        Objects.requireNonNull(ex, "ex");
        try {
            if (settled.compareAndSet(false, true)) {
                settleForCaller(ex, false);
            }
        } finally {
            super.obtrudeException(ex);
        }
    }

    /** The JDK completes through internals that bypass {@link #complete}; route the caller's value through it. */
    @Override
    public CompletableFuture<T> completeAsync(Supplier<? extends T> supplier, java.util.concurrent.Executor executor) {
        Objects.requireNonNull(supplier, "supplier");
        Objects.requireNonNull(executor, "executor");
        executor.execute(() -> {
            T value;
            try {
                value = supplier.get();
            } catch (Throwable t) {
                completeExceptionally(t);
                return;
            }
            complete(value);
        });
        return this;
    }

    @Override
    public CompletableFuture<T> completeAsync(Supplier<? extends T> supplier) {
        return completeAsync(supplier, defaultExecutor());
    }

    private boolean callerWins() {
        return !isDone() && settled.compareAndSet(false, true);
    }

    /** The caller finished this stage before the call did: settle the permit for it. Never throws. */
    private void settleForCaller(Throwable how, boolean interrupt) {
        Throwable cause = how == null ? null : Causes.unwrap(how);
        if (cause instanceof TimeoutException) {
            try {
                permit.onFailure(breaker.timeoutNanos(), cause);
            } catch (Throwable ignored) { // settled already; the caller's stage holds the caller's own answer
            }
            cancelSource(false);
        } else {
            releaseQuietly(permit);
            if (cause instanceof CancellationException) {
                cancelSource(interrupt);
            }
        }
    }

    private void cancelSource(boolean interrupt) {
        CompletionStage<T> s = source;
        if (s instanceof Future<?> f) {
            try {
                f.cancel(interrupt);
            } catch (
                    Throwable
                            refused) { // a minimalCompletionStage, or a stage that refuses however it likes: let it run
            }
        }
    }
}
