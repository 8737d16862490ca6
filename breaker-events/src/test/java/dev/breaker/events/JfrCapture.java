package dev.breaker.events;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/**
 * A JFR recording of the breaker events, started on construction; {@link #stop} dumps it to a
 * temporary file and reads back the events of the breakers named, transitions in generation order.
 */
final class JfrCapture implements AutoCloseable {

    static final String TRANSITION = "dev.breaker.StateTransition";
    static final String LATE = "dev.breaker.LateResult";
    static final String SUPPRESSED = "dev.breaker.TripSuppressed";

    private final Recording recording = new Recording();

    JfrCapture() {
        recording.setName("breaker-events tests");
        for (String event : List.of(TRANSITION, LATE, SUPPRESSED)) {
            recording.enable(event);
        }
        recording.start();
    }

    /** Stops, dumps and reads back the events about breakers whose names start with {@code prefix}. */
    List<RecordedEvent> stop(String prefix) throws IOException {
        recording.stop();
        Path file = Files.createTempFile("breaker-events", ".jfr");
        try {
            recording.dump(file);
            return RecordingFile.readAllEvents(file).stream()
                    .filter(e -> e.getEventType().getName().startsWith("dev.breaker."))
                    .filter(e -> e.getString("breakerName").startsWith(prefix))
                    .sorted(Comparator.comparing(
                                    (RecordedEvent e) -> e.getEventType().getName())
                            .thenComparing(e -> e.hasField("generation") ? e.getLong("generation") : 0))
                    .toList();
        } finally {
            Files.delete(file);
        }
    }

    /** Only the events of one type. */
    static List<RecordedEvent> ofType(List<RecordedEvent> events, String type) {
        return events.stream()
                .filter(e -> e.getEventType().getName().equals(type))
                .toList();
    }

    @Override
    public void close() {
        recording.close();
    }
}
