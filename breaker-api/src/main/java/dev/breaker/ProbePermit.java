package dev.breaker;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/** One HALF_OPEN probe. Its first report wins a compare-and-set on {@code reported}; later ones are duplicates. */
final class ProbePermit extends GrantedPermit {

    private static final VarHandle REPORTED;

    static {
        try {
            REPORTED = MethodHandles.lookup().findVarHandle(ProbePermit.class, "reported", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") // accessed through REPORTED
    private volatile boolean reported;

    ProbePermit(DefaultCircuitBreaker breaker, long generation) {
        super(breaker, generation);
    }

    /** Claims the one report this permit may make. */
    boolean claimReport() {
        return REPORTED.compareAndSet(this, false, true);
    }

    @Override
    void record(Outcome outcome, long durationNanos) {
        breaker.recordProbe(this, outcome, durationNanos);
    }

    @Override
    public String toString() {
        return "Permit[HALF_OPEN probe, generation " + generation + "]";
    }
}
