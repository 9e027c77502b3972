package dev.memfas.cli;

import dev.memfas.spi.MemoryStore;
import dev.memfas.spi.Embedder;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code memfas reembed}: every memory embedded again with the configured model, in one transaction. */
@Command(name = "reembed", description = "Embed every memory again with the configured model (--model), replacing"
        + " the stored vectors in one step; the way to change models.")
final class ReembedCommand implements Callable<Integer> {
    @CommandLine.ParentCommand
    Main main;

    @Option(names = "--batch", paramLabel = "N", description = "Texts per model call (default 32).")
    int batch = 32;

    @Override
    public Integer call() throws Exception {
        if (batch < 1) {
            throw new IllegalArgumentException("--batch must be positive: " + batch);
        }
        CliConfig config = main.settings();
        try (MemoryStore store = Workspace.openStore(config, Workspace.Access.READ)) {
            Embedder embedder = Workspace.embedder(config.model, note -> main.err().println("memfas: " + note));
            if (embedder == null) {
                throw new IllegalArgumentException("reembed needs a model: --model none embeds nothing");
            }
            try {
                String before = store.vectorSpace().map(Object::toString).orElse("no vectors");
                int n = Stores.reembed(store, embedder, batch);
                main.out().println("re-embedded " + n + " memories with " + embedder.modelId() + " (before: "
                        + before + ")");
            } finally {
                ((AutoCloseable) embedder).close();
            }
        }
        return Main.OK;
    }
}
