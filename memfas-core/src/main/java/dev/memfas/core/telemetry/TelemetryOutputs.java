package dev.memfas.core.telemetry;

import dev.memfas.core.curator.SettingChecks;
import dev.memfas.telemetry.TelemetryListener;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Where a curator's telemetry goes: the JSONL log when a file is set ({@code writer}, else null), then the caller's
 * listeners, in that order ({@code listeners} holds both).
 */
public record TelemetryOutputs(JsonlTelemetryWriter writer, List<TelemetryListener> listeners) {

    /** Closes the log, for a curator that failed to build: no one else will. */
    public void closeLog() {
        if (writer != null) {
            writer.close();
        }
    }

    /**
     * Where a curator's telemetry is to go, as its builder collects it: the log file and its rotation, and the caller's
     * listeners, each value checked as it is given. Not thread-safe, as builders are not.
     */
    public static final class Plan {
        private Path file;
        private long maxBytes = 10L * 1024 * 1024;
        private int keepFiles = 3;
        private final List<TelemetryListener> listeners = new ArrayList<>();

        public void file(Path file) {
            this.file = Objects.requireNonNull(file, "file");
        }

        public void rotation(long maxBytes, int keepFiles) {
            SettingChecks.require(maxBytes >= 1024, "telemetry max bytes must be at least 1024", maxBytes);
            SettingChecks.require(keepFiles >= 0, "telemetry keep files must not be negative", keepFiles);
            this.maxBytes = maxBytes;
            this.keepFiles = keepFiles;
        }

        public void listener(TelemetryListener listener) {
            listeners.add(Objects.requireNonNull(listener, "listener"));
        }

        /**
         * Opens the log, if a file is set, before the caller's listeners.
         *
         * @throws dev.memfas.MemfasException if the file cannot be opened
         */
        public TelemetryOutputs open() {
            List<TelemetryListener> all = new ArrayList<>(listeners.size() + 1);
            JsonlTelemetryWriter writer = null;
            if (file != null) {
                writer = new JsonlTelemetryWriter(file, maxBytes, keepFiles);
                all.add(writer);
            }
            all.addAll(listeners);
            return new TelemetryOutputs(writer, List.copyOf(all));
        }
    }
}
