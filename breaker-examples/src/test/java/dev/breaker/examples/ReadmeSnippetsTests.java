package dev.breaker.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;

/**
 * The README's Java snippets compile as written, against the jars this build made. A snippet that
 * is a whole file (it has imports) is compiled as it is; a fragment is compiled as the body of one
 * method, with the imports a reader of the README would add ({@code dev.breaker.*},
 * {@code dev.breaker.halfopen.*}, {@code java.time.*} and {@code java.util.*}).
 */
class ReadmeSnippetsTests {

    private static final Pattern JAVA_BLOCK = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL);

    static List<String> snippets() throws IOException {
        String readme = Files.readString(Path.of("..", "README.md"));
        List<String> found = new ArrayList<>();
        Matcher m = JAVA_BLOCK.matcher(readme);
        while (m.find()) {
            found.add(m.group(1));
        }
        return found;
    }

    private static JavaFileObject source(String className, String code) {
        return new SimpleJavaFileObject(URI.create("string:///" + className + ".java"), JavaFileObject.Kind.SOURCE) {
            @Override
            public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                return code;
            }
        };
    }

    @Test
    void everyJavaSnippetCompiles() throws IOException {
        List<String> snippets = snippets();
        assertTrue(snippets.size() >= 3, "the README has its quick start, config and events snippets");
        List<JavaFileObject> units = new ArrayList<>();
        for (int i = 0; i < snippets.size(); i++) {
            String code = snippets.get(i);
            if (code.startsWith("import ") || code.startsWith("package ")) {
                Matcher name = Pattern.compile("public class (\\w+)").matcher(code);
                assertTrue(name.find(), "a whole-file snippet declares a public class:\n" + code);
                units.add(source(name.group(1), code));
            } else {
                String cls = "Snippet" + i;
                units.add(source(
                        cls,
                        "import dev.breaker.*;\nimport dev.breaker.halfopen.*;\nimport java.time.*;\nimport java.util.*;\n\nclass "
                                + cls
                                + " {\n    void snippet() throws Exception {\n" + code + "\n    }\n}\n"));
            }
        }
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        assertNotNull(compiler, "a JDK, not a JRE");
        Path out = Files.createTempDirectory("readme-snippets");
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        StringWriter log = new StringWriter();
        boolean ok = compiler.getTask(
                        log,
                        null,
                        diagnostics,
                        List.of(
                                "--release",
                                "17",
                                "-Xlint:all",
                                "-Werror",
                                "-classpath",
                                System.getProperty("java.class.path"),
                                "-d",
                                out.toString()),
                        null,
                        units)
                .call();
        assertTrue(ok, "README snippets do not compile:\n" + diagnostics.getDiagnostics() + "\n" + log);
        assertEquals(List.of(), diagnostics.getDiagnostics(), "and compile without warnings");
    }
}
