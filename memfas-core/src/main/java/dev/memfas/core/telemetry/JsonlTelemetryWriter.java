package dev.memfas.core.telemetry;

import dev.memfas.MemfasException;
import dev.memfas.telemetry.TelemetryListener;
import dev.memfas.telemetry.ExtractionTelemetry;
import dev.memfas.telemetry.SessionSummary;
import dev.memfas.telemetry.TurnTelemetry;
import dev.memfas.telemetry.UsageTelemetry;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Appends one JSON line per turn, per usage report, per session's summary and per conversation's facts taken to a
 * file, rotating by size: when the next line would take the file past the limit, {@code telemetry.jsonl} becomes
 * {@code telemetry.jsonl.1} (older files shift up to {@code .N}, the oldest is deleted) and a new file is started.
 * Each line is flushed as written.
 *
 * <p>Thread-safe: lines are written whole, one at a time. An I/O failure while writing is logged and the line lost;
 * it never reaches {@code getContext}.
 */
public final class JsonlTelemetryWriter implements TelemetryListener, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(JsonlTelemetryWriter.class);
    private static final boolean POSIX = Path.of("").getFileSystem().supportedFileAttributeViews().contains("posix");
    /** {@code 0600} on a POSIX file system; nothing elsewhere, whose access lists are the user's to set. */
    private static final FileAttribute<?>[] OWNER_ONLY_FILE = POSIX ? new FileAttribute<?>[] {
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))} : new FileAttribute<?>[0];
    private static final FileAttribute<?>[] OWNER_ONLY_DIRECTORY = POSIX ? new FileAttribute<?>[] {
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"))} : new FileAttribute<?>[0];

    private final Path file;
    private final long maxBytes;
    private final int keepFiles;
    private BufferedWriter out;
    private long size;
    private boolean closed;

    /**
     * Opens (creating directories as needed) the file for appending.
     *
     * @throws MemfasException if the file cannot be opened
     */
    JsonlTelemetryWriter(Path file, long maxBytes, int keepFiles) {
        this.file = file;
        this.maxBytes = maxBytes;
        this.keepFiles = keepFiles;
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null && !Files.isDirectory(parent)) {
                Files.createDirectories(parent, OWNER_ONLY_DIRECTORY);
            }
            open();
        } catch (IOException e) {
            throw new MemfasException("cannot open telemetry file " + file + ": " + e.getMessage(), e);
        }
    }

    private void open() throws IOException {
        try {
            // Every query is in the log: a new one is the owner's alone. An existing one keeps the mode it has.
            Files.createFile(file, OWNER_ONLY_FILE);
        } catch (FileAlreadyExistsException e) {
            // appended to
        }
        out = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        size = Files.size(file);
    }

    @Override
    public void onTurn(TurnTelemetry turn) {
        write(TelemetryCodec.toJson(turn));
    }

    @Override
    public void onUsage(UsageTelemetry usage) {
        write(TelemetryCodec.toJson(usage));
    }

    @Override
    public void onSessionEnd(SessionSummary session) {
        write(TelemetryCodec.toJson(session));
    }

    @Override
    public void onExtraction(ExtractionTelemetry extraction) {
        write(TelemetryCodec.toJson(extraction));
    }

    private synchronized void write(String json) {
        if (closed) {
            return;
        }
        String line = json + "\n";
        long bytes = line.getBytes(StandardCharsets.UTF_8).length;
        try {
            if (size > 0 && size + bytes > maxBytes) {
                rotate();
            }
            out.write(line);
            out.flush();
            size += bytes;
        } catch (IOException e) {
            LOG.warn("telemetry line lost: cannot write {}: {}", file, e.toString());
        }
    }

    private void rotate() throws IOException {
        out.close();
        Files.deleteIfExists(rotated(keepFiles));
        for (int i = keepFiles - 1; i >= 1; i--) {
            Path from = rotated(i);
            if (Files.exists(from)) {
                Files.move(from, rotated(i + 1), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        if (keepFiles > 0) {
            Files.move(file, rotated(1), StandardCopyOption.REPLACE_EXISTING);
        } else {
            Files.delete(file);
        }
        open();
    }

    private Path rotated(int n) {
        return file.resolveSibling(file.getFileName() + "." + n);
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            out.close();
        } catch (IOException e) {
            LOG.warn("cannot close telemetry file {}: {}", file, e.toString());
        }
    }
}
