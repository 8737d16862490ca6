package dev.breaker;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A permit for exactly one call: its first report wins a compare-and-set on {@code reported};
 * any later report is a duplicate, ignored and counted.
 */
abstract class OneShotPermit extends GrantedPermit {

    private static final VarHandle REPORTED;

    static {
        try {
            REPORTED = MethodHandles.lookup().findVarHandle(OneShotPermit.class, "reported", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") // accessed through REPORTED
    private volatile boolean reported;

    OneShotPermit(DefaultCircuitBreaker breaker, long generation) {
        super(breaker, generation);
    }

    /** Claims the one report this permit may make. */
    final boolean claimReport() {
        return REPORTED.compareAndSet(this, false, true);
    }
}
