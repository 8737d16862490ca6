package dev.breaker.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every source under any module's {@code src/test/java} that declares tests ({@code @Test},
 * {@code @Property}, {@code @Example}, {@code @ParameterizedTest}) has a name Surefire runs
 * (the parent pom's includes). An abstract contract or a helper without tests needs no such name.
 * Without this check a test class named, say, {@code FooCheck} would compile and never run. In a
 * module whose pom runs Failsafe, {@code *IT} classes are run too (in {@code integration-test}).
 */
class TestNamingTests {

    private static final Pattern RUN_BY_SUREFIRE =
            Pattern.compile("(Test\\w*|\\w*Test|\\w*Tests|\\w*TestCase|\\w*Properties)");
    private static final Pattern RUN_BY_FAILSAFE = Pattern.compile("\\w*IT");
    private static final Pattern DECLARES_TESTS =
            Pattern.compile("@(?:[\\w.]+\\.)?(Test|Property|Example|ParameterizedTest|RepeatedTest|TestFactory)\\b");

    @Test
    void everyClassWithTestsIsNamedSoThatSurefireRunsIt() throws IOException {
        Path root = Path.of("..");
        List<String> unnamed;
        try (Stream<Path> modules = Files.list(root)) {
            unnamed = modules.map(m -> m.resolve("src/test/java"))
                    .filter(Files::isDirectory)
                    .flatMap(TestNamingTests::javaFiles)
                    .filter(TestNamingTests::declaresTests)
                    .filter(f -> !isAbstract(f))
                    .filter(f -> !RUN_BY_SUREFIRE.matcher(className(f)).matches())
                    .filter(f -> !(RUN_BY_FAILSAFE.matcher(className(f)).matches() && runsFailsafe(f)))
                    .map(f -> root.relativize(f).toString())
                    .sorted()
                    .collect(Collectors.toList());
        }
        assertEquals(List.of(), unnamed, "test classes Surefire would never run");
    }

    private static Stream<Path> javaFiles(Path dir) {
        try {
            return Files.walk(dir).filter(f -> f.toString().endsWith(".java")).collect(Collectors.toList()).stream();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static String read(Path f) {
        try {
            return Files.readString(f);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Whether the module holding this test source (its pom, above {@code src/test/java}) runs Failsafe. */
    private static boolean runsFailsafe(Path f) {
        Path module = f;
        while (module != null && !module.endsWith("src")) {
            module = module.getParent();
        }
        return module != null && read(module.getParent().resolve("pom.xml")).contains("maven-failsafe-plugin");
    }

    private static boolean declaresTests(Path f) {
        return DECLARES_TESTS.matcher(read(f)).find();
    }

    private static boolean isAbstract(Path f) {
        return read(f).contains("abstract class " + className(f));
    }

    private static String className(Path f) {
        String name = f.getFileName().toString();
        return name.substring(0, name.length() - ".java".length());
    }
}
