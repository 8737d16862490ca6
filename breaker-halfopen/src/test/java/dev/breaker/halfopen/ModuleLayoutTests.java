package dev.breaker.halfopen;

import dev.breaker.tck.ProviderModuleContract;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The descriptor of dev.breaker.halfopen, pinned; runs on the module path. */
class ModuleLayoutTests extends ProviderModuleContract {

    @Override
    protected Class<?> classInModule() {
        return ExponentialPolicy.class;
    }

    @Override
    protected String moduleName() {
        return "dev.breaker.halfopen";
    }

    @Override
    protected Set<String> exports() {
        return Set.of("dev.breaker.halfopen");
    }

    @Override
    protected Map<String, List<String>> provides() {
        return Map.of(
                "dev.breaker.spi.HalfOpenPolicyProvider",
                List.of("dev.breaker.halfopen.internal.ExponentialPolicyProvider"));
    }
}
