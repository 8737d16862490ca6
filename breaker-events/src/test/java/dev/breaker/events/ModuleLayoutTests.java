package dev.breaker.events;

import dev.breaker.tck.ProviderModuleContract;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The descriptor of dev.breaker.events, pinned; runs on the module path. */
class ModuleLayoutTests extends ProviderModuleContract {

    @Override
    protected Class<?> classInModule() {
        return EventBus.class;
    }

    @Override
    protected String moduleName() {
        return "dev.breaker.events";
    }

    @Override
    protected Set<String> exports() {
        return Set.of("dev.breaker.events");
    }

    @Override
    protected Map<String, List<String>> provides() {
        return Map.of();
    }
}
