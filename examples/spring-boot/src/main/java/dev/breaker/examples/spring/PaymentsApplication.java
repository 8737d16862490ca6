package dev.breaker.examples.spring;

import dev.breaker.CallNotPermittedException;
import dev.breaker.spring.Breaker;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.stereotype.Service;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * A payments service whose gateway can be switched down and up over HTTP, calling it through
 * {@code @Breaker("payments")} (configured in {@code application.yml}). Port 8080.
 *
 * <p>Run: {@code mvn -B -ntp -q -pl examples/spring-boot -am compile exec:java}, then see the
 * README's "Spring Boot" section for the curl commands.
 */
@SpringBootApplication
public class PaymentsApplication {

    /** Made by Spring. */
    public PaymentsApplication() {}

    /**
     * Starts the service.
     *
     * @param args Spring Boot's arguments, such as {@code --server.port=9090}
     */
    public static void main(String[] args) {
        SpringApplication.run(PaymentsApplication.class, args);
    }

    /** The remote payments gateway, simulated: it fails while switched down. */
    @Service
    public static class Gateway {
        private final AtomicBoolean down = new AtomicBoolean();

        /** Made by Spring; up at first. */
        public Gateway() {}

        /**
         * Switches the gateway down or up.
         *
         * @param down whether it fails
         */
        public void set(boolean down) {
            this.down.set(down);
        }

        /**
         * Charges an order.
         *
         * @param order the order
         * @return a receipt
         * @throws IOException while the gateway is down
         */
        public String charge(String order) throws IOException {
            if (down.get()) {
                throw new IOException("gateway timed out");
            }
            return "receipt for " + order;
        }
    }

    /** The gateway behind the breaker. */
    @Service
    public static class Payments {
        private final Gateway gateway;

        /**
         * Calls {@code gateway}.
         *
         * @param gateway the gateway
         */
        public Payments(Gateway gateway) {
            this.gateway = gateway;
        }

        /**
         * Charges an order through the breaker {@code payments}.
         *
         * @param order the order
         * @return a receipt, or the fallback's answer
         * @throws IOException never: the fallback takes every exception
         */
        @Breaker(value = "payments", fallbackMethod = "deferred")
        public String charge(String order) throws IOException {
            return gateway.charge(order);
        }

        /**
         * The fallback: the charge is queued for later.
         *
         * @param order  the order
         * @param reason a rejection or the gateway's failure
         * @return what the client is told
         */
        String deferred(String order, Exception reason) {
            return "deferred " + order + " ("
                    + (reason instanceof CallNotPermittedException ? "breaker open" : reason.getMessage()) + ")";
        }
    }

    /** The service's HTTP interface. */
    @RestController
    public static class PaymentsController {
        private final Payments payments;
        private final Gateway gateway;

        /**
         * Serves {@code payments}.
         *
         * @param payments the payments
         * @param gateway  the simulated gateway, to switch it
         */
        public PaymentsController(Payments payments, Gateway gateway) {
            this.payments = payments;
            this.gateway = gateway;
        }

        /**
         * Charges an order.
         *
         * @param order the order
         * @return the receipt or the fallback's answer
         * @throws IOException never
         */
        @GetMapping("/charge/{order}")
        public String charge(@PathVariable String order) throws IOException {
            return payments.charge(order) + "\n";
        }

        /**
         * Switches the simulated gateway.
         *
         * @param state {@code down} or {@code up}
         * @return the new state
         */
        @PostMapping("/gateway/{state}")
        public String gateway(@PathVariable String state) {
            gateway.set(state.equals("down"));
            return "gateway " + state + "\n";
        }
    }
}
