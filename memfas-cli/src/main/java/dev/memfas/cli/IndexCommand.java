package dev.memfas.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code memfas index PATH...}: memory files into the store; an unchanged tree is checked without loading the model. */
@Command(name = "index", description = "Index memory files: MEMORY.md, memory/YYYY-MM-DD.md, notes, JSON.")
final class IndexCommand implements Callable<Integer> {
    /** Fewer files or chunks than this go by without a bar. */
    private static final int BAR_MINIMUM = 20;

    @CommandLine.ParentCommand
    Main main;

    @Parameters(paramLabel = "PATH", arity = "0..*", description = "Files or directories (default: the config's sources).")
    List<Path> paths = new ArrayList<>();

    @Option(names = "--chunk-tokens", paramLabel = "N", description = "Target chunk size in tokens (default 400).")
    Integer chunkTokens;

    @Option(names = "--overlap-tokens", paramLabel = "N", description = "Overlap between chunks (default 50).")
    Integer overlapTokens;

    @Option(names = "--max-file-size", paramLabel = "BYTES", description = "Skip larger files (default 10 MiB).")
    Long maxFileSize;

    @Override
    public Integer call() {
        CliConfig c = main.settings();
        List<Path> targets = new ArrayList<>(paths);
        // Checked before the store is opened, so that mistyped paths create no empty store. Among paths that exist,
        // a missing one is reported with the other failures, and the rest is indexed.
        List<String> missing = paths.stream().filter(p -> !Files.exists(p)).map(Path::toString).toList();
        if (!missing.isEmpty() && missing.size() == paths.size()) {
            throw new IllegalArgumentException("no such file or directory: " + String.join(", ", missing)
                    + " (nothing was indexed)");
        }
        if (targets.isEmpty()) {
            targets.addAll(Sources.expand(c.baseDir, c.sources));
            if (targets.isEmpty()) {
                throw new IllegalArgumentException("nothing to index: give paths, or list sources in "
                        + CliConfig.FILE_NAME);
            }
        }
        MemoryFiles files = new MemoryFiles(chunkTokens != null ? chunkTokens : c.chunkTargetTokens,
                overlapTokens != null ? overlapTokens : c.chunkOverlapTokens);
        try (Workspace w = main.open(Workspace.Access.WRITE, false)) {
            Indexer indexer = new Indexer(w.curator, w.store, main.namespace(), files,
                    maxFileSize != null ? maxFileSize : c.maxFileBytes, Path.of(""), w::loadModel);
            Indexer.Report r = indexer.index(targets,
                    System.console() != null ? Indexer.Progress.bar(System.err, BAR_MINIMUM) : Indexer.Progress.none());
            main.out().printf(Locale.ROOT, "indexed %d files (%d unchanged): %d chunks added, %d kept, %d removed%n",
                    r.filesIndexed(), r.filesUnchanged(), r.added(), r.kept(), r.removed());
            r.failures().forEach((file, why) -> main.err().println("memfas: " + file + ": " + why));
            if (r.failed()) {
                main.err().println("memfas: " + r.failures().size() + " of the paths failed; the rest was indexed");
                return Main.INPUT;
            }
            return Main.OK;
        }
    }
}
