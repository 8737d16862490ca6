package dev.breaker.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The BOM lists exactly the published artifacts: every module of the build that is a library (it
 * has a {@code module-info.java}) or the TCK, and the Spring Boot modules (class path only, so
 * without a descriptor), and nothing else, so that a user who imports it can
 * pick any module without a version.
 */
class BomTests {

    private static final Pattern MODULE = Pattern.compile("<module>([^<]+)</module>");
    private static final Pattern ARTIFACT = Pattern.compile("<artifactId>(breaker-[^<]+)</artifactId>");

    @Test
    void theBomListsEveryPublishedModuleAndNothingElse() throws IOException {
        Path root = Path.of("..");
        Set<String> published = new TreeSet<>();
        Matcher m = MODULE.matcher(Files.readString(root.resolve("pom.xml")));
        while (m.find()) {
            String module = m.group(1);
            if (Files.exists(root.resolve(module).resolve("src/main/java/module-info.java"))
                    || module.startsWith("breaker-spring-boot-")) {
                published.add(module);
            }
        }
        assertTrue(published.contains("breaker-halfopen"), "found the library modules: " + published);
        assertTrue(published.contains("breaker-spring-boot-starter"), "found the Spring modules: " + published);
        Set<String> listed = new TreeSet<>();
        String bom = Files.readString(root.resolve("breaker-bom/pom.xml"));
        String managed = bom.substring(bom.indexOf("<dependencyManagement>"), bom.indexOf("</dependencyManagement>"));
        Matcher a = ARTIFACT.matcher(managed);
        while (a.find()) {
            listed.add(a.group(1));
        }
        assertEquals(published, listed, "breaker-bom's dependencyManagement");
    }
}
