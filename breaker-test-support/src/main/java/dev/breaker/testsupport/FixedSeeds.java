package dev.breaker.testsupport;

import java.lang.reflect.AnnotatedElement;
import java.util.Optional;
import net.jqwik.api.AfterFailureMode;
import net.jqwik.api.lifecycle.AroundPropertyHook;
import net.jqwik.api.lifecycle.PropagationMode;
import net.jqwik.api.lifecycle.PropertyAttributes;
import net.jqwik.api.lifecycle.PropertyExecutionResult;
import net.jqwik.api.lifecycle.PropertyExecutor;
import net.jqwik.api.lifecycle.PropertyLifecycleContext;

/**
 * Gives every jqwik property one fixed seed when the system property {@value #SEED} is set, so
 * that a run is repeatable.
 *
 * <p>The mutation profile sets it: PIT runs the same properties once per mutant, and with a fresh
 * random seed each time a mutant could be killed in one run and survive the next, so scores would
 * drift. Nor does a run start from a sample an earlier run failed with (jqwik's database), since
 * that earlier run was another mutant's. Ordinary builds leave it unset and every property draws a new seed, as jqwik intends. A
 * property that names its own seed keeps it.
 *
 * <p>Registered for the whole engine through {@code META-INF/services}; jqwik finds it on the class
 * path, where PIT runs its tests.
 */
public final class FixedSeeds implements AroundPropertyHook {

    /** The system property that holds the seed: {@code breaker.jqwik.seed}. */
    public static final String SEED = "breaker.jqwik.seed";

    /** For the service loader. */
    public FixedSeeds() {}

    @Override
    public PropagationMode propagateTo() {
        return PropagationMode.ALL_DESCENDANTS;
    }

    @Override
    public boolean appliesTo(Optional<AnnotatedElement> element) {
        return true;
    }

    @Override
    public PropertyExecutionResult aroundProperty(PropertyLifecycleContext context, PropertyExecutor property) {
        String seed = System.getProperty(SEED, "").strip();
        PropertyAttributes attributes = context.attributes();
        if (!seed.isEmpty() && attributes.seed().isEmpty()) {
            attributes.setSeed(seed);
            // not a sample some earlier run (another mutant) failed with: each run stands alone
            attributes.setAfterFailure(AfterFailureMode.RANDOM_SEED);
        }
        return property.execute();
    }
}
