package dev.memfas.core;

import dev.memfas.TelemetryListener;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Where a curator's telemetry goes: the JSONL log when a file is set ({@code writer}, else null), then the caller's
 * listeners, in that order ({@code listeners} holds both).
 */
record TelemetryOutputs(JsonlTelemetryWriter writer, List<TelemetryListener> listeners) {

    /**
     * Opens the log, if a file is set, before the caller's listeners.
     *
     * @throws dev.memfas.MemfasException if the file cannot be opened
     */
    static TelemetryOutputs open(Path file, long maxBytes, int keepFiles, List<TelemetryListener> callers) {
        List<TelemetryListener> all = new ArrayList<>(callers.size() + 1);
        JsonlTelemetryWriter writer = null;
        if (file != null) {
            writer = new JsonlTelemetryWriter(file, maxBytes, keepFiles);
            all.add(writer);
        }
        all.addAll(callers);
        return new TelemetryOutputs(writer, List.copyOf(all));
    }

    /** Closes the log, for a curator that failed to build: no one else will. */
    void closeLog() {
        if (writer != null) {
            writer.close();
        }
    }
}
