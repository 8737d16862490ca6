package dev.breaker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breaker.testsupport.Waits;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** SPEC rule 12: bad configuration fails at once, names the setting and the value, and changes nothing. */
class BuilderTests {

    private static void rejects(String expectedMessage, Executable action) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, action);
        assertEquals(expectedMessage, e.getMessage());
    }

    @Test
    void badSettingsNameTheSettingAndValue() {
        rejects("threshold must be >= 1, was 0", () -> Windows.consecutiveFailures(0));
        rejects("name must contain a visible character, was ' '", () -> CircuitBreaker.builder(" "));
        rejects(
                "name must contain a visible character, was '\\u200B\\u2060'",
                () -> CircuitBreaker.builder("\u200B\u2060"));
        rejects("name must not contain control characters, was 'a\\u000Ab'", () -> CircuitBreaker.builder("a\nb"));
        rejects("probes must be >= 1, was 0", () -> CircuitBreaker.builder("b").probes(0));
        rejects(
                "cooldown must be >= 0, was PT-1S",
                () -> CircuitBreaker.builder("b").cooldown(Duration.ofSeconds(-1)));
        rejects(
                "slowCallThreshold must be > 0, was PT0S",
                () -> CircuitBreaker.builder("b").slowCallThreshold(Duration.ZERO));
        rejects(
                "maxHalfOpenDuration must be > 0, was PT-0.001S",
                () -> CircuitBreaker.builder("b").maxHalfOpenDuration(Duration.ofMillis(-1)));
        rejects("probes must be >= 1, was -3", () -> HalfOpenPolicies.fixed(Duration.ZERO, -3));
    }

    @Test
    void nullsAreNamed() {
        assertEquals(
                "name",
                assertThrows(NullPointerException.class, () -> CircuitBreaker.builder(null))
                        .getMessage());
        CircuitBreakerBuilder b = CircuitBreaker.builder("b");
        assertEquals(
                "window",
                assertThrows(NullPointerException.class, () -> b.window(null)).getMessage());
        assertEquals(
                "ticker",
                assertThrows(NullPointerException.class, () -> b.ticker(null)).getMessage());
        assertEquals(
                "classifier",
                assertThrows(NullPointerException.class, () -> b.classifier(null))
                        .getMessage());
        assertEquals(
                "listener",
                assertThrows(NullPointerException.class, () -> b.listener(null)).getMessage());
        assertEquals(
                "cooldown",
                assertThrows(NullPointerException.class, () -> b.cooldown(null)).getMessage());
    }

    @Test
    void rejectedValueLeavesTheBuilderUnchanged() {
        FakeTicker ticker = new FakeTicker();
        CircuitBreakerBuilder b = CircuitBreaker.builder("b")
                .window(Windows.consecutiveFailures(1))
                .cooldown(Duration.ofMillis(10))
                .ticker(ticker);
        assertThrows(IllegalArgumentException.class, () -> b.cooldown(Duration.ofMillis(-5)));
        CircuitBreaker breaker = b.build();
        breaker.tryAcquire().onFailure(0, null);
        ticker.advanceMillis(9);
        assertEquals(State.OPEN, breaker.state());
        assertTrue(!breaker.tryAcquire().granted(), "the 10 ms cooldown still holds");
    }

    @Test
    void halfOpenPolicyConflictsWithCooldownAndProbes() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> CircuitBreaker.builder("b")
                        .cooldown(Duration.ofSeconds(1))
                        .halfOpen(HalfOpenPolicies.fixed(Duration.ofSeconds(2), 1))
                        .build());
        assertTrue(e.getMessage().contains("cooldown(PT1S)"), e.getMessage());
    }

    @Test
    void defaultsAreDocumentedOnes() {
        FakeTicker ticker = new FakeTicker();
        CircuitBreaker b = CircuitBreaker.builder("defaults").ticker(ticker).build();
        for (int i = 0; i < 4; i++) {
            b.tryAcquire().onFailure(0, null);
        }
        assertEquals(State.CLOSED, b.state(), "default threshold is 5");
        b.tryAcquire().onFailure(0, null);
        assertEquals(State.OPEN, b.state());
        ticker.advance(Duration.ofSeconds(60).toNanos() - 1);
        assertTrue(!b.tryAcquire().granted(), "default cooldown is 60 s");
        ticker.advance(1);
        assertTrue(b.tryAcquire().granted());
        assertTrue(!b.tryAcquire().granted(), "default probes is 1");
        ticker.advance(CircuitBreakerConfig.DEFAULT_MAX_HALF_OPEN_DURATION.toNanos());
        b.tryAcquire();
        assertEquals(State.OPEN, b.state(), "default maximum half-open duration is 60 s");
    }

    @Test
    void durationsLongerThanALongOfNanosAreRefusedEverywhere() {
        String limit =
                " must be at most PT2562047H47M16.854775807S (Long.MAX_VALUE nanoseconds, about 292 years), was PT8760000H";
        Duration tooLong = Duration.ofDays(365L * 1_000);
        rejects("cooldown" + limit, () -> CircuitBreaker.builder("b").cooldown(tooLong));
        rejects("slowCallThreshold" + limit, () -> CircuitBreaker.builder("b").slowCallThreshold(tooLong));
        rejects("maxHalfOpenDuration" + limit, () -> CircuitBreaker.builder("b").maxHalfOpenDuration(tooLong));
        rejects("cooldown" + limit, () -> HalfOpenPolicies.fixed(tooLong, 1));
    }

    @Test
    void theLongestDurationIsAccepted() {
        FakeTicker ticker = new FakeTicker(Long.MAX_VALUE - 5); // wraps while open
        Duration longest = Duration.ofNanos(Long.MAX_VALUE);
        CircuitBreaker b = CircuitBreaker.builder("forever")
                .window(Windows.consecutiveFailures(1))
                .cooldown(longest)
                .slowCallThreshold(longest)
                .maxHalfOpenDuration(longest)
                .ticker(ticker)
                .build();
        b.tryAcquire().onSuccess(Long.MAX_VALUE - 1);
        assertEquals(0, b.metrics().slowCalls());
        b.tryAcquire().onFailure(0, null);
        ticker.advance(Long.MAX_VALUE - 1);
        CallNotPermittedException e = assertThrows(CallNotPermittedException.class, () -> b.run(() -> {}));
        assertEquals(1, e.retryAfterNanos(), "one nanosecond of the cooldown is left");
        ticker.advance(1);
        assertTrue(b.tryAcquire().granted(), "the cooldown ended, exactly");
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(
            strings = {"\u3164", "\u2800", "\uFFA0", "\u115F\u1160", "\u034F", "\uFE0F", " \u200B ", "\u00A0"})
    void namesThatShowNothingAreRefused(String name) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CircuitBreaker.builder(name));
        assertTrue(e.getMessage().startsWith("name must contain a visible character, was '"), e.getMessage());
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(
            strings = {
                "a\u2028b",
                "a\u2029b",
                "a\u202Ab",
                "a\u202Eb",
                "a\u2066b",
                "a\u2069b",
                "a\u061Cb",
                "a\u200Eb",
                "a\u200Fb",
                "a\rb",
                "a\u0000b",
                "a\u007Fb",
                "\uD800x"
            })
    void namesThatBreakOrReorderLinesAreRefused(String name) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CircuitBreaker.builder(name));
        assertTrue(e.getMessage().startsWith("name must not contain control characters, was '"), e.getMessage());
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(
            strings = {"payments", "payments-eu west", "Zahlungen", "支付", "платежи", "café", "a\u0301", "🚀", "x"})
    void namesPeopleWriteAreAccepted(String name) {
        assertEquals(name, CircuitBreaker.builder(name).build().name());
    }

    @Test
    void aRefusedNameIsQuotedWithItsLettersAsWrittenAndItsControlsEscaped() {
        rejects(
                "name must not contain control characters, was 'café\\u007F'",
                () -> CircuitBreaker.builder("café\u007F"));
        rejects(
                "name must not contain control characters, was 'Zahlungen \\u2069支付'",
                () -> CircuitBreaker.builder("Zahlungen \u2069支付"));
    }

    @Test
    void eventBacklogTakesOneToItsMaximumAndNamesAnythingElse() {
        rejects(
                "eventBacklog must be in [1, 1048576], was 0",
                () -> CircuitBreaker.builder("b").eventBacklog(0));
        rejects(
                "eventBacklog must be in [1, 1048576], was 1048577",
                () -> CircuitBreaker.builder("b").eventBacklog(CircuitBreakerBuilder.MAX_EVENT_BACKLOG + 1));
        for (int backlog : new int[] {1, CircuitBreakerBuilder.MAX_EVENT_BACKLOG}) {
            java.util.List<BreakerEvent> heard = new java.util.ArrayList<>();
            CircuitBreaker b = CircuitBreaker.builder("b")
                    .window(Windows.consecutiveFailures(1))
                    .ticker(new FakeTicker())
                    .eventExecutor(Runnable::run)
                    .eventBacklog(backlog)
                    .listener(heard::add)
                    .build();
            b.tryAcquire().onFailure(0, null);
            assertEquals(1, heard.size(), "a backlog of " + backlog + " delivers the trip");
        }
    }

    /**
     * Without an event executor, leftover events go where CompletableFuture sends its tasks: the
     * common pool when it runs tasks in parallel, else a new thread per hand-off. Either way the
     * thread is a daemon, so a breaker never keeps the JVM from exiting.
     */
    @Test
    void theDefaultEventExecutorUsesDaemonThreadsLikeCompletableFuture() throws Exception {
        java.util.concurrent.CountDownLatch entered = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch allDelivered = new java.util.concurrent.CountDownLatch(21);
        java.util.Queue<Thread> handedOffTo = new java.util.concurrent.ConcurrentLinkedQueue<>();
        CircuitBreaker b = CircuitBreaker.builder("daemons")
                .ticker(new FakeTicker())
                .listener(e -> {
                    if (!(e instanceof StateTransition t)) {
                        return;
                    }
                    if (t.generation() == 1) {
                        entered.countDown();
                        try {
                            release.await(10, java.util.concurrent.TimeUnit.SECONDS);
                        } catch (InterruptedException ie) {
                            Thread.currentThread().interrupt();
                        }
                    }
                    if (!Thread.currentThread().getName().equals("first-caller")) {
                        handedOffTo.add(Thread.currentThread());
                    }
                    allDelivered.countDown();
                })
                .build();
        Thread first = new Thread(b::reset, "first-caller");
        first.start();
        assertTrue(entered.await(Waits.SECONDS, java.util.concurrent.TimeUnit.SECONDS));
        for (int i = 0; i < 20; i++) {
            b.reset(); // queues its event: the first caller is still delivering
        }
        release.countDown();
        assertTrue(allDelivered.await(Waits.SECONDS, java.util.concurrent.TimeUnit.SECONDS));
        first.join(java.util.concurrent.TimeUnit.SECONDS.toMillis(Waits.SECONDS));
        assertTrue(!handedOffTo.isEmpty(), "the first caller handed the rest off");
        boolean commonPool = java.util.concurrent.ForkJoinPool.getCommonPoolParallelism() > 1;
        for (Thread t : handedOffTo) {
            assertTrue(t.isDaemon(), t.getName());
            if (commonPool) {
                assertTrue(
                        t instanceof java.util.concurrent.ForkJoinWorkerThread w
                                && w.getPool() == java.util.concurrent.ForkJoinPool.commonPool(),
                        t.getName());
            } else {
                assertEquals("dev.breaker-events", t.getName());
            }
        }
    }
}
