package dev.breaker.halfopen;

import static dev.breaker.halfopen.Breakers.failAt;
import static dev.breaker.halfopen.ManualTicker.SECOND;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breaker.CallNotPermittedException;
import dev.breaker.CircuitBreaker;
import dev.breaker.Permit;
import dev.breaker.State;
import dev.breaker.spi.HalfOpenPolicy;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * SPEC rule 16 under contention: racing requests take their turns from one counter, so 16 threads
 * that each ask n times at one instant of a ramp (one share s for all) are admitted, all together,
 * exactly the integer part of {@code 16 * n * s} (s as the decimal the user wrote), never more.
 * The check also asks the credit's own arithmetic ({@code add = ceil(s * 2^32)}, 32 fractional
 * bits) for the same answer, so a failure says whether the arithmetic or the race is wrong.
 */
class RampRaceTests {

    private static final int THREADS = 16;
    private static final int PER_THREAD = 1001;
    private static final int ROUNDS = 40;
    private static final long R = 10 * SECOND;

    private static ExecutorService pool;

    @BeforeAll
    static void startPool() {
        pool = Executors.newFixedThreadPool(THREADS);
    }

    @AfterAll
    static void stopPool() throws InterruptedException {
        pool.shutdownNow();
        assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
    }

    @ParameterizedTest(name = "rampFrom {0}, {1} ns into the ramp")
    @CsvSource({"0.1, 0", "0.25, 0", "0.1, 3333333333", "0.05, 7000000000", "0.5, 1234567890", "0.9, 5000000000"})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void racingRequestsAreAdmittedExactlyAsTheCreditCounts(double rampFrom, long elapsed) throws Exception {
        HalfOpenPolicy policy = ExponentialPolicy.builder()
                .initial(Duration.ofSeconds(1))
                .rampUp(Duration.ofNanos(R))
                .rampFrom(rampFrom)
                .build();
        double share = policy.rampShare(elapsed);
        long requests = (long) THREADS * PER_THREAD;
        long add = (long) Math.ceil(share * (1L << 32));
        long expected = BigInteger.valueOf(add)
                .multiply(BigInteger.valueOf(requests))
                .shiftRight(32)
                .longValueExact();
        BigDecimal sum = new ShareSum(rampFrom, R).share(elapsed).multiply(BigDecimal.valueOf(requests));
        assertEquals(sum.longValue(), expected, "a share for which the credit and the sum agree: " + sum);

        for (int round = 0; round < ROUNDS; round++) {
            ManualTicker ticker = new ManualTicker(Long.MAX_VALUE - SECOND - round * 7919L); // wraps
            CircuitBreaker b = Breakers.breaker(policy, ticker, 1);
            failAt(b, ticker, 0);
            ticker.at(SECOND);
            Permit probe = b.tryAcquire();
            assertTrue(probe.isProbe());
            assertEquals(State.HALF_OPEN, b.state());
            probe.onSuccess(0); // CLOSED at 1 s, ramping
            ticker.at(SECOND + elapsed);

            CyclicBarrier start = new CyclicBarrier(THREADS);
            List<Future<Long>> counts = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                boolean viaCall = t % 2 == 0;
                counts.add(pool.submit(() -> {
                    start.await(30, TimeUnit.SECONDS);
                    long admitted = 0;
                    for (int i = 0; i < PER_THREAD; i++) {
                        if (viaCall) {
                            try {
                                b.get(() -> "ok");
                                admitted++;
                            } catch (CallNotPermittedException e) {
                                if (e.state() != State.CLOSED) {
                                    throw e;
                                }
                            }
                        } else if (b.tryAcquire().granted()) {
                            admitted++;
                        }
                    }
                    return admitted;
                }));
            }
            long admitted = 0;
            for (Future<Long> f : counts) {
                admitted += f.get(60, TimeUnit.SECONDS);
            }
            assertEquals(expected, admitted, "round " + round);
            assertEquals(requests - admitted, b.metrics().rejectedCalls(), "round " + round);
            assertEquals(State.CLOSED, b.state());
        }
    }
}
