package dev.breaker.tck;

import static org.junit.jupiter.api.Assertions.assertFalse;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The contract runs from the TCK jar on the plain class path too, as most users' builds run it. */
@Tag("class-path")
class ClassPathContractTests extends ConsecutiveWindowContractTests {

    @Test
    void theTckIsOnTheClassPath() {
        assertFalse(WindowContract.class.getModule().isNamed());
    }
}
