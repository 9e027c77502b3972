package dev.memfas.cli;

import dev.memfas.config.internal.OwnerOnly;

import dev.memfas.ContextCurator;
import dev.memfas.spi.Embedder;
import dev.memfas.MemfasException;
import dev.memfas.spi.MemoryStore;
import dev.memfas.Trigger;
import dev.memfas.core.Memfas;
import dev.memfas.djl.DjlEmbedder;
import dev.memfas.postgres.PostgresMemoryStore;
import dev.memfas.sqlite.SqliteMemoryStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * The store, embedder and curator one command works with, built from the settings.
 *
 * <p>A command that only reads ({@link Access#READ}) never creates anything: without a store at the configured path it
 * fails with a one-line error that says how to make one. The built-in model loads only when something is embedded.
 */
final class Workspace implements AutoCloseable {
    /** Whether a command may create the store. */
    enum Access {
        /** The store must exist; nothing is created. */
        READ,
        /** The store and its directory are created when missing. */
        WRITE
    }

    final CliConfig config;
    final MemoryStore store;
    final ContextCurator curator;
    private final AutoCloseable embedder;

    private Workspace(CliConfig config, MemoryStore store, AutoCloseable embedder, ContextCurator curator) {
        this.config = config;
        this.store = store;
        this.embedder = embedder;
        this.curator = curator;
    }

    /**
     * Opens the store and builds a curator over it.
     *
     * @param telemetry whether this command's turns are logged (where the settings say, unless telemetry is off)
     * @param status where progress notes such as "loading model …" go
     */
    static Workspace open(CliConfig config, Access access, boolean telemetry, Consumer<String> status) {
        MemoryStore store = openStore(config, access);
        Embedder embedder = null;
        try {
            embedder = embedder(config.model, status);
            Memfas.Builder b = Memfas.newBuilder().store(store);
            if (embedder != null) {
                b.embedder(embedder);
            }
            if (config.budget != null) {
                b.tokenBudget(config.budget);
            }
            if (config.weights != null) {
                b.weights(config.weights);
            }
            if (config.timeWindowWeight != null) {
                b.timeWindowWeight(config.timeWindowWeight);
            }
            if (config.supersession != null) {
                b.supersession(config.supersession);
            }
            if (config.scopeBudgets != null) {
                b.scopeBudgets(config.scopeBudgets);
            }
            if (config.workingMemoryTtl != null) {
                b.workingMemory(config.workingMemoryTtl, config.workingMemoryLimit);
            }
            if (telemetry && config.telemetry != null) {
                telemetry(b, config.telemetry, status);
            }
            ContextCurator curator = b.build();
            for (Trigger t : config.triggers) {
                // In the namespace the commands work in, as an application built from the same file adds them.
                curator.triggers().add(new Trigger(t.keyword(), t.hint(), t.memoryIds(), config.namespace));
            }
            return new Workspace(config, store, (AutoCloseable) embedder, curator);
        } catch (RuntimeException e) {
            store.close();
            if (embedder instanceof AutoCloseable c) {
                closeQuietly(c, e);
            }
            throw e;
        }
    }

    /** Loads the embedding model now if it is not loaded yet (it otherwise loads at the first embedding). */
    void loadModel() {
        if (embedder instanceof LazyEmbedder lazy) {
            lazy.load();
        }
    }

    /**
     * The store alone, for commands that need no curator: the SQLite file, or the PostgreSQL database (whose memfas
     * tables are created if missing, whatever the access: the database itself must exist).
     */
    static MemoryStore openStore(CliConfig config, Access access) {
        if (config.dbUrl != null) {
            return PostgresMemoryStore.open(config.dbUrl);
        }
        Path db = config.db.toAbsolutePath();
        if (access == Access.READ) {
            if (!Files.isRegularFile(db)) {
                throw new IllegalArgumentException("no memfas store at " + db
                        + " (create one with 'memfas index PATH' or 'memfas remember TEXT', or pass --db FILE)");
            }
        } else {
            try {
                OwnerOnly.createDirectories(db.getParent());
            } catch (IOException e) {
                throw new MemfasException("cannot create the directory of the database " + db + ": " + e, e);
            }
        }
        return SqliteMemoryStore.open(db);
    }

    /** Telemetry is a log, not the store: if it cannot be written, the command goes on without it and says so once. */
    private static void telemetry(Memfas.Builder b, Path file, Consumer<String> status) {
        try {
            OwnerOnly.createDirectories(file.toAbsolutePath().getParent());
            // Created here, owner-only, so that a log that cannot be written is this warning and not a failed build().
            OwnerOnly.ensureFile(file);
            Files.newOutputStream(file, java.nio.file.StandardOpenOption.APPEND).close();
            b.telemetry(file);
        } catch (IOException | MemfasException e) {
            status.accept("warning: cannot write telemetry to " + file + " (" + e.getMessage()
                    + "); continuing without it");
        }
    }

    /** {@code none}, the built-in model (loaded when first used), or a model directory (loaded now). */
    static Embedder embedder(String model, Consumer<String> status) {
        if (model.equalsIgnoreCase("none")) {
            return null;
        }
        Path dir = Path.of(model);
        if (Files.isDirectory(dir)) {
            status.accept("loading model " + dir + "…");
            return DjlEmbedder.builder().modelDirectory(dir).build();
        }
        DjlEmbedder.BuiltInModel builtIn;
        try {
            builtIn = DjlEmbedder.BuiltInModel.forModelId(model);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("model must be " + DjlEmbedder.DEFAULT_MODEL.modelId()
                    + ", none, or a model directory: '" + model + "'");
        }
        if (builtIn != DjlEmbedder.DEFAULT_MODEL) {
            // Fail now rather than at the first embedding, and say what to do.
            load(builtIn).close();
        }
        return new LazyEmbedder(builtIn, status);
    }

    /** Loads a built-in model; one the command does not bundle is an input error that says what to use instead. */
    static DjlEmbedder load(DjlEmbedder.BuiltInModel builtIn) {
        try {
            return DjlEmbedder.builder().model(builtIn).build();
        } catch (MemfasException e) {
            if (builtIn != DjlEmbedder.DEFAULT_MODEL && e.getMessage().contains("not on the class path")) {
                // The command ships the default model only (25 MB); the others are 78 and 83 MB.
                throw new IllegalArgumentException("model '" + builtIn.modelId() + "' is not bundled with the memfas"
                        + " command (it bundles " + DjlEmbedder.DEFAULT_MODEL.modelId() + "): give a model directory"
                        + " with model.onnx and tokenizer.json instead");
            }
            throw e;
        }
    }

    private static void closeQuietly(AutoCloseable c, Exception failure) {
        try {
            c.close();
        } catch (Exception e) {
            failure.addSuppressed(e);
        }
    }

    @Override
    public void close() {
        try {
            curator.close();
        } finally {
            if (embedder != null) {
                try {
                    embedder.close();
                } catch (Exception e) {
                    throw new MemfasException("cannot close the embedder: " + e.getMessage(), e);
                }
            }
        }
    }
}
