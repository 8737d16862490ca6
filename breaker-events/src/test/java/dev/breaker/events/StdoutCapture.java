package dev.breaker.events;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Swaps {@code System.out} for a buffer until closed. slf4j-simple, configured in the test
 * resources to write to {@code System.out}, looks the stream up at every line, so what the real
 * binding prints lands here.
 */
final class StdoutCapture implements AutoCloseable {
    private final PrintStream before = System.out;
    private final ByteArrayOutputStream buffer = new ByteArrayOutputStream();

    StdoutCapture() {
        System.setOut(new PrintStream(buffer, true, StandardCharsets.UTF_8));
    }

    String text() {
        System.out.flush();
        return buffer.toString(StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        System.setOut(before);
        before.print(text()); // still shown in the test's report
    }
}
