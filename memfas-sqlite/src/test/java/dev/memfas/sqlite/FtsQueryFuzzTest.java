package dev.memfas.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.memfas.Memory;
import java.nio.file.Files;
import java.time.Instant;
import java.util.List;

/**
 * Queries as text a user or a model may send, run through the FTS5 query builder and the real SQLite search: operator
 * syntax, quotes, brackets, NUL and any Unicode are data, so a search never raises an error.
 *
 * <p>{@code JAZZER_FUZZ=1 ./mvnw -B -pl memfas-sqlite test -Dtest='FtsQueryFuzzTest#search'} fuzzes it for real.
 */
final class FtsQueryFuzzTest {
    private static final SqliteMemoryStore STORE;

    static {
        try {
            STORE = SqliteMemoryStore.open(Files.createTempDirectory("memfas-fuzz").resolve("fts.db"));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        STORE.upsertAll(List.of(Memory.builder("Deploys go out on Tuesdays \"NEAR\" (the AND gate) OR*").id("m1")
                .createdAt(Instant.EPOCH).build()));
    }

    @FuzzTest(maxDuration = "2m")
    void search(String query) {
        if (query == null) {
            return;
        }
        String fts = FtsQuery.of(query);
        assertThat(fts).doesNotContain("\u0000");
        STORE.searchLexical(Memory.DEFAULT_NAMESPACE, query, 10);
    }
}
