package dev.breaker.spi;

import org.junit.jupiter.api.Tag;

/**
 * {@link CombiningWindowLincheckTests} for a window that takes buffered successes as runs (a count
 * window's mode): a run miscounted, applied twice, or applied out of its thread's order shows as
 * counts no sequential order gives.
 */
@Tag("class-path") // Lincheck instruments classes; it runs on the plain class path
public class CombiningWindowRunsLincheckTests extends CombiningWindowLincheckTests {

    /** Lincheck makes one per scenario. */
    public CombiningWindowRunsLincheckTests() {}

    @Override
    boolean successRuns() {
        return true;
    }
}
