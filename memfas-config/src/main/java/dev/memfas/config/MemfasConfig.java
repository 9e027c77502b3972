package dev.memfas.config;

import dev.memfas.ContextCurator;
import dev.memfas.MemfasException;
import dev.memfas.Memory;
import dev.memfas.Trigger;
import dev.memfas.config.internal.ConfigFile;
import dev.memfas.config.internal.OwnerOnly;
import dev.memfas.core.Memfas;
import dev.memfas.djl.DjlEmbedder;
import dev.memfas.spi.MemoryStore;
import dev.memfas.sqlite.SqliteMemoryStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * A {@code memfas.yaml}, the file the {@code memfas} command reads (docs/cli.md, "Configuration"), as the way to build
 * a curator, so that an application and the command share one configuration: the same store, model, budget, weights,
 * triggers and telemetry log (which {@code memfas report} then reads).
 *
 * <pre>{@code
 * MemfasConfig config = MemfasConfig.read(Path.of("memfas.yaml"));
 * try (ContextCurator curator = config.open()) {
 *     curator.getContext(ContextRequest.builder(query).sessionId(session).namespace(config.namespace()).build());
 * }
 * }</pre>
 *
 * <p>Relative paths are relative to the file's directory. Keys only the command reads ({@code sources}, {@code chunk},
 * {@code max_file_bytes}, {@code mcp}) are checked and otherwise left alone. Immutable; {@link #open()} may be called
 * more than once (each curator opens the store anew).
 */
public final class MemfasConfig {
    /** The name the command looks for in its working directory. */
    public static final String FILE_NAME = ConfigFile.FILE_NAME;

    private final ConfigFile file;

    private MemfasConfig(ConfigFile file) {
        this.file = file;
    }

    /**
     * Reads a {@code memfas.yaml}. Nothing is opened yet.
     *
     * @throws IllegalArgumentException if the file is not valid YAML, or has an unknown key, a value of the wrong type
     *     or out of range; the message names the file and the key
     * @throws MemfasException if the file does not exist or cannot be read
     */
    public static MemfasConfig read(Path file) {
        return new MemfasConfig(ConfigFile.read(Objects.requireNonNull(file, "file")));
    }

    /** The namespace (tenant) the file names, {@link Memory#DEFAULT_NAMESPACE} when it names none. */
    public String namespace() {
        return file.namespace() != null ? file.namespace() : Memory.DEFAULT_NAMESPACE;
    }

    /** A curator with everything as the file says. Same as {@code open(builder -> {})}. */
    public ContextCurator open() {
        return open(builder -> {});
    }

    /**
     * Opens the store and the model the file names and builds a curator over them with the file's settings; closing
     * the curator closes both. The store is created when missing (a SQLite file and its directory, owner-only; the
     * tables of a PostgreSQL database, which must exist). The built-in model loads now, which takes a second or two.
     *
     * @param more adds what the file does not say (a telemetry listener, a relevance judge, a clock...) to the
     *     builder before it builds; setting again what the file set fails as it would on any builder
     * @throws IllegalArgumentException if a setting is invalid where it is used (a model that is neither a built-in
     *     model's id, {@code none}, nor a directory; a PostgreSQL URL without {@code memfas-postgres} on the class
     *     path), or {@code more} sets a setting twice
     * @throws MemfasException if the store, the model or the telemetry log cannot be opened
     */
    public ContextCurator open(Consumer<Memfas.Builder> more) {
        Objects.requireNonNull(more, "more");
        MemoryStore store = openStore();
        DjlEmbedder embedder = null;
        ContextCurator curator = null;
        try {
            embedder = openModel();
            Memfas.Builder b = Memfas.newBuilder().store(store);
            if (embedder != null) {
                b.embedder(embedder).owns(embedder);
            }
            if (file.budget() != null) {
                b.tokenBudget(file.budget());
            }
            if (file.weights() != null) {
                b.weights(file.weights());
            }
            if (file.timeWindowWeight() != null) {
                b.timeWindowWeight(file.timeWindowWeight());
            }
            if (file.supersession() != null) {
                b.supersession(file.supersession());
            }
            if (file.scopeBudgets() != null) {
                b.scopeBudgets(file.scopeBudgets());
            }
            if (file.workingMemoryTtl() != null) {
                b.workingMemory(file.workingMemoryTtl(), file.workingMemoryLimit());
            }
            Path telemetry = telemetryFile();
            if (telemetry != null) {
                b.telemetry(ownerOnly(telemetry));
            }
            more.accept(b);
            curator = b.build();
            for (Trigger t : file.triggers()) {
                curator.triggers().add(new Trigger(t.keyword(), t.hint(), t.memoryIds(), namespace()));
            }
            return curator;
        } catch (RuntimeException e) {
            if (curator != null) {
                // It owns the store and the model now.
                closeAfter(e, curator);
            } else {
                closeAfter(e, store);
                if (embedder != null) {
                    closeAfter(e, embedder);
                }
            }
            throw e;
        }
    }

    /** The file, its namespace and its database, for messages. */
    @Override
    public String toString() {
        String db = file.db() == null ? ConfigFile.DEFAULT_DB
                : ConfigFile.isPostgresUrl(file.db()) ? ConfigFile.displayUrl(file.db()) : file.db();
        return "MemfasConfig[" + file.file() + ", namespace " + namespace() + ", db " + db + "]";
    }

    private MemoryStore openStore() {
        String db = file.db() == null ? ConfigFile.DEFAULT_DB : file.db();
        if (ConfigFile.isPostgresUrl(db)) {
            return PostgresStores.open(db, file.file());
        }
        Path path = file.baseDir().resolve(db);
        try {
            OwnerOnly.createDirectories(path.toAbsolutePath().getParent());
        } catch (IOException e) {
            throw new MemfasException("cannot create the directory of the database " + path + ": " + e, e);
        }
        return SqliteMemoryStore.open(path);
    }

    /** {@code none}, a built-in model's id, or a model directory (relative to the file). */
    private DjlEmbedder openModel() {
        String model = file.model() == null ? ConfigFile.DEFAULT_MODEL : file.model();
        if (model.equalsIgnoreCase("none")) {
            return null;
        }
        Path dir = file.baseDir().resolve(model);
        if (Files.isDirectory(dir)) {
            return DjlEmbedder.builder().modelDirectory(dir).build();
        }
        DjlEmbedder.BuiltInModel builtIn;
        try {
            builtIn = DjlEmbedder.BuiltInModel.forModelId(model);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(file.file() + ": model must be a built-in model's id (such as "
                    + DjlEmbedder.DEFAULT_MODEL.modelId() + "), none, or a model directory: '" + model + "'", e);
        }
        return DjlEmbedder.builder().model(builtIn).build();
    }

    /** Where the file says, beside a SQLite store when it says nothing, none when it says {@code off}. */
    private Path telemetryFile() {
        if (file.telemetry() != null) {
            return file.telemetry().equalsIgnoreCase("off") ? null : file.baseDir().resolve(file.telemetry());
        }
        String db = file.db() == null ? ConfigFile.DEFAULT_DB : file.db();
        return ConfigFile.isPostgresUrl(db) ? file.baseDir().resolve(".memfas/telemetry.jsonl")
                : file.baseDir().resolve(db).resolveSibling("telemetry.jsonl");
    }

    /** The telemetry log, created owner-only (it holds queries) unless it exists. */
    private static Path ownerOnly(Path log) {
        try {
            OwnerOnly.createDirectories(log.toAbsolutePath().getParent());
            return OwnerOnly.ensureFile(log);
        } catch (IOException e) {
            throw new MemfasException("cannot create the telemetry log " + log + ": " + e, e);
        }
    }

    private static void closeAfter(RuntimeException failure, AutoCloseable resource) {
        try {
            resource.close();
        } catch (Exception e) {
            failure.addSuppressed(e);
        }
    }
}
