package dev.memfas.core.telemetry;

import dev.memfas.MemfasException;
import dev.memfas.telemetry.ExtractionTelemetry;
import dev.memfas.telemetry.SessionSummary;
import dev.memfas.telemetry.TurnTelemetry;
import dev.memfas.telemetry.UsageTelemetry;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the JSONL telemetry log that a curator built with {@code Memfas.newBuilder().telemetry(path)} writes: a line per
 * turn, a line per usage report, per session's summary and per conversation's facts taken.
 *
 * <p>The line format is described in {@code docs/telemetry.md}. Stateless and thread-safe.
 */
public final class TelemetryLog {
    private TelemetryLog() {}

    /**
     * Reads every turn of a log file, oldest first (rotated files {@code .1}, {@code .2}, ... are not read).
     *
     * @throws MemfasException if the file cannot be read, or a line is not a telemetry line (naming the line)
     */
    public static List<TurnTelemetry> read(Path file) {
        return records(file, TurnTelemetry.class);
    }

    /**
     * Reads every usage report of a log file, oldest first ({@code reportUsage} calls that recorded something).
     *
     * @throws MemfasException as {@link #read(Path)}
     */
    public static List<UsageTelemetry> readUsage(Path file) {
        return records(file, UsageTelemetry.class);
    }

    /**
     * Reads every session summary of a log file, oldest first (the sessions that ended while it was written).
     *
     * @throws MemfasException as {@link #read(Path)}
     */
    public static List<SessionSummary> readSessions(Path file) {
        return records(file, SessionSummary.class);
    }

    /**
     * Reads what each remembered conversation's facts gave and cost, oldest first.
     *
     * @throws MemfasException as {@link #read(Path)}
     */
    public static List<ExtractionTelemetry> readExtractions(Path file) {
        return records(file, ExtractionTelemetry.class);
    }

    private static <T> List<T> records(Path file, Class<T> kind) {
        List<T> records = new ArrayList<>();
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            int number = 0;
            while ((line = in.readLine()) != null) {
                number++;
                if (line.isBlank()) {
                    continue;
                }
                try {
                    Object record = TelemetryCodec.decode(line);
                    if (kind.isInstance(record)) {
                        records.add(kind.cast(record));
                    }
                } catch (IllegalArgumentException | ClassCastException e) {
                    throw new MemfasException(
                            "telemetry file " + file + " line " + number + " is not a telemetry line: " + e.getMessage(),
                            e);
                }
            }
        } catch (IOException e) {
            throw new MemfasException("cannot read telemetry file " + file + ": " + e.getMessage(), e);
        }
        return records;
    }

    /**
     * Summarizes a log file.
     *
     * @throws MemfasException as {@link #read(Path)}
     */
    public static TelemetrySummary summarize(Path file) {
        return TelemetrySummary.of(read(file));
    }
}
