package dev.breaker.spring;

import dev.breaker.BreakerRegistry;
import dev.breaker.CircuitBreaker;
import dev.breaker.State;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

/**
 * The health contributor {@code breakers}: the state of the breakers named in
 * {@code breaker.health.include}, and of no other (opt-in per breaker).
 *
 * <ul>
 * <li>OPEN and still cooling down: {@code DOWN}, with what is left of the cooldown;
 * <li>OPEN with its cooldown over: {@code UP}, {@code readyToProbe}. An OPEN breaker does not
 *     move by itself: the next request is the probe that can close it, so health-based routing must
 *     not keep that request away;
 * <li>ISOLATED (an operator's switch): {@code OUT_OF_SERVICE};
 * <li>CLOSED or HALF_OPEN: {@code UP}; a named breaker not made yet: {@code UP}, "not made yet".
 * </ul>
 * The worst of them is the contributor's status. Spring Boot's liveness and readiness groups
 * contain only the availability states unless the application adds contributors to them, so an
 * OPEN breaker takes no instance out of a load balancer unless the application asks for that.
 */
public class BreakersHealthIndicator implements HealthIndicator {

    private final BreakerRegistry registry;
    private final List<String> include;

    /**
     * Reports the breakers named in {@code include}.
     *
     * @param registry the registry
     * @param include  the names reported
     */
    public BreakersHealthIndicator(BreakerRegistry registry, List<String> include) {
        this.registry = registry;
        this.include = List.copyOf(include);
    }

    @Override
    public Health health() {
        Status worst = Status.UP;
        Map<String, Object> details = new LinkedHashMap<>();
        for (String name : include) {
            Optional<CircuitBreaker> found = registry.find(name);
            if (found.isEmpty()) {
                details.put(name, Map.of("state", "not made yet"));
                continue;
            }
            CircuitBreaker b = found.get();
            State state = b.state();
            long retryAfter = b.retryAfterNanos();
            Map<String, Object> one = new LinkedHashMap<>();
            one.put("state", state);
            Status status = Status.UP;
            if (state == State.OPEN && retryAfter > 0) {
                status = Status.DOWN;
                one.put("retryAfter", Duration.ofNanos(retryAfter).toString());
            } else if (state == State.OPEN) {
                one.put("readyToProbe", true);
            } else if (state == State.ISOLATED) {
                status = Status.OUT_OF_SERVICE;
            }
            one.put("status", status.getCode());
            details.put(name, one);
            if (rank(status) > rank(worst)) {
                worst = status;
            }
        }
        return Health.status(worst).withDetails(details).build();
    }

    private static int rank(Status s) {
        return s.equals(Status.DOWN) ? 2 : s.equals(Status.OUT_OF_SERVICE) ? 1 : 0;
    }
}
