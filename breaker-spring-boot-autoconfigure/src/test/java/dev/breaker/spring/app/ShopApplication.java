package dev.breaker.spring.app;

import dev.breaker.CallNotPermittedException;
import dev.breaker.spring.Breaker;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.stereotype.Service;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/** A small service for {@code ShopApplicationTests}: a controller calling flaky dependencies through {@link Breaker}. */
@SpringBootApplication
public class ShopApplication {

    /** The dependencies: each fails while switched down. */
    @Service
    public static class Dependencies {
        private final AtomicBoolean quotesDown = new AtomicBoolean();
        private final AtomicBoolean stockDown = new AtomicBoolean();

        public void quotesDown(boolean down) {
            quotesDown.set(down);
        }

        public void stockDown(boolean down) {
            stockDown.set(down);
        }

        @Breaker(value = "quotes", fallbackMethod = "cachedQuote")
        public String quote(String item) throws IOException {
            if (quotesDown.get()) {
                throw new IOException("quotes service down");
            }
            return "fresh quote for " + item;
        }

        String cachedQuote(String item, Exception e) {
            return "cached quote for " + item + " ("
                    + (e instanceof CallNotPermittedException ? "breaker open" : e.getMessage()) + ")";
        }

        @Breaker(value = "stock", fallbackMethod = "unknownStock")
        public CompletableFuture<String> stock(String item) {
            return stockDown.get()
                    ? CompletableFuture.failedFuture(new IOException("stock service down"))
                    : CompletableFuture.supplyAsync(() -> "12 of " + item);
        }

        CompletableFuture<String> unknownStock(String item, Throwable t) {
            return CompletableFuture.completedFuture("stock of " + item + " unknown");
        }
    }

    /** What a client calls. */
    @RestController
    public static class ShopController {
        private final Dependencies dependencies;

        ShopController(Dependencies dependencies) {
            this.dependencies = dependencies;
        }

        @GetMapping("/quote/{item}")
        public String quote(@PathVariable String item) throws IOException {
            return dependencies.quote(item);
        }

        @GetMapping("/stock/{item}")
        public CompletableFuture<String> stock(@PathVariable String item) {
            return dependencies.stock(item);
        }
    }
}
