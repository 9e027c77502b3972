package dev.memfas.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.memfas.ContextCurator;
import dev.memfas.ContextRequest;
import dev.memfas.ContextResponse;
import dev.memfas.MemfasException;
import dev.memfas.Memory;
import dev.memfas.MemoryFilter;
import dev.memfas.sqlite.SqliteMemoryStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A curator built from a {@code memfas.yaml}: a real SQLite file, the real model, the file's settings. */
final class MemfasConfigTest {
    @TempDir
    Path dir;

    private MemfasConfig config(String yaml) throws Exception {
        return MemfasConfig.read(Files.writeString(dir.resolve("memfas.yaml"), yaml));
    }

    @Test
    void aCuratorFromTheFile_usesItsStoreModelBudgetNamespaceAndTriggers() throws Exception {
        MemfasConfig config = config("""
                db: data/agent.db
                budget: 300
                namespace: team-a
                triggers:
                  - keyword: deploy
                    hint: Production deploys only Tuesday to Thursday.
                """);
        assertThat(config.namespace()).isEqualTo("team-a");

        try (ContextCurator curator = config.open()) {
            curator.remember(Memory.builder("The payments service stores card tokens in Vault, never in Postgres.")
                    .namespace("team-a").build());
            curator.remember(Memory.builder("The office coffee machine is descaled on Fridays.")
                    .namespace("team-a").build());
            ContextResponse r = curator.getContext(ContextRequest.builder("where do card tokens live? deploy")
                    .sessionId("s1").namespace(config.namespace()).build());

            assertThat(r.budget()).isEqualTo(300);
            assertThat(r.context()).contains("Vault").doesNotContain("coffee");
            assertThat(r.triggersMatched()).containsExactly("deploy");
            assertThat(r.context()).contains("Production deploys only Tuesday to Thursday.");
        }
        // The store is where the file said, relative to the file, and holds what the curator remembered.
        Path db = dir.resolve("data/agent.db");
        try (SqliteMemoryStore store = SqliteMemoryStore.open(db)) {
            List<String> texts = new ArrayList<>();
            store.forEach("team-a", MemoryFilter.all(), m -> texts.add(m.text()));
            assertThat(texts).hasSize(2).anyMatch(t -> t.contains("Vault"));
        }
        // Telemetry goes beside the store, as the command writes it, owner-only.
        Path log = dir.resolve("data/telemetry.jsonl");
        // The turn, then the session's summary as the curator closed.
        assertThat(Files.readAllLines(log)).hasSize(2).allMatch(l -> l.contains("\"session\":\"s1\""));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(log))).isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(db.getParent())))
                .isEqualTo("rwx------");
    }

    @Test
    void aSecondCurator_opensTheSameStoreAgain_andTelemetryOff_writesNoLog() throws Exception {
        MemfasConfig config = config("model: none\ntelemetry: off\n");
        try (ContextCurator first = config.open()) {
            first.remember(Memory.builder("Kafka retention is seven days on the events cluster.").build());
        }
        try (ContextCurator second = config.open()) {
            assertThat(second.getContext("kafka retention", "s").context()).contains("seven days");
        }
        assertThat(dir.resolve(".memfas/memfas.db")).isRegularFile();
        assertThat(dir.resolve(".memfas/telemetry.jsonl")).doesNotExist();
    }

    @Test
    void whatTheFileDoesNotSay_isAddedToTheBuilder_andWhatItSays_cannotBeSetTwice() throws Exception {
        MemfasConfig config = config("model: none\nbudget: 500\ntelemetry: off\n");
        List<String> seen = new ArrayList<>();
        try (ContextCurator curator = config.open(b -> b.telemetryListener(t -> seen.add(t.query())))) {
            curator.getContext("anything at all", "s");
        }
        assertThat(seen).containsExactly("anything at all");

        assertThatThrownBy(() -> config.open(b -> b.tokenBudget(800)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("token budget");
        // Nothing was left open: the store opens again at once.
        try (ContextCurator again = config.open()) {
            assertThat(again.getContext("anything", "s").budget()).isEqualTo(500);
        }
    }

    @Test
    void badSettings_nameTheFileAndTheKey() throws Exception {
        Path file = dir.resolve("memfas.yaml");
        assertThatThrownBy(() -> config("budjet: 5")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(file + ": unknown key 'budjet'");
        assertThatThrownBy(() -> config("budget: -5")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage(file + ": budget must be in [1, 1000000]: -5");
        assertThatThrownBy(() -> config("db: [a, b]")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(file + ": db must be a non-empty string");
        assertThatThrownBy(() -> config("model: gpt-9\ntelemetry: off").open())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(file + ": model must be a built-in model's id").hasMessageContaining("'gpt-9'");
        assertThatThrownBy(() -> MemfasConfig.read(dir.resolve("missing.yaml"))).isInstanceOf(MemfasException.class)
                .hasMessage("config file " + dir.resolve("missing.yaml") + " does not exist");
        // The keys only the command reads are accepted and checked.
        assertThat(config("sources: [notes/*.md]\nchunk: {target_tokens: 300}\nmcp: {tools: core}\n").namespace())
                .isEqualTo(Memory.DEFAULT_NAMESPACE);
        assertThatThrownBy(() -> config("chunk: {target_tokens: 40, overlap_tokens: 50}"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("chunk.overlap_tokens (50) must be less than chunk.target_tokens (40)");
    }

    @Test
    void toString_namesTheFileNamespaceAndDatabase_withoutCredentials() throws Exception {
        MemfasConfig config = config("db: postgresql://agent:s3cret@db.internal/agents?password=x\n");
        assertThat(config.toString()).contains(dir.resolve("memfas.yaml").toString())
                .contains("postgresql://db.internal/agents").doesNotContain("s3cret").doesNotContain("password");
    }
}
