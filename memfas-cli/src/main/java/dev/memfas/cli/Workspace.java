package dev.memfas.cli;

import dev.memfas.ContextCurator;
import dev.memfas.MemfasException;
import dev.memfas.Trigger;
import dev.memfas.core.Memfas;
import dev.memfas.djl.DjlEmbedder;
import dev.memfas.sqlite.SqliteMemoryStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The store, embedder and curator one command works with, built from the settings. */
final class Workspace implements AutoCloseable {
    final CliConfig config;
    final SqliteMemoryStore store;
    final DjlEmbedder embedder;
    final ContextCurator curator;

    private Workspace(CliConfig config, SqliteMemoryStore store, DjlEmbedder embedder, ContextCurator curator) {
        this.config = config;
        this.store = store;
        this.embedder = embedder;
        this.curator = curator;
    }

    static Workspace open(CliConfig config, boolean telemetry) {
        Path db = config.db.toAbsolutePath();
        try {
            Files.createDirectories(db.getParent());
        } catch (IOException e) {
            throw new MemfasException("cannot create the directory of the database " + db + ": " + e.getMessage(), e);
        }
        DjlEmbedder embedder = embedder(config.model);
        SqliteMemoryStore store = null;
        try {
            store = SqliteMemoryStore.open(db);
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
            if (telemetry && config.telemetry != null) {
                Files.createDirectories(config.telemetry.toAbsolutePath().getParent());
                b.telemetry(config.telemetry);
            }
            ContextCurator curator = b.build();
            for (Trigger t : config.triggers) {
                curator.addTrigger(t);
            }
            return new Workspace(config, store, embedder, curator);
        } catch (RuntimeException | IOException e) {
            if (store != null) {
                store.close();
            }
            if (embedder != null) {
                embedder.close();
            }
            if (e instanceof RuntimeException r) {
                throw r;
            }
            throw new MemfasException("cannot create the telemetry directory: " + e.getMessage(), e);
        }
    }

    /** {@code none}, a built-in model id, or a model directory. */
    static DjlEmbedder embedder(String model) {
        if (model.equalsIgnoreCase("none")) {
            return null;
        }
        Path dir = Path.of(model);
        if (Files.isDirectory(dir)) {
            return DjlEmbedder.builder().modelDirectory(dir).build();
        }
        DjlEmbedder.BuiltInModel builtIn;
        try {
            builtIn = DjlEmbedder.BuiltInModel.forModelId(model);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("model must be " + DjlEmbedder.DEFAULT_MODEL.modelId()
                    + ", none, or a model directory: '" + model + "'");
        }
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

    @Override
    public void close() {
        try {
            curator.close();
        } finally {
            if (embedder != null) {
                embedder.close();
            }
        }
    }
}
