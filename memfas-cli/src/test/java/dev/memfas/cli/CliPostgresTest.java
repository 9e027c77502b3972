package dev.memfas.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.ContextCurator;
import dev.memfas.config.MemfasConfig;
import dev.memfas.postgres.EmbeddedPostgres;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command over a PostgreSQL database, named by URL wherever a database file is accepted. */
final class CliPostgresTest {
    @TempDir
    Path dir;

    private static CliRun memfas(String db, String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--db", db, "--model", "none", "--no-telemetry"));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = Main.run(all.toArray(String[]::new), new PrintWriter(out, true), new PrintWriter(err, true));
        return new CliRun(exit, out.toString(), err.toString());
    }

    @Test
    void commands_workOnAPostgresDatabase_givenAsAJdbcOrALibpqUrl() throws Exception {
        String jdbc = EmbeddedPostgres.shared().newSchemaUrl();
        String schema = jdbc.substring(jdbc.indexOf("currentSchema=") + "currentSchema=".length());
        String libpq = "postgresql://postgres:not-a-real-secret@127.0.0.1:" + EmbeddedPostgres.shared().port()
                + "/postgres?currentSchema=" + schema;

        assertThat(memfas(jdbc, "remember", "We deploy on Tuesdays after the standup.", "--id", "d1").exit())
                .isZero();
        assertThat(memfas(libpq, "triggers", "add", "friday", "No deploys on Fridays.").exit()).isZero();

        // Another run, as another process would be: it reads what the first wrote.
        assertThat(memfas(libpq, "recall", "deploy").out()).contains("d1");
        assertThat(memfas(jdbc, "context", "can we deploy on friday?").out()).contains("Tuesdays")
                .contains("No deploys on Fridays.");
        assertThat(memfas(jdbc, "show", "d1").out()).contains("We deploy on Tuesdays after the standup.");
        CliRun stats = memfas(libpq, "stats");
        assertThat(stats.out()).contains("database:  postgresql://127.0.0.1:" + EmbeddedPostgres.shared().port()
                + "/postgres (PostgreSQL, schema version 2)").contains("memories:  1")
                .doesNotContain("not-a-real-secret");
        // An application built from a memfas.yaml naming the same database curates what the command wrote.
        Path yaml = Files.writeString(dir.resolve("memfas.yaml"), "db: \"" + libpq + "\"\nmodel: none\n");
        try (ContextCurator app = MemfasConfig.read(yaml).open()) {
            assertThat(app.getContext("when do we deploy?", "app").context()).contains("Tuesdays");
        }
        assertThat(dir.resolve(".memfas/telemetry.jsonl")).isRegularFile();
        assertThat(memfas(jdbc, "forget", "d1").exit()).isZero();
        assertThat(memfas(jdbc, "list").out()).doesNotContain("d1");

        CliRun backup = memfas(libpq, "backup", dir.resolve("copy.db").toString());
        assertThat(backup.exit()).isEqualTo(Main.INPUT);
        assertThat(backup.err()).contains("back up a PostgreSQL store with the database's own tools")
                .doesNotContain("not-a-real-secret");
    }
}
