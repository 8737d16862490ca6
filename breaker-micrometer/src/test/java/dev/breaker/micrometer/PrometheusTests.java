package dev.breaker.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breaker.BreakerRegistry;
import dev.breaker.CircuitBreaker;
import dev.breaker.CircuitBreakerConfig;
import dev.breaker.Windows;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** What a Prometheus scrape shows, line for line. */
class PrometheusTests {

    @Test
    void aScrapeShowsTheMetersInPrometheusNames() {
        ManualTicker ticker = new ManualTicker();
        BreakerRegistry registry = BreakerRegistry.builder()
                .defaults(CircuitBreakerConfig.builder()
                        .window(Windows.consecutiveFailures(1))
                        .cooldown(Duration.ofSeconds(10))
                        .slowCallThreshold(Duration.ofMillis(100))
                        .build())
                .ticker(ticker)
                .build();
        PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        new BreakerMeterBinder(registry).bindTo(prometheus);
        CircuitBreaker payments = registry.breaker("payments");
        payments.tryAcquire().onSuccess(0);
        payments.tryAcquire().onSuccess(200 * ManualTicker.MILLI);
        payments.tryAcquire().onFailure(0, null);
        payments.tryAcquire();

        String text = prometheus.scrape();
        List<String> lines = text.lines()
                .filter(l -> l.contains("name=\"payments\""))
                .sorted()
                .collect(Collectors.toList());
        assertEquals(
                List.of(
                        "breaker_calls_total{name=\"payments\",outcome=\"failure\"} 1.0",
                        "breaker_calls_total{name=\"payments\",outcome=\"ignored\"} 0.0",
                        "breaker_calls_total{name=\"payments\",outcome=\"late\"} 0.0",
                        "breaker_calls_total{name=\"payments\",outcome=\"rejected\"} 1.0",
                        "breaker_calls_total{name=\"payments\",outcome=\"success\"} 2.0",
                        "breaker_failure_rate{name=\"payments\"} 1.0",
                        "breaker_slow_call_rate{name=\"payments\"} 0.0",
                        "breaker_slow_calls_total{name=\"payments\",outcome=\"failure\"} 0.0",
                        "breaker_slow_calls_total{name=\"payments\",outcome=\"success\"} 1.0",
                        "breaker_state{name=\"payments\",state=\"closed\"} 0.0",
                        "breaker_state{name=\"payments\",state=\"half_open\"} 0.0",
                        "breaker_state{name=\"payments\",state=\"isolated\"} 0.0",
                        "breaker_state{name=\"payments\",state=\"open\"} 1.0",
                        "breaker_transitions_total{from=\"closed\",name=\"payments\",to=\"closed\"} 0.0",
                        "breaker_transitions_total{from=\"closed\",name=\"payments\",to=\"isolated\"} 0.0",
                        "breaker_transitions_total{from=\"closed\",name=\"payments\",to=\"open\"} 1.0",
                        "breaker_transitions_total{from=\"half_open\",name=\"payments\",to=\"closed\"} 0.0",
                        "breaker_transitions_total{from=\"half_open\",name=\"payments\",to=\"isolated\"} 0.0",
                        "breaker_transitions_total{from=\"half_open\",name=\"payments\",to=\"open\"} 0.0",
                        "breaker_transitions_total{from=\"isolated\",name=\"payments\",to=\"closed\"} 0.0",
                        "breaker_transitions_total{from=\"open\",name=\"payments\",to=\"closed\"} 0.0",
                        "breaker_transitions_total{from=\"open\",name=\"payments\",to=\"half_open\"} 0.0",
                        "breaker_transitions_total{from=\"open\",name=\"payments\",to=\"isolated\"} 0.0"),
                lines);
        assertTrue(
                text.contains("# HELP breaker_calls_total " + MeterNames.CALLS_DESCRIPTION + "\n"),
                "descriptions become HELP lines:\n" + text);
        assertTrue(text.contains("# TYPE breaker_calls_total counter\n"), text);
        assertTrue(text.contains("# TYPE breaker_state gauge\n"), text);

        registry.remove("payments");
        assertTrue(!prometheus.scrape().contains("payments"), "removed with the breaker");
    }

    @Test
    void commonTagsShowInTheScrape() {
        PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        new BreakerMeterBinder(
                        CircuitBreaker.builder("payments").build(),
                        io.micrometer.core.instrument.Tags.of("app", "shop"))
                .bindTo(prometheus);
        assertTrue(
                prometheus.scrape().contains("breaker_state{app=\"shop\",name=\"payments\",state=\"closed\"} 1.0"),
                prometheus.scrape());
    }
}
