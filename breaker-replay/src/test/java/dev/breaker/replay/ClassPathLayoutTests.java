package dev.breaker.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** On the plain class path, as in the runnable jar: the windows and the policy come through META-INF/services. */
@Tag("class-path")
class ClassPathLayoutTests {

    @Test
    void everyExampleConfigReplaysOnTheClassPath() throws Exception {
        assertFalse(Replay.class.getModule().isNamed());
        Path trace = ExampleTracesTests.EXAMPLES.resolve("traces").resolve("blip.csv");
        for (String name : List.of("consecutive-5", "count-rate", "time-rate-slow", "exponential")) {
            assertEquals(
                    1257,
                    ExampleTracesTests.replay(trace, ExampleTracesTests.example(name))
                            .calls());
        }
    }
}
