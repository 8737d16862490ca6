package dev.breaker.spring;

import dev.breaker.BreakerRegistry;
import dev.breaker.CircuitBreaker;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;

/**
 * The actuator endpoint {@code breakers}: every breaker of the registry with its state and metrics
 * ({@code GET /actuator/breakers}), one by name ({@code GET /actuator/breakers/{name}}), and the
 * operator's switches ({@code POST /actuator/breakers/{name}/isolate} and
 * {@code .../reset}). The write operations are secured as every actuator write operation is:
 * exposed only when the application exposes the endpoint, refused when
 * {@code management.endpoint.breakers.access=read-only}, and behind Spring Security's rules for
 * actuator requests where it is used.
 */
@Endpoint(id = "breakers")
public class BreakersEndpoint {

    private final BreakerRegistry registry;

    /**
     * Shows the breakers of {@code registry}.
     *
     * @param registry the registry
     */
    public BreakersEndpoint(BreakerRegistry registry) {
        this.registry = registry;
    }

    /**
     * Every breaker the registry holds now, by name.
     *
     * @return the breakers
     */
    @ReadOperation
    public Breakers breakers() {
        Map<String, BreakerReport> all = new TreeMap<>();
        for (CircuitBreaker b : registry.breakers()) {
            all.put(b.name(), BreakerReport.of(b));
        }
        return new Breakers(all);
    }

    /**
     * One breaker; none (a 404) when the registry holds no breaker of that name. Asking does not
     * make one.
     *
     * @param name the breaker's name
     * @return the breaker, or null
     */
    @ReadOperation
    public BreakerReport breaker(@Selector String name) {
        return registry.find(name).map(BreakerReport::of).orElse(null);
    }

    /**
     * Isolates ({@code isolate}: every call rejected until a reset) or resets ({@code reset}:
     * CLOSED with a fresh window) a breaker the registry holds.
     *
     * @param name   the breaker's name
     * @param action {@code isolate} or {@code reset}
     * @return the breaker afterwards
     * @throws InvalidEndpointRequestException (a 400) for another action, or when the registry holds
     *                                         no breaker of that name (a write operation that
     *                                         returns nothing would answer 204, as if it had worked)
     */
    @WriteOperation
    public BreakerReport change(@Selector String name, @Selector String action) {
        if (!action.equals("isolate") && !action.equals("reset")) {
            throw new InvalidEndpointRequestException(
                    "breakers/" + name + "/" + action + ": unknown action '" + action
                            + "'; the actions are isolate and reset",
                    "unknown action '" + action + "'; the actions are isolate and reset");
        }
        return registry.find(name)
                .map(b -> {
                    if (action.equals("isolate")) {
                        b.isolate();
                    } else {
                        b.reset();
                    }
                    return BreakerReport.of(b);
                })
                .orElseThrow(() -> new InvalidEndpointRequestException(
                        "breakers/" + name + "/" + action + ": no breaker named '" + name + "'; the registry holds "
                                + registry.breakers().stream()
                                        .map(CircuitBreaker::name)
                                        .sorted()
                                        .toList(),
                        "no breaker named '" + name + "'"));
    }

    /**
     * Every breaker, by name.
     *
     * @param breakers the breakers, sorted by name
     */
    public record Breakers(Map<String, BreakerReport> breakers) {}
}
