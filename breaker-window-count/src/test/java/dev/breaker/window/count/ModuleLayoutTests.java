package dev.breaker.window.count;

import dev.breaker.tck.ProviderModuleContract;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The descriptor of dev.breaker.window.count, pinned; runs on the module path. */
class ModuleLayoutTests extends ProviderModuleContract {

    @Override
    protected Class<?> classInModule() {
        return CountWindow.class;
    }

    @Override
    protected String moduleName() {
        return "dev.breaker.window.count";
    }

    @Override
    protected Set<String> exports() {
        return Set.of("dev.breaker.window.count");
    }

    @Override
    protected Map<String, List<String>> provides() {
        return Map.of(
                "dev.breaker.spi.WindowProvider", List.of("dev.breaker.window.count.internal.CountWindowProvider"));
    }
}
