package dev.breaker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What a rejection says to the person reading the log (DECISIONS, "Rejection message"): the
 * wait until the next probe written for people, each unit from its first value to its last.
 */
class RejectionMessageTests {

    private static String waitText(long retryAfterNanos) {
        String message = new CallNotPermittedException("payments", State.OPEN, retryAfterNanos, false).getMessage();
        String prefix = "circuit breaker 'payments' is OPEN and does not permit calls; next probe allowed in ";
        assertEquals(prefix, message.substring(0, Math.min(prefix.length(), message.length())), message);
        return message.substring(prefix.length());
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "0|0 ns", // the cooldown has just ended: still a wait, not "only reset()"
                "999|999 ns",
                "1000|1.0 us",
                "1999|1.9 us",
                "999999|999.9 us",
                "1000000|1.0 ms",
                "196500000|196.5 ms",
                "999999999|999.9 ms",
                "1000000000|1.0 s",
                "4250000000|4.2 s",
                "59999999999|59.9 s",
                "60000000000|1 min 0 s",
                "725000000000|12 min 5 s",
                "3599999999999|59 min 59 s",
                "3600000000000|1 h 0 min",
                "12000000000000|3 h 20 min",
                "86399999999999|23 h 59 min",
                "86400000000000|1 d 0 h",
                "187200000000000|2 d 4 h",
                "9223372036854775807|106751 d 23 h"
            })
    void theWaitIsWrittenForPeopleInTheLargestFittingUnit(long nanos, String expected) {
        assertEquals(expected, waitText(nanos));
    }

    @Test
    void onlyIsolationOrAnUnknownWaitSaysOnlyResetHelps() {
        assertEquals(
                "circuit breaker 'payments' is ISOLATED and does not permit calls; only reset() closes it",
                new CallNotPermittedException("payments", State.ISOLATED, -1, false).getMessage());
        assertEquals(
                "circuit breaker 'payments' is OPEN and does not permit calls; only reset() closes it",
                new CallNotPermittedException("payments", State.OPEN, -1, false).getMessage());
    }

    @Test
    void aBreakerRejectingDuringItsCooldownSaysHowLongIsLeft() throws Exception {
        FakeTicker ticker = new FakeTicker();
        CircuitBreaker b = CircuitBreaker.builder("slow")
                .window(Windows.consecutiveFailures(1))
                .cooldown(Duration.ofMinutes(12).plusSeconds(5))
                .ticker(ticker)
                .build();
        b.tryAcquire().onFailure(0, null);
        CallNotPermittedException e =
                org.junit.jupiter.api.Assertions.assertThrows(CallNotPermittedException.class, () -> b.run(() -> {}));
        assertEquals(
                "circuit breaker 'slow' is OPEN and does not permit calls; next probe allowed in 12 min 5 s",
                e.getMessage());
    }
}
