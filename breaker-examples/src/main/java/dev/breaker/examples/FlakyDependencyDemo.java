package dev.breaker.examples;

import dev.breaker.CallNotPermittedException;
import dev.breaker.CircuitBreaker;
import dev.breaker.StateTransition;
import dev.breaker.Windows;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A breaker in front of a dependency that goes down for a while and comes back. Time is
 * simulated (one call every 100 ms of fake time) so the run is instant and prints the same lines
 * every time: each call's fate, and each transition as the listener sees it.
 *
 * <p>Run: {@code mvn -B -ntp -q -pl breaker-examples -am compile exec:java}
 */
public final class FlakyDependencyDemo {

    private FlakyDependencyDemo() {}

    /**
     * Runs the demo.
     *
     * @param args ignored
     */
    public static void main(String[] args) {
        AtomicLong clock = new AtomicLong();
        List<String> transitions = new CopyOnWriteArrayList<>();
        CircuitBreaker breaker = CircuitBreaker.builder("inventory")
                .window(Windows.consecutiveFailures(3))
                .cooldown(Duration.ofMillis(500))
                .probes(2)
                .ticker(clock::get)
                .listener(event -> {
                    if (event instanceof StateTransition t) {
                        transitions.add(String.format(
                                "             >> %s -> %s (%s, generation %d)",
                                t.from(), t.to(), t.reason(), t.generation()));
                    }
                })
                .build();

        for (int i = 0; i < 30; i++) {
            long ms = i * 100L;
            clock.set(TimeUnit.MILLISECONDS.toNanos(ms));
            boolean down = ms >= 500 && ms < 1500; // the dependency is down from 0.5 s to 1.5 s
            String line;
            try {
                String answer = breaker.get(() -> {
                    if (down) {
                        throw new IllegalStateException("connection refused");
                    }
                    return "42 in stock";
                });
                line = "ok        " + answer;
            } catch (CallNotPermittedException e) {
                line = "rejected  " + e.getMessage();
            } catch (IllegalStateException e) {
                line = "failed    " + e.getMessage();
            }
            System.out.printf("t=%5d ms  %s%n", ms, line);
            transitions.forEach(System.out::println);
            transitions.clear();
        }
        System.out.println(breaker.metrics());
    }
}
