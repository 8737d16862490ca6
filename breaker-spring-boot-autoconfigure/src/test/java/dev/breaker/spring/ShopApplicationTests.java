package dev.breaker.spring;

import static org.assertj.core.api.Assertions.assertThat;

import com.jayway.jsonpath.JsonPath;
import dev.breaker.BreakerRegistry;
import dev.breaker.CircuitBreakerConfig;
import dev.breaker.spring.app.ShopApplication;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The real thing: the shop application on a random port, a controller calling flaky dependencies
 * through {@link Breaker}, and plain HTTP requests against it and against the actuator (the
 * {@code breakers} endpoint, its isolate and reset operations, health with its probes, and the
 * Prometheus scrape). Configured from {@code shop.yml}.
 */
@SpringBootTest(
        classes = ShopApplication.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "spring.config.name=shop")
class ShopApplicationTests {

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @LocalServerPort
    int port;

    @Autowired
    ShopApplication.Dependencies dependencies;

    @Autowired
    BreakerRegistry registry;

    private HttpResponse<String> get(String path) throws Exception {
        return HTTP.send(
                HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(String path) throws Exception {
        return HTTP.send(
                HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                        .POST(HttpRequest.BodyPublishers.noBody())
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static Object json(HttpResponse<String> response, String path) {
        return JsonPath.read(response.body(), path);
    }

    @Test
    void theYamlConfigurationMeansWhatThePropertiesFormatSays() {
        BreakerRegistry expected = BreakerRegistry.fromProperties(Map.of(
                "breaker.defaults.window.type", "consecutive",
                "breaker.defaults.window.threshold", "3",
                "breaker.defaults.cooldown", "1h",
                "breaker.instances.quotes.cooldown", "5s",
                "breaker.instances.quotes.probes", "1",
                "breaker.instances.stock.window.type", "count",
                "breaker.instances.stock.window.size", "4",
                "breaker.instances.stock.window.minimumCalls", "2",
                "breaker.instances.stock.window.failureRateThreshold", "0.5"));
        for (String name : new String[] {"quotes", "stock", "other"}) {
            CircuitBreakerConfig config = registry.configFor(name);
            assertThat(config).as(name).isEqualTo(expected.configFor(name));
        }
    }

    @Test
    void aBreakerOpensOnFailuresAndRecoversAfterItsCooldownAsSeenOverHttp() throws Exception {
        assertThat(get("/quote/tea").body()).isEqualTo("fresh quote for tea");
        dependencies.quotesDown(true);
        for (int i = 0; i < 3; i++) {
            assertThat(get("/quote/tea").body()).isEqualTo("cached quote for tea (quotes service down)");
        }
        assertThat(get("/quote/tea").body()).isEqualTo("cached quote for tea (breaker open)");

        HttpResponse<String> open = get("/actuator/breakers/quotes");
        assertThat(open.statusCode()).isEqualTo(200);
        assertThat(json(open, "$.state")).isEqualTo("OPEN");
        assertThat(json(open, "$.readyToProbe")).isEqualTo(false);
        assertThat((Integer) json(open, "$.retryAfterMillis")).isBetween(1, 5_000);
        assertThat(json(open, "$.metrics.totalFailures")).isEqualTo(3);
        assertThat(json(open, "$.metrics.rejectedCalls")).isEqualTo(1);

        HttpResponse<String> down = get("/actuator/health");
        assertThat(down.statusCode()).isEqualTo(503);
        assertThat(json(down, "$.components.breakers.status")).isEqualTo("DOWN");
        assertThat(json(down, "$.components.breakers.details.quotes.state")).isEqualTo("OPEN");
        assertThat(json(down, "$.components.breakers.details.stock.status")).isEqualTo("UP");
        HttpResponse<String> readiness = get("/actuator/health/readiness");
        assertThat(readiness.statusCode())
                .as("readiness does not hold the breakers")
                .isEqualTo(200);
        assertThat(readiness.body()).doesNotContain("breakers");
        assertThat(get("/actuator/health/liveness").statusCode()).isEqualTo(200);

        dependencies.quotesDown(false);
        Awaitility.await()
                .atMost(Duration.ofSeconds(30)) // the 5 s cooldown, with room for a loaded machine
                .until(() ->
                        json(get("/actuator/breakers/quotes"), "$.readyToProbe").equals(true));
        HttpResponse<String> ready = get("/actuator/health");
        assertThat(ready.statusCode())
                .as("a breaker ready to probe is not down")
                .isEqualTo(200);
        assertThat(json(ready, "$.components.breakers.details.quotes.readyToProbe"))
                .isEqualTo(true);
        assertThat(json(get("/actuator/breakers/quotes"), "$.state")).isEqualTo("OPEN");

        assertThat(get("/quote/tea").body()).isEqualTo("fresh quote for tea"); // the probe
        HttpResponse<String> closed = get("/actuator/breakers/quotes");
        assertThat(json(closed, "$.state")).isEqualTo("CLOSED");
        assertThat(json(closed, "$.metrics.generation")).isEqualTo(3); // OPEN, HALF_OPEN, CLOSED
    }

    @Test
    void isolateAndResetOverHttpAndAnAsyncMethodWithItsFallback() throws Exception {
        assertThat(get("/stock/pen").body()).isEqualTo("12 of pen");
        HttpResponse<String> isolated = post("/actuator/breakers/stock/isolate");
        assertThat(isolated.statusCode()).isEqualTo(200);
        assertThat(json(isolated, "$.state")).isEqualTo("ISOLATED");
        assertThat(json(isolated, "$.retryAfterMillis")).isEqualTo(-1);
        assertThat(get("/stock/pen").body()).isEqualTo("stock of pen unknown");
        assertThat(json(get("/actuator/health"), "$.components.breakers.details.stock.status"))
                .isEqualTo("OUT_OF_SERVICE");
        HttpResponse<String> reset = post("/actuator/breakers/stock/reset");
        assertThat(json(reset, "$.state")).isEqualTo("CLOSED");
        assertThat(get("/stock/pen").body()).isEqualTo("12 of pen");

        dependencies.stockDown(true);
        assertThat(get("/stock/pen").body()).isEqualTo("stock of pen unknown");
        assertThat(get("/stock/pen").body()).isEqualTo("stock of pen unknown");
        assertThat(json(get("/actuator/breakers/stock"), "$.state")).isEqualTo("OPEN"); // 2 of 2 failed
        dependencies.stockDown(false);
        assertThat(post("/actuator/breakers/stock/reset").statusCode()).isEqualTo(200);
    }

    @Test
    void theEndpointListsEveryBreakerAnswers404ForAnUnknownOneAnd400ForAWriteToAnUnknownOneOrAnUnknownAction()
            throws Exception {
        HttpResponse<String> all = get("/actuator/breakers");
        assertThat(all.statusCode()).isEqualTo(200);
        assertThat(((Map<?, ?>) json(all, "$.breakers")).keySet())
                .map(Object::toString)
                .contains("quotes", "stock");
        assertThat(get("/actuator/breakers/nothing").statusCode()).isEqualTo(404);
        HttpResponse<String> noSuchBreaker = post("/actuator/breakers/nothing/reset");
        assertThat(noSuchBreaker.statusCode()).isEqualTo(400);
        HttpResponse<String> unknown = post("/actuator/breakers/quotes/explode");
        assertThat(unknown.statusCode()).isEqualTo(400);
        assertThat(json(get("/actuator/breakers/quotes"), "$.state")).isNotEqualTo("ISOLATED");
        assertThat(registry.find("nothing")).as("asking made no breaker").isEmpty();
    }

    @Test
    void thePrometheusScrapeHasTheBreakersMeters() throws Exception {
        get("/quote/coffee");
        HttpResponse<String> scrape = get("/actuator/prometheus");
        assertThat(scrape.statusCode()).isEqualTo(200);
        assertThat(scrape.body())
                .contains("breaker_state{name=\"stock\",state=\"closed\"}")
                .contains("breaker_calls_total{name=\"quotes\",outcome=\"success\"}")
                .contains("breaker_failure_rate{name=\"quotes\"}");
    }
}
