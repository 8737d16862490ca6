package dev.breaker.halfopen;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * SPEC rule 16's running credit, in exact decimal arithmetic: a request {@code elapsed} into a
 * ramp of {@code rampNanos} adds {@code s(t) = s0 + (1 - s0) * elapsed / R} and is admitted when
 * the integer part of the sum rises. {@code s0} is read as the decimal the user wrote
 * ({@code 0.4}, not the binary double nearest to it).
 */
final class ShareSum {

    private static final MathContext EXACT = new MathContext(60);

    private final BigDecimal s0;
    private final BigDecimal rampNanos;
    private BigDecimal sum = BigDecimal.ZERO;
    private long admitted;

    ShareSum(double rampFrom, long rampNanos) {
        this.s0 = BigDecimal.valueOf(rampFrom);
        this.rampNanos = BigDecimal.valueOf(rampNanos);
    }

    /** The share {@code elapsed} into the ramp: s0 + (1 - s0) * elapsed / R. */
    BigDecimal share(long elapsed) {
        return s0.add(BigDecimal.ONE
                .subtract(s0)
                .multiply(BigDecimal.valueOf(elapsed))
                .divide(rampNanos, EXACT));
    }

    /** One more request at {@code elapsed}: whether the SPEC admits it. */
    boolean request(long elapsed) {
        BigDecimal before = sum.setScale(0, RoundingMode.FLOOR);
        sum = sum.add(share(elapsed));
        boolean admit = sum.setScale(0, RoundingMode.FLOOR).compareTo(before) > 0;
        if (admit) {
            admitted++;
        }
        return admit;
    }

    /** The sum of the shares so far. */
    BigDecimal sum() {
        return sum;
    }

    /** Requests admitted so far: the integer part of the sum. */
    long admitted() {
        return admitted;
    }
}
