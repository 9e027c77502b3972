package dev.memfas.cli;

import dev.memfas.Memory;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code memfas import PATH}: memories written by {@code memfas export}, every field as it was. The export is read
 * twice, a line or file at a time, so memory does not grow with its size: first every memory is read and checked (a
 * malformed line or file, or an id given twice, stores nothing), then they are stored in batches.
 */
@Command(name = "import", description = "Store the memories of an export: a .jsonl file, a Markdown file, or a"
        + " directory of Markdown files. Every field is kept; an existing id is replaced. Nothing is stored if any"
        + " line or file is malformed.")
final class ImportCommand implements Callable<Integer> {
    /** The most memories stored in one call. */
    private static final int BATCH = 32;
    /** The most text stored in one call, about the longest memory: a batch of long ones is cut short, since writing
     * one takes several copies of its text (rendered, counted, indexed). */
    private static final long BATCH_CHARS = 1L << 20;

    @CommandLine.ParentCommand
    Main main;

    @Parameters(paramLabel = "PATH", description = "A .jsonl file, a .md file, or a directory of .md files.")
    Path path;

    @Override
    public Integer call() throws IOException {
        Path abs = path.toAbsolutePath().normalize();
        if (!Files.exists(abs)) {
            throw new IllegalArgumentException("no such file or directory: " + abs);
        }
        String namespace = main.namespaceGiven();
        // A namespace named on the command line or in the config is where everything goes: a copy between tenants.
        UnaryOperator<Memory> placed = namespace == null ? m -> m : m -> m.toBuilder().namespace(namespace).build();
        Set<String> seen = new HashSet<>();
        long[] count = {0};
        forEach(abs, m -> {
            Memory memory = placed.apply(m);
            if (memory.id() != null && !seen.add(memory.namespace() + "\u0000" + memory.id())) {
                throw new IllegalArgumentException(abs + ": the id '" + memory.id() + "' appears twice");
            }
            count[0]++;
        });
        seen.clear();
        try (Workspace w = main.open(Workspace.Access.WRITE, false)) {
            List<Memory> batch = new ArrayList<>(BATCH);
            long[] chars = {0};
            forEach(abs, m -> {
                Memory memory = placed.apply(m);
                if (!batch.isEmpty() && (batch.size() == BATCH || chars[0] + memory.text().length() > BATCH_CHARS)) {
                    w.curator.rememberAll(batch);
                    batch.clear();
                    chars[0] = 0;
                }
                batch.add(memory);
                chars[0] += memory.text().length();
            });
            if (!batch.isEmpty()) {
                w.curator.rememberAll(batch);
            }
        }
        main.out().println("imported " + count[0] + " memories from " + abs);
        return Main.OK;
    }

    /** Reads the export's memories one at a time, in the order of the file (or of the directory's sorted names). */
    private static void forEach(Path abs, Consumer<Memory> action) throws IOException {
        if (Files.isDirectory(abs)) {
            List<Path> files;
            try (Stream<Path> s = Files.list(abs)) {
                files = s.filter(p -> p.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".md"))
                        .filter(Files::isRegularFile).sorted().toList();
            }
            for (Path f : files) {
                action.accept(MemoryTransfer.fromMarkdown(Files.readString(f, StandardCharsets.UTF_8), f.toString()));
            }
            return;
        }
        String name = abs.getFileName().toString().toLowerCase(Locale.ROOT);
        if (name.endsWith(".md") || name.endsWith(".markdown")) {
            action.accept(MemoryTransfer.fromMarkdown(Files.readString(abs, StandardCharsets.UTF_8), abs.toString()));
        } else if (name.endsWith(".jsonl") || name.endsWith(".json")) {
            try (BufferedReader lines = Files.newBufferedReader(abs, StandardCharsets.UTF_8)) {
                int n = 0;
                for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                    n++;
                    if (!line.isBlank()) {
                        action.accept(MemoryTransfer.fromJsonLine(line, abs + " line " + n));
                    }
                }
            }
        } else {
            throw new IllegalArgumentException("import reads .jsonl, .md, or a directory of .md files: " + abs);
        }
    }
}
