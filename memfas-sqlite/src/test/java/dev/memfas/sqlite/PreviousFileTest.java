package dev.memfas.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.sql.testing.PreviousContent;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file the store wrote before its SQL was shared with the PostgreSQL store ({@code schema-4.db}, written by
 * {@link PreviousContent#write} at schema version 4) opens unchanged and reads back what was written, as does a file
 * this build writes: the on-disk format did not move.
 */
class PreviousFileTest {
    @TempDir
    Path dir;

    @Test
    void aFileOfSchemaVersion4_opensAndReadsBackEverythingWritten() throws Exception {
        Path file = dir.resolve("schema-4.db");
        try (InputStream in = PreviousFileTest.class.getResourceAsStream("schema-4.db")) {
            Files.copy(in, file);
        }
        try (SqliteMemoryStore store = SqliteMemoryStore.open(file)) {
            assertThat(store.schemaVersion()).isEqualTo(Schema.MIGRATIONS.size());
            PreviousContent.assertWritten(store);
        }
    }

    @Test
    void aFileThisBuildWrites_readsTheSame() {
        Path file = dir.resolve("new.db");
        try (SqliteMemoryStore store = SqliteMemoryStore.open(file)) {
            PreviousContent.write(store);
        }
        try (SqliteMemoryStore store = SqliteMemoryStore.open(file)) {
            PreviousContent.assertWritten(store);
        }
    }
}
