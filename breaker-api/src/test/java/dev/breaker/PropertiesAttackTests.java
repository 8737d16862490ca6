package dev.breaker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Properties;
import org.junit.jupiter.api.Test;

/** Properties a careless user may hand {@link BreakerRegistry#fromProperties(Properties)}. */
class PropertiesAttackTests {

    /**
     * A value that is not a String is an error naming the key (it is one at the top level), also
     * in the {@code Properties}' own defaults: {@code stringPropertyNames()} drops such a key
     * silently, and the setting was ignored (probes stayed 1).
     */
    @Test
    void aValueThatIsNotAStringInThePropertiesDefaultsIsAnErrorNotIgnored() {
        Properties defaults = new Properties();
        defaults.put("breaker.defaults.probes", 3);
        Properties p = new Properties(defaults);
        p.setProperty("breaker.defaults.cooldown", "5s");
        assertEquals(
                "breaker.defaults.probes: the value must be a String, was not one (in the defaults of the Properties)",
                assertThrows(IllegalArgumentException.class, () -> BreakerRegistry.fromProperties(p))
                        .getMessage());
        defaults.put("breaker.defaults.probes", "3");
        assertEquals(
                3,
                ((dev.breaker.internal.FixedHalfOpenPolicy)
                                BreakerRegistry.fromProperties(p).configFor("a").halfOpen())
                        .probes());
    }

    /** A key that is not a String is not ours, also in the defaults: it does not stop the check. */
    @Test
    void aKeyThatIsNotAStringIsIgnoredWhereverItIs() {
        Properties defaults = new Properties();
        defaults.put(42, "x");
        defaults.setProperty("breaker.defaults.probes", "2");
        Properties p = new Properties(defaults);
        p.put(43, 43);
        assertEquals(
                2,
                ((dev.breaker.internal.FixedHalfOpenPolicy)
                                BreakerRegistry.fromProperties(p).configFor("a").halfOpen())
                        .probes());
    }
}
