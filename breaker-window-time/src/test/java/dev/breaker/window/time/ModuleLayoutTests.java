package dev.breaker.window.time;

import dev.breaker.tck.ProviderModuleContract;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The descriptor of dev.breaker.window.time, pinned; runs on the module path. */
class ModuleLayoutTests extends ProviderModuleContract {

    @Override
    protected Class<?> classInModule() {
        return TimeWindow.class;
    }

    @Override
    protected String moduleName() {
        return "dev.breaker.window.time";
    }

    @Override
    protected Set<String> exports() {
        return Set.of("dev.breaker.window.time");
    }

    @Override
    protected Map<String, List<String>> provides() {
        return Map.of("dev.breaker.spi.WindowProvider", List.of("dev.breaker.window.time.internal.TimeWindowProvider"));
    }
}
