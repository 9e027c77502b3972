package dev.memfas.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.memfas.Memory;
import dev.memfas.spi.LexicalHit;
import java.nio.file.Files;
import java.time.Instant;
import java.util.List;

/**
 * Queries as text a user or a model may send, run through the store's full-text search: operator syntax, quotes,
 * brackets, NUL and any Unicode are data, so a search never raises an error and finds only what is stored.
 *
 * <p>{@code JAZZER_FUZZ=1 ./mvnw -B -pl memfas-sqlite test -Dtest='LexicalSearchFuzzTest#search'} fuzzes it for real.
 */
final class LexicalSearchFuzzTest {
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
        assertThat(STORE.searchLexical(Memory.DEFAULT_NAMESPACE, query, 10)).extracting(LexicalHit::memoryId)
                .allMatch("m1"::equals);
    }
}
