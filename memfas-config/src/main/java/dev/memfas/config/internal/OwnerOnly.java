package dev.memfas.config.internal;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Internal, not an API. Files and directories memfas creates that hold memories or queries (the store's directory,
 * exports, reports, telemetry): on a POSIX file system the owner's alone, {@code 0600} for a file and {@code 0700} for
 * a directory, so that other users of the machine cannot read them. What already exists keeps the mode its owner gave
 * it.
 */
public final class OwnerOnly {
    private static final boolean POSIX = Path.of("").getFileSystem().supportedFileAttributeViews().contains("posix");

    private OwnerOnly() {}

    /** Creates the directory and its missing parents, each new one owner-only. */
    public static Path createDirectories(Path dir) throws IOException {
        return Files.isDirectory(dir) ? dir : POSIX ? Files.createDirectories(dir, PosixFilePermissions
                .asFileAttribute(PosixFilePermissions.fromString("rwx------"))) : Files.createDirectories(dir);
    }

    /**
     * Creates a new empty file, owner-only.
     *
     * @throws FileAlreadyExistsException if it exists
     */
    public static Path createFile(Path file) throws IOException {
        return POSIX ? Files.createFile(file, PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rw-------"))) : Files.createFile(file);
    }

    /** Creates the file owner-only if it does not exist; an existing one is left as it is. */
    public static Path ensureFile(Path file) throws IOException {
        try {
            return createFile(file);
        } catch (FileAlreadyExistsException e) {
            return file;
        }
    }
}
