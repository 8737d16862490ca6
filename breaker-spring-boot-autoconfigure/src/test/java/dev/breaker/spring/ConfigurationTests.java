package dev.breaker.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.breaker.BreakerListener;
import dev.breaker.BreakerRegistry;
import dev.breaker.CircuitBreakerConfig;
import dev.breaker.StateTransition;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.util.TestPropertyValues;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The registry bean from {@code breaker.*}: what the keys mean, the beans it takes, and bad configuration. */
class ConfigurationTests {

    private final ApplicationContextRunner runner =
            new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(BreakerAutoConfiguration.class));

    /**
     * A health include that nothing declares or configures is most likely misspelt: it would read
     * "not made yet" (UP) for ever, so startup warns, naming it; configured and declared names
     * are quiet.
     */
    @Test
    @ExtendWith(OutputCaptureExtension.class)
    void aHealthIncludeThatNothingDeclaresOrConfiguresIsWarnedOfAtStartup(CapturedOutput output) {
        runner.withPropertyValues(
                        "breaker.health.include=paymnets,configured", "breaker.instances.configured.cooldown=1s")
                .run(context -> assertThat(context).hasNotFailed());
        assertThat(output.getAll())
                .contains("breaker.health.include names the breaker 'paymnets'")
                .doesNotContain("'configured'");
    }

    @Test
    void theUnknownHealthNamesAreThoseNoAnnotationDeclaresAndNoInstanceKeyConfigures() {
        BreakerProperties properties = new BreakerProperties();
        properties
                .getHealth()
                .getInclude()
                .addAll(List.of("payments", "paymnets", "payments.eu", "orders", "paymnets"));
        properties.getInstances().put("payments.eu.cooldown", "1s");
        assertThat(BreakerBeanValidator.unknownHealthNames(properties, List.of("payments")))
                .containsExactly("paymnets", "orders");
        assertThat(BreakerBeanValidator.unknownHealthNames(new BreakerProperties(), List.of("payments")))
                .isEmpty();
        BreakerProperties holes = new BreakerProperties();
        holes.getHealth().getInclude().addAll(java.util.Arrays.asList(null, "", " ", "orders"));
        assertThat(BreakerBeanValidator.unknownHealthNames(holes, java.util.Set.of("payments")))
                .as("null and blank items are skipped, not thrown on (a Set.of refuses contains(null))")
                .containsExactly("orders");
    }

    @Test
    void theKeysMeanWhatTheyMeanInThePropertiesFormatAndInstancesInheritTheDefaults() {
        runner.withPropertyValues(
                        "breaker.defaults.window.type=count",
                        "breaker.defaults.window.size=10",
                        "breaker.defaults.window.failure-rate-threshold=50%",
                        "breaker.defaults.cooldown=30s",
                        "breaker.defaults.slowCallThreshold=2s",
                        "breaker.instances.payments.window.size=4",
                        "breaker.instances.payments.probes=3",
                        "breaker.instances.payments.eu.max-half-open-duration=PT1M",
                        "breaker.registry.max-open-share=0.5")
                .run(context -> {
                    BreakerRegistry registry = context.getBean(BreakerRegistry.class);
                    BreakerRegistry expected = BreakerRegistry.fromProperties(Map.of(
                            "breaker.defaults.window.type", "count",
                            "breaker.defaults.window.size", "10",
                            "breaker.defaults.window.failureRateThreshold", "0.5",
                            "breaker.defaults.cooldown", "PT30S",
                            "breaker.defaults.slow-call-threshold", "2s",
                            "breaker.instances.payments.window.size", "4",
                            "breaker.instances.payments.probes", "3",
                            "breaker.instances.payments.eu.maxHalfOpenDuration", "1m"));
                    for (String name : List.of("payments", "payments.eu", "other")) {
                        assertThat(registry.configFor(name)).as(name).isEqualTo(expected.configFor(name));
                    }
                    CircuitBreakerConfig payments = registry.configFor("payments");
                    assertThat(payments.window().describe()).contains("size=4").contains("0.5");
                    assertThat(payments).isNotEqualTo(registry.configFor("other"));
                });
    }

    @Test
    void environmentVariablesAndYamlListsBindToo() {
        runner.withInitializer(context -> TestPropertyValues.of(
                                "BREAKER_DEFAULTS_COOLDOWN=5s", "BREAKER_INSTANCES_STOCK_WINDOW_THRESHOLD=7")
                        .applyTo(
                                context.getEnvironment(),
                                TestPropertyValues.Type.SYSTEM_ENVIRONMENT,
                                "test-systemEnvironment"))
                .withPropertyValues(
                        "breaker.instances.stock.classifier.type=exceptions",
                        "breaker.instances.stock.classifier.record-exceptions[0]=java.io.IOException",
                        "breaker.instances.stock.classifier.record-exceptions[1]=java.util.concurrent.TimeoutException")
                .run(context -> {
                    BreakerRegistry registry = context.getBean(BreakerRegistry.class);
                    BreakerRegistry expected = BreakerRegistry.fromProperties(Map.of(
                            "breaker.defaults.cooldown",
                            "5s",
                            "breaker.instances.stock.window.threshold",
                            "7",
                            "breaker.instances.stock.classifier.type",
                            "exceptions",
                            "breaker.instances.stock.classifier.record-exceptions",
                            "java.io.IOException, java.util.concurrent.TimeoutException"));
                    assertThat(registry.configFor("stock")).isEqualTo(expected.configFor("stock"));
                    assertThat(registry.configFor("other")).isEqualTo(expected.configFor("other"));
                });
    }

    /**
     * A list is one property, as Spring binds lists: the source that wins gives the whole list,
     * whether it writes a list, a shorter list (a profile's) or a comma-separated value, in either
     * spelling. Bound as a map, each element came from whichever source had it: a command-line
     * value left the file's list in place, and a shorter list kept the tail of the longer one.
     */
    @Test
    void aListOverriddenInAHigherSourceIsReplacedWhole() {
        String key = "breaker.instances.stock.classifier.";
        Map<String, Object> applicationYml = Map.of(
                key + "type", "exceptions",
                key + "record-exceptions[0]", "java.io.IOException",
                key + "record-exceptions[1]", "java.util.concurrent.TimeoutException",
                key + "record-exceptions[2]", "java.lang.IllegalStateException");
        for (Map<String, Object> higher : List.<Map<String, Object>>of(
                Map.of(key + "record-exceptions", "java.net.ConnectException"),
                Map.of(key + "recordExceptions", "java.net.ConnectException"),
                Map.of(key + "record-exceptions[0]", "java.net.ConnectException"))) {
            runner.withInitializer(context -> {
                        var sources = context.getEnvironment().getPropertySources();
                        sources.addLast(
                                new org.springframework.core.env.MapPropertySource("application.yml", applicationYml));
                        sources.addFirst(new org.springframework.core.env.MapPropertySource("command line", higher));
                    })
                    .run(context -> {
                        assertThat(context).as(higher.toString()).hasNotFailed();
                        assertThat(context.getBean(BreakerRegistry.class).configFor("stock"))
                                .as(higher.toString())
                                .isEqualTo(BreakerRegistry.fromProperties(Map.of(
                                                key + "type", "exceptions",
                                                key + "record-exceptions", "java.net.ConnectException"))
                                        .configFor("stock"));
                    });
        }
    }

    /**
     * An instance name Spring needs brackets for (a host and port) keeps its list: the binder
     * cannot answer for such a name, and the elements as bound are used.
     */
    @Test
    void aBracketedInstanceNameKeepsItsList() {
        String host = "breaker.instances[10.0.0.7:8443].classifier.";
        runner.withInitializer(context -> context.getEnvironment() // a map: withPropertyValues splits at the ':'
                        .getPropertySources()
                        .addFirst(new org.springframework.core.env.MapPropertySource(
                                "application.yml",
                                Map.of(
                                        host + "type", "exceptions",
                                        host + "record-exceptions[0]", "java.io.IOException",
                                        host + "record-exceptions[1]", "java.net.ConnectException"))))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    String key = "breaker.instances.10.0.0.7:8443.classifier.";
                    assertThat(context.getBean(BreakerRegistry.class).configFor("10.0.0.7:8443"))
                            .isEqualTo(BreakerRegistry.fromProperties(Map.of(
                                            key + "type", "exceptions",
                                            key + "record-exceptions", "java.io.IOException,java.net.ConnectException"))
                                    .configFor("10.0.0.7:8443"));
                });
    }

    @Test
    void aKeyOverriddenInAnotherRelaxedSpellingTakesTheOverridingValue() {
        // application.yml in kebab-case, overridden from the command line or SPRING_APPLICATION_JSON in
        // camelCase: one property for Spring, so the higher source wins, as for any Spring property
        runner.withInitializer(context -> context.getEnvironment()
                        .getPropertySources()
                        .addLast(new org.springframework.core.env.MapPropertySource(
                                "application.yml",
                                Map.of(
                                        "breaker.defaults.slow-call-threshold", "1s",
                                        "breaker.defaults.window.failure-rate-threshold", "50%",
                                        "breaker.defaults.window.type", "count"))))
                .withPropertyValues(
                        "breaker.defaults.slowCallThreshold=2s",
                        "breaker.defaults.window.failureRateThreshold=0.2",
                        "breaker.instances.Stock.probes=3", // names are case-sensitive: two breakers
                        "breaker.instances.stock.probes=3")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    BreakerRegistry registry = context.getBean(BreakerRegistry.class);
                    assertThat(registry.configFor("Stock")).isEqualTo(registry.configFor("stock"));
                    assertThat(registry.configFor("stock")).isNotEqualTo(registry.configFor("any"));
                    assertThat(context.getBean(BreakerRegistry.class).configFor("any"))
                            .isEqualTo(BreakerRegistry.fromProperties(Map.of(
                                            "breaker.defaults.slow-call-threshold", "2s",
                                            "breaker.defaults.window.type", "count",
                                            "breaker.defaults.window.failure-rate-threshold", "0.2"))
                                    .configFor("any"));
                });
    }

    @Test
    void aBadValueStopsStartupNamingTheKeyTheValueAndWhatIsAllowed() {
        runner.withPropertyValues("breaker.instances.payments.cooldown=soon").run(context -> {
            assertThat(context).hasFailed();
            FailureAnalysis analysis = new BreakerConfigurationFailureAnalyzer().analyze(context.getStartupFailure());
            assertThat(analysis).isNotNull();
            assertThat(analysis.getDescription())
                    .startsWith("Invalid breaker configuration:\n\n    Property: breaker.instances.payments.cooldown\n"
                            + "    Value: \"soon\"\n")
                    .contains("Reason: breaker.instances.payments.cooldown: ")
                    .contains("'soon'")
                    .contains("30s");
            assertThat(analysis.getAction()).contains("breaker.instances.payments.cooldown");
        });
    }

    @Test
    void anUnknownKeyStopsStartupListingTheValidKeys() {
        runner.withPropertyValues("breaker.defaults.cooldwn=1s").run(context -> {
            FailureAnalysis analysis = new BreakerConfigurationFailureAnalyzer().analyze(context.getStartupFailure());
            assertThat(analysis.getDescription())
                    .contains("Property: breaker.defaults.cooldwn\n")
                    .contains("Value: \"1s\"")
                    .contains("unknown key")
                    .contains("slow-call-threshold");
        });
    }

    @Test
    void anUnknownWindowNameListsTheWindowsThatExist() {
        runner.withPropertyValues("breaker.defaults.window.type=sliding").run(context -> {
            FailureAnalysis analysis = new BreakerConfigurationFailureAnalyzer().analyze(context.getStartupFailure());
            assertThat(analysis.getDescription())
                    .contains("Property: breaker.defaults.window.type\n")
                    .contains("Value: \"sliding\"")
                    .contains("consecutive")
                    .contains("count");
        });
    }

    @Test
    void anUnknownKeyOutsideTheBreakersOwnGroupsStopsStartupToo() {
        runner.withPropertyValues("breaker.helth.include=payments").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("breaker.helth.include");
        });
    }

    @Test
    void everyListenerBeanHearsEveryBreaker() {
        runner.withUserConfiguration(Listening.class).run(context -> {
            BreakerRegistry registry = context.getBean(BreakerRegistry.class);
            registry.breaker("a").isolate();
            registry.breaker("b").isolate();
            Listening l = context.getBean(Listening.class);
            org.awaitility.Awaitility.await().until(() -> l.heard.size() == 2);
            assertThat(l.heard).containsExactlyInAnyOrder("a", "b");
        });
    }

    @Test
    void theApplicationsOwnRegistryWins() {
        BreakerRegistry own = BreakerRegistry.builder().build();
        runner.withBean(BreakerRegistry.class, () -> own)
                .withPropertyValues("breaker.defaults.cooldown=soon") // not read: the registry is the application's
                .run(context -> assertThat(context)
                        .hasNotFailed()
                        .getBean(BreakerRegistry.class)
                        .isSameAs(own));
    }

    @Test
    void startsWithoutMicrometerOrActuatorOnTheClassPath() {
        runner.withClassLoader(new FilteredClassLoader(
                        "io.micrometer",
                        "dev.breaker.micrometer",
                        "org.springframework.boot.actuate",
                        "org.springframework.boot.health"))
                .withConfiguration(AutoConfigurations.of(
                        BreakerMetricsAutoConfiguration.class,
                        BreakerEndpointAutoConfiguration.class,
                        BreakerHealthAutoConfiguration.class))
                .withPropertyValues("breaker.defaults.cooldown=1s")
                .run(context -> {
                    assertThat(context).hasNotFailed().hasSingleBean(BreakerRegistry.class);
                    assertThat(context).doesNotHaveBean("breakerMeterBinder");
                    assertThat(context).doesNotHaveBean("breakersEndpoint");
                    assertThat(context).doesNotHaveBean("breakersHealthIndicator");
                });
    }

    @Configuration(proxyBeanMethods = false)
    static class Listening {
        final List<String> heard = new CopyOnWriteArrayList<>();

        @Bean
        BreakerListener recorder() {
            return event -> {
                if (event instanceof StateTransition t) {
                    heard.add(t.breakerName());
                }
            };
        }
    }
}
