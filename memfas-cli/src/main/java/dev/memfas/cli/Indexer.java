package dev.memfas.cli;

import dev.memfas.ContextCurator;
import dev.memfas.Memory;
import dev.memfas.MemoryFilter;
import dev.memfas.spi.MemoryStore;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Indexes memory files into a curator: re-indexing a file replaces its chunks (unchanged chunks keep their ids and
 * access statistics, stale ones are forgotten), and memories of files that disappeared from an indexed directory are
 * forgotten too. A file that cannot be read or parsed is reported and skipped; the rest proceeds.
 */
final class Indexer {
    static final Set<String> EXTENSIONS = Set.of("md", "markdown", "txt", "json", "jsonl");
    /**
     * Chunks embedded and stored per call: small enough that progress moves every second or so (a chunk takes about
     * 5-30 ms to embed on two cores), large enough that a batch's transaction costs nothing next to its embedding.
     */
    private static final int BATCH = 32;

    private final String namespace;
    private final ContextCurator curator;
    private final MemoryStore store;
    private final MemoryFiles files;
    private final long maxFileBytes;
    private final Path base;
    private final Runnable beforeEmbedding;

    /** What one index run did. */
    record Report(int filesIndexed, int filesUnchanged, int filesSkipped, int added, int kept, int removed,
            Map<String, String> failures) {
        boolean failed() {
            return !failures.isEmpty();
        }
    }

    /**
     * @param beforeEmbedding runs once before the first chunk is embedded (the command loads its model there, so that
     *     its note does not cut through the progress bar); not at all when nothing changed
     */
    Indexer(ContextCurator curator, MemoryStore store, String namespace, MemoryFiles files, long maxFileBytes,
            Path base, Runnable beforeEmbedding) {
        this.curator = curator;
        this.store = store;
        this.namespace = namespace;
        this.files = files;
        this.maxFileBytes = maxFileBytes;
        this.base = base.toAbsolutePath().normalize();
        this.beforeEmbedding = beforeEmbedding;
    }

    Report index(List<Path> paths, Progress progress) {
        Map<String, String> failures = new LinkedHashMap<>();
        List<Path> found = new ArrayList<>();
        List<Path> directories = new ArrayList<>();
        int[] skipped = {0};
        for (Path p : paths) {
            Path abs = p.toAbsolutePath().normalize();
            if (!Files.exists(abs)) {
                failures.put(p.toString(), "no such file or directory");
            } else if (Files.isDirectory(abs)) {
                directories.add(abs);
                walk(abs, found, failures, skipped);
            } else if (!Files.isReadable(abs)) {
                failures.put(p.toString(), "not readable");
            } else {
                found.add(abs);
            }
        }

        // Which memories each file has now, from one pass over the store.
        Map<String, Map<String, String>> existing = new HashMap<>();
        store.forEach(namespace, MemoryFilter.all(), m -> {
            String file = m.metadata().get(MemoryFiles.FILE_KEY);
            if (file != null) {
                existing.computeIfAbsent(file, k -> new HashMap<>()).put(m.id(), signature(m));
            }
        });

        List<Memory> pending = new ArrayList<>();
        List<String> stale = new ArrayList<>();
        int indexed = 0;
        int unchanged = 0;
        int added = 0;
        int kept = 0;
        Set<String> seenKeys = new HashSet<>();
        progress.start("reading", found.size());
        for (int i = 0; i < found.size(); i++) {
            Path file = found.get(i);
            String key = key(file);
            progress.step(i + 1);
            List<Memory> memories;
            try {
                // A memory with no date of its own is as old as its file, never as new as this run.
                Instant modified = Files.getLastModifiedTime(file).toInstant();
                memories = files.parse(key, file.getFileName().toString(), read(file), modified);
            } catch (MemoryFiles.BadFileException e) {
                failures.put(key, e.getMessage());
                seenKeys.add(key); // a bad file keeps its old memories rather than losing them
                continue;
            } catch (IOException e) {
                failures.put(key, "cannot read: " + e.getMessage());
                seenKeys.add(key);
                continue;
            } catch (IllegalArgumentException e) {
                failures.put(key, e.getMessage());
                seenKeys.add(key);
                continue;
            }
            seenKeys.add(key);
            Map<String, String> before = existing.getOrDefault(key, Map.of());
            Set<String> current = new HashSet<>();
            int fresh = 0;
            for (Memory parsed : memories) {
                Memory m = parsed.namespace().equals(namespace) ? parsed : parsed.toBuilder().namespace(namespace).build();
                current.add(m.id());
                if (!signature(m).equals(before.get(m.id()))) {
                    pending.add(m);
                    fresh++;
                } else {
                    kept++;
                }
            }
            int removedHere = 0;
            for (String id : before.keySet()) {
                if (!current.contains(id)) {
                    stale.add(id);
                    removedHere++;
                }
            }
            added += fresh;
            if (fresh == 0 && removedHere == 0) {
                unchanged++;
            } else {
                indexed++;
            }
        }
        progress.done();
        // Embedding is where the time goes: progress counts chunks, a batch at a time.
        if (!pending.isEmpty()) {
            beforeEmbedding.run();
            progress.start("embedding", pending.size());
            for (int from = 0; from < pending.size(); from += BATCH) {
                int to = Math.min(pending.size(), from + BATCH);
                curator.rememberAll(pending.subList(from, to));
                progress.step(to);
            }
            progress.done();
        }
        // Files that were indexed from one of these directories and are gone now.
        for (Map.Entry<String, Map<String, String>> e : existing.entrySet()) {
            if (seenKeys.contains(e.getKey())) {
                continue;
            }
            Path was = base.resolve(e.getKey()).normalize();
            boolean underIndexedDirectory = directories.stream().anyMatch(was::startsWith);
            if (underIndexedDirectory && !Files.exists(was)) {
                stale.addAll(e.getValue().keySet());
            }
        }
        for (String id : stale) {
            curator.forget(namespace, id);
        }
        return new Report(indexed, unchanged, skipped[0], added, kept, stale.size(), failures);
    }

    /** What an index run compares to decide a chunk is unchanged: its content and labels, not its times. */
    private static String signature(Memory m) {
        return String.join("\u0000", m.text(), m.source(), m.kind(), m.scope().toString(), String.join(",", m.tags()),
                String.valueOf(m.author()), String.valueOf(m.pinned()));
    }

    private void walk(Path dir, List<Path> found, Map<String, String> failures, int[] skipped) {
        try {
            Files.walkFileTree(dir, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes attrs) {
                    String name = d.getFileName() == null ? "" : d.getFileName().toString();
                    if (!d.equals(dir) && (name.startsWith(".") || name.equals("node_modules"))) {
                        return FileVisitResult.SKIP_SUBTREE;
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path f, BasicFileAttributes attrs) {
                    String name = f.getFileName().toString();
                    int dot = name.lastIndexOf('.');
                    String ext = dot < 0 ? "" : name.substring(dot + 1).toLowerCase(Locale.ROOT);
                    if (attrs.isRegularFile() && !name.startsWith(".") && EXTENSIONS.contains(ext)) {
                        found.add(f);
                    } else {
                        skipped[0]++;
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path f, IOException e) {
                    failures.put(key(f), "cannot read: " + e.getMessage());
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            failures.put(key(dir), "cannot list: " + e.getMessage());
        }
        found.sort(null);
    }

    private String read(Path file) throws IOException, MemoryFiles.BadFileException {
        long size = Files.size(file);
        if (size > maxFileBytes) {
            throw new MemoryFiles.BadFileException("too large: " + size + " bytes (the limit is " + maxFileBytes
                    + "; raise it with --max-file-size)");
        }
        byte[] bytes = Files.readAllBytes(file);
        for (int i = 0; i < Math.min(bytes.length, 8192); i++) {
            if (bytes[i] == 0) {
                throw new MemoryFiles.BadFileException("binary file (NUL byte at offset " + i + ")");
            }
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new MemoryFiles.BadFileException("not UTF-8 text");
        }
    }

    /** How a file is named in the store: relative to the base directory when under it, else absolute. */
    String key(Path file) {
        Path abs = file.toAbsolutePath().normalize();
        return (abs.startsWith(base) ? base.relativize(abs) : abs).toString().replace('\\', '/');
    }

    /** Progress of an index run: a bar on a terminal, nothing otherwise. */
    interface Progress {
        /** A phase begins: {@code total} steps of {@code what} ("reading" files, "embedding" chunks). */
        void start(String what, int total);

        void step(int done);

        void done();

        static Progress none() {
            return new Progress() {
                @Override
                public void start(String what, int total) {}

                @Override
                public void step(int done) {}

                @Override
                public void done() {}
            };
        }

        /** A bar redrawn at most ten times a second, for phases of at least {@code minimum} steps. */
        static Progress bar(PrintStream out, int minimum) {
            return new Progress() {
                private String what = "";
                private int total;
                private long last;

                @Override
                public void start(String what, int total) {
                    this.what = what;
                    this.total = total;
                    this.last = 0;
                    if (total >= minimum) {
                        draw(0);
                    }
                }

                @Override
                public void step(int done) {
                    long t = System.nanoTime();
                    if (total < minimum || (t - last < 100_000_000L && done != total)) {
                        return;
                    }
                    last = t;
                    draw(done);
                }

                private void draw(int done) {
                    int width = 30;
                    int filled = (int) ((long) done * width / Math.max(1, total));
                    out.print("\r" + what + " [" + "#".repeat(filled) + " ".repeat(width - filled) + "] " + done + "/"
                            + total + " ");
                    out.flush();
                }

                @Override
                public void done() {
                    if (total >= minimum) {
                        out.print("\r" + " ".repeat(70) + "\r");
                        out.flush();
                    }
                    total = 0;
                }
            };
        }
    }
}
