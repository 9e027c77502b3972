package dev.memfas.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.ContextCurator;
import dev.memfas.ContextRequest;
import dev.memfas.ContextResponse;
import dev.memfas.config.MemfasConfig;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An application built from memfas.yaml and the command, given the same file, work on one store and one log. */
final class CliSharedConfigTest {
    @TempDir
    Path dir;

    private String memfas(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        assertThat(exit).as(err.toString()).isZero();
        return out.toString();
    }

    @Test
    void whatTheCommandRemembers_theApplicationCurates_andTheCommandReportsItsTurns() throws Exception {
        Path file = Files.writeString(dir.resolve("memfas.yaml"), """
                db: store/memfas.db
                model: none
                budget: 400
                namespace: payments
                triggers:
                  - keyword: refund
                    hint: Refunds over 500 EUR need a second approver.
                """);
        memfas("remember", "Card tokens live in Vault; the payments database never sees a card number.",
                "--config", file.toString());

        MemfasConfig config = MemfasConfig.read(file);
        try (ContextCurator curator = config.open()) {
            ContextResponse r = curator.getContext(ContextRequest.builder("where are card tokens kept? refund")
                    .sessionId("app-1").namespace(config.namespace()).build());
            assertThat(r.budget()).isEqualTo(400);
            assertThat(r.context()).contains("Vault").contains("second approver");
        }

        // The command finds the application's turn in the log the file places beside the store.
        assertThat(memfas("telemetry", "show", "--config", file.toString())).contains("app-1")
                .contains("where are card tokens kept");
        assertThat(memfas("context", "refund policy", "--config", file.toString()))
                .contains("second approver");
    }
}
