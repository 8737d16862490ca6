package dev.breaker.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.stream.Collectors;

/** Reading a breaker's meters back from a meter registry. */
final class Meters {

    /** Meters per breaker: 4 states, 5 outcomes, 2 slow outcomes, 2 rates, 10 transition pairs. */
    static final int PER_BREAKER = 23;

    private Meters() {}

    static double state(MeterRegistry r, String breaker, String state) {
        Gauge g =
                r.find("breaker.state").tag("name", breaker).tag("state", state).gauge();
        assertNotNull(g, "breaker.state " + breaker + " " + state);
        return g.value();
    }

    static double calls(MeterRegistry r, String breaker, String outcome) {
        FunctionCounter c = r.find("breaker.calls")
                .tag("name", breaker)
                .tag("outcome", outcome)
                .functionCounter();
        assertNotNull(c, "breaker.calls " + breaker + " " + outcome);
        return c.count();
    }

    static double slowCalls(MeterRegistry r, String breaker, String outcome) {
        FunctionCounter c = r.find("breaker.slow.calls")
                .tag("name", breaker)
                .tag("outcome", outcome)
                .functionCounter();
        assertNotNull(c, "breaker.slow.calls " + breaker + " " + outcome);
        return c.count();
    }

    static double gauge(MeterRegistry r, String meter, String breaker) {
        Gauge g = r.find(meter).tag("name", breaker).gauge();
        assertNotNull(g, meter + " " + breaker);
        return g.value();
    }

    static double transitions(MeterRegistry r, String breaker, String from, String to) {
        FunctionCounter c = r.find("breaker.transitions")
                .tag("name", breaker)
                .tag("from", from)
                .tag("to", to)
                .functionCounter();
        assertNotNull(c, "breaker.transitions " + breaker + " " + from + " -> " + to);
        return c.count();
    }

    /** Every meter tagged with this breaker's name. */
    static List<Meter> of(MeterRegistry r, String breaker) {
        return r.getMeters().stream()
                .filter(m -> breaker.equals(m.getId().getTag("name")))
                .collect(Collectors.toList());
    }

    static void assertBound(MeterRegistry r, String breaker) {
        assertEquals(PER_BREAKER, of(r, breaker).size(), "meters of " + breaker);
    }

    static void assertUnbound(MeterRegistry r, String breaker) {
        assertEquals(List.of(), of(r, breaker), "meters of " + breaker);
    }
}
