package dev.memfas.cli;

import dev.memfas.Memory;
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
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code memfas import PATH}: memories written by {@code memfas export}, every field as it was. All are read and
 * checked before any is stored: a bad line or file stores nothing.
 */
@Command(name = "import", description = "Store the memories of an export: a .jsonl file, a Markdown file, or a"
        + " directory of Markdown files. Every field is kept; an existing id is replaced. Nothing is stored if any"
        + " line or file is malformed.")
final class ImportCommand implements Callable<Integer> {
    private static final int BATCH = 32;

    @CommandLine.ParentCommand
    Main main;

    @Parameters(paramLabel = "PATH", description = "A .jsonl file, a .md file, or a directory of .md files.")
    Path path;

    @Override
    public Integer call() throws IOException {
        Path abs = path.toAbsolutePath().normalize();
        List<Memory> memories = read(abs);
        Set<String> seen = new HashSet<>();
        String namespace = main.namespaceGiven();
        if (namespace != null) {
            // A namespace named on the command line or in the config is where everything goes: a copy between tenants.
            memories = memories.stream().map(m -> m.toBuilder().namespace(namespace).build()).toList();
        }
        for (Memory m : memories) {
            if (m.id() == null) {
                continue;
            }
            if (!seen.add(m.namespace() + "\u0000" + m.id())) {
                throw new IllegalArgumentException(abs + ": the id '" + m.id() + "' appears twice");
            }
        }
        try (Workspace w = main.open(Workspace.Access.WRITE, false)) {
            for (int from = 0; from < memories.size(); from += BATCH) {
                w.curator.rememberAll(memories.subList(from, Math.min(memories.size(), from + BATCH)));
            }
        }
        main.out().println("imported " + memories.size() + " memories from " + abs);
        return Main.OK;
    }

    private static List<Memory> read(Path abs) throws IOException {
        if (!Files.exists(abs)) {
            throw new IllegalArgumentException("no such file or directory: " + abs);
        }
        List<Memory> out = new ArrayList<>();
        if (Files.isDirectory(abs)) {
            List<Path> files;
            try (Stream<Path> s = Files.list(abs)) {
                files = s.filter(p -> p.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".md"))
                        .filter(Files::isRegularFile).sorted().toList();
            }
            for (Path f : files) {
                out.add(MemoryTransfer.fromMarkdown(Files.readString(f, StandardCharsets.UTF_8), f.toString()));
            }
            return out;
        }
        String name = abs.getFileName().toString().toLowerCase(Locale.ROOT);
        String text = Files.readString(abs, StandardCharsets.UTF_8);
        if (name.endsWith(".md") || name.endsWith(".markdown")) {
            out.add(MemoryTransfer.fromMarkdown(text, abs.toString()));
        } else if (name.endsWith(".jsonl") || name.endsWith(".json")) {
            String[] lines = text.split("\n", -1);
            for (int i = 0; i < lines.length; i++) {
                if (!lines[i].isBlank()) {
                    out.add(MemoryTransfer.fromJsonLine(lines[i], abs + " line " + (i + 1)));
                }
            }
        } else {
            throw new IllegalArgumentException("import reads .jsonl, .md, or a directory of .md files: " + abs);
        }
        return out;
    }
}
