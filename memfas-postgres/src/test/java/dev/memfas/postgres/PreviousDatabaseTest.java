package dev.memfas.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.sql.testing.PreviousContent;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/**
 * A database the store wrote before its SQL was shared with the SQLite store ({@code schema-1.sql}: the tables, rows
 * and sequences {@link PreviousContent#write} left at schema version 1, as SQL) is migrated when opened and reads back
 * what was written, as does a database this build writes.
 */
class PreviousDatabaseTest {
    @Test
    void aDatabaseOfSchemaVersion1_isMigratedAndReadsBackEverythingWritten() throws Exception {
        String url = EmbeddedPostgres.shared().newSchemaUrl();
        String script;
        try (InputStream in = PreviousDatabaseTest.class.getResourceAsStream("schema-1.sql")) {
            script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.execute(script);
        }
        try (PostgresMemoryStore store = PostgresMemoryStore.open(url)) {
            assertThat(store.schemaVersion()).isEqualTo(2);
            PreviousContent.assertWritten(store);
        }
        // Version 2: the database no longer keeps the text's lexemes (text is searched in each process).
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT count(*) FROM information_schema.columns WHERE table_schema = "
                        + "current_schema() AND column_name IN ('lexemes', 'lexeme_count')")) {
            rs.next();
            assertThat(rs.getInt(1)).isZero();
        }
    }

    @Test
    void aDatabaseThisBuildWrites_readsTheSame() {
        String url = EmbeddedPostgres.shared().newSchemaUrl();
        try (PostgresMemoryStore store = PostgresMemoryStore.open(url)) {
            PreviousContent.write(store);
        }
        try (PostgresMemoryStore store = PostgresMemoryStore.open(url)) {
            PreviousContent.assertWritten(store);
        }
    }
}
