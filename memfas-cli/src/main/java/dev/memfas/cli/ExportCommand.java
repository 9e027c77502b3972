package dev.memfas.cli;

import dev.memfas.config.internal.OwnerOnly;

import dev.memfas.spi.MemoryStore;
import dev.memfas.Memory;
import dev.memfas.MemoryFilter;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code memfas export}: every memory, exactly, as JSON lines or as a directory of Markdown files with front matter;
 * {@code memfas import} reads either back.
 */
@Command(name = "export", description = "Write every memory, exactly: JSON lines (one file) or Markdown with front"
        + " matter (one file per memory in a directory). 'memfas import' reads either back.")
final class ExportCommand implements Callable<Integer> {
    enum Format { jsonl, markdown }

    @CommandLine.ParentCommand
    Main main;

    @Option(names = "--format", paramLabel = "FORMAT", description = "jsonl (default) or markdown.")
    Format format = Format.jsonl;

    @Option(names = "--output", paramLabel = "PATH", required = true,
            description = "The file (jsonl; - for standard output) or directory (markdown) to write; must not exist,"
                    + " or be an empty directory.")
    String output;

    @Override
    public Integer call() throws IOException {
        List<Memory> memories = new ArrayList<>();
        try (MemoryStore store = Workspace.openStore(main.settings(), Workspace.Access.READ)) {
            store.forEach(main.namespace(), MemoryFilter.all(), memories::add);
        }
        memories.sort(Comparator.comparing(Memory::createdAt).thenComparing(Memory::id));
        if (format == Format.jsonl) {
            if (output.equals("-")) {
                memories.forEach(m -> main.out().println(MemoryTransfer.toJsonLine(m)));
                main.out().flush();
                return Main.OK;
            }
            Path file = Path.of(output).toAbsolutePath().normalize();
            if (Files.exists(file)) {
                throw new IllegalArgumentException("export target already exists: " + file);
            }
            OwnerOnly.createFile(file);
            try (Writer w = new BufferedWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8))) {
                for (Memory m : memories) {
                    w.write(MemoryTransfer.toJsonLine(m));
                    w.write('\n');
                }
            }
            main.err().println("memfas: exported " + memories.size() + " memories to " + file);
            return Main.OK;
        }
        Path dir = Path.of(output).toAbsolutePath().normalize();
        if (Files.exists(dir) && (!Files.isDirectory(dir) || hasEntries(dir))) {
            throw new IllegalArgumentException("export directory must not exist or be empty: " + dir);
        }
        OwnerOnly.createDirectories(dir);
        for (Memory m : memories) {
            Files.writeString(newFile(dir, m.id()), MemoryTransfer.toMarkdown(m), StandardCharsets.UTF_8);
        }
        main.err().println("memfas: exported " + memories.size() + " memories to " + dir);
        return Main.OK;
    }

    private static boolean hasEntries(Path dir) throws IOException {
        try (var entries = Files.list(dir)) {
            return entries.findAny().isPresent();
        }
    }

    /**
     * Creates the file of a memory, owner-only, under {@link #fileName}; in the rare case that another memory's file
     * took that name (two ids alike in their first 80 safe characters whose hashes meet, or that differ only in case
     * on a file system that ignores it), under the name with {@code -2}, {@code -3} ... before {@code .md}. A file is
     * never written over: every memory exported is a file of its own.
     */
    static Path newFile(Path dir, String id) throws IOException {
        String name = fileName(id);
        String stem = name.substring(0, name.length() - ".md".length());
        for (int n = 1; ; n++) {
            try {
                return OwnerOnly.createFile(dir.resolve(n == 1 ? name : stem + "-" + n + ".md"));
            } catch (java.nio.file.FileAlreadyExistsException e) {
                // taken: the next name
            }
        }
    }

    /**
     * A file name for a memory: the id's safe characters, cut to 80, and 64 bits of a hash of the whole id, so that no
     * id (with slashes, dots or any Unicode) can leave the directory, and two ids seldom meet ({@link #newFile} keeps
     * them apart when they do).
     */
    static String fileName(String id) {
        String safe = id.replaceAll("[^A-Za-z0-9._-]", "_").replaceAll("^[._]+", "");
        if (safe.length() > 80) {
            safe = safe.substring(0, 80);
        }
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(id.getBytes(StandardCharsets.UTF_8));
            String suffix = HexFormat.of().formatHex(hash, 0, 8);
            return (safe.isEmpty() ? "memory" : safe) + "-" + suffix.toLowerCase(Locale.ROOT) + ".md";
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
