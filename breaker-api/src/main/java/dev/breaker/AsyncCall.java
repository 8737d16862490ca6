package dev.breaker;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

/**
 * The stage {@link CircuitBreaker#callAsync} returns: completes with the call's stage, after the
 * outcome is reported. Exactly one of "the call's stage completed" and "the caller cancelled this
 * stage" reports on the permit; {@code reported} decides which. A cancellation (of either stage)
 * releases the permit rather than counting a failure: the caller gave up, the dependency did not.
 */
final class AsyncCall<T> extends CompletableFuture<T> implements BiConsumer<T, Throwable> {

    private final DefaultCircuitBreaker breaker;
    private final Permit permit;
    private final long start;
    private final AtomicBoolean reported = new AtomicBoolean();
    private volatile CompletionStage<T> source;

    private AsyncCall(DefaultCircuitBreaker breaker, Permit permit, long start) {
        this.breaker = breaker;
        this.permit = permit;
        this.start = start;
    }

    static <T> CompletableFuture<T> start(DefaultCircuitBreaker breaker, Permit permit,
                                          Supplier<? extends CompletionStage<T>> supplier) {
        AsyncCall<T> call = new AsyncCall<>(breaker, permit, breaker.startTime());
        CompletionStage<T> stage;
        try {
            stage = supplier.get();
        } catch (Throwable t) {
            breaker.reportThrown(permit, t, call.start);
            if (t instanceof Error) {
                throw t;
            }
            return CompletableFuture.failedFuture(t);
        }
        if (stage == null) {
            permit.release();
            return CompletableFuture.failedFuture(new NullPointerException("callAsync supplier returned null"));
        }
        call.source = stage;
        stage.whenComplete(call);
        return call;
    }

    /** The call's stage completed. */
    @Override
    public void accept(T result, Throwable thrown) {
        Throwable cause = thrown instanceof CompletionException && thrown.getCause() != null ? thrown.getCause() : thrown;
        if (reported.compareAndSet(false, true)) {
            if (cause instanceof CancellationException) {
                permit.release();
            } else if (cause != null) {
                breaker.reportThrown(permit, cause, start);
            } else {
                permit.onResult(result, null, breaker.elapsedSince(start));
            }
        }
        if (cause == null) {
            complete(result);
        } else {
            completeExceptionally(cause);
        }
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        boolean cancelled = super.cancel(mayInterruptIfRunning);
        if (cancelled && reported.compareAndSet(false, true)) {
            permit.release();
            if (source instanceof Future<?> f) {
                f.cancel(mayInterruptIfRunning);
            }
        }
        return cancelled;
    }
}
