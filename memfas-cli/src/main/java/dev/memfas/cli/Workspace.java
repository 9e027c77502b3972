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
import java.util.Locale;

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

    static DjlEmbedder embedder(String model) {
        return switch (model.toLowerCase(Locale.ROOT)) {
            case "none" -> null;
            case "bge-small-en-v1.5", "bge" -> DjlEmbedder.builder().model(DjlEmbedder.BuiltInModel.BGE_SMALL_EN_V15)
                    .build();
            case "all-minilm-l6-v2", "minilm" -> DjlEmbedder.builder()
                    .model(DjlEmbedder.BuiltInModel.ALL_MINILM_L6_V2).build();
            default -> {
                Path dir = Path.of(model);
                if (Files.isDirectory(dir)) {
                    yield DjlEmbedder.builder().modelDirectory(dir).build();
                }
                throw new IllegalArgumentException("model must be bge-small-en-v1.5, all-minilm-l6-v2, none, or a"
                        + " model directory: '" + model + "'");
            }
        };
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
