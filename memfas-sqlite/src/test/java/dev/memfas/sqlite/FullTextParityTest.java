package dev.memfas.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.memfas.Memory;
import dev.memfas.MemoryFilter;
import dev.memfas.spi.LexicalHit;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store's own full-text index ranks a namespace alone in its file exactly as SQLite's FTS5 {@code bm25()} ranks
 * it (the same memories, in the same order, with the same scores), over text with inflections, digits, diacritics,
 * capitals, punctuation, stop words and other scripts, before and after memories are replaced and deleted (the FTS5
 * table built afresh from the memories as they are then); and a namespace's ranking does not change with what other
 * namespaces hold.
 */
final class FullTextParityTest {
    private static final String[] WORDS = {
        "deploy", "deploys", "deployed", "deploying", "deployment", "migration", "migrations", "database", "kafka",
        "Tuesday", "tuesdays", "the", "and", "of", "it", "is", "was", "don't", "can't", "1990s", "v2", "x86_64",
        "3rd", "café", "Résumé", "naïve", "Zürich", "São", "Paulo", "straße", "Großartige", "kıyafet", "İstanbul",
        "Ωmega", "µs", "東京", "データ", "привет", "мир", "rollback", "rolled", "roller", "happiness", "happy",
        "generalization", "general", "relational", "conditional", "hopeful", "hopefulness", "ies", "sses", "eed",
        "agreed", "sky", "skies", "flies", "flying", "agreement", "Caroline's", "support", "group", "ALL-CAPS",
        "e-mail", "C++", "node.js", "#hashtag", "@mention", "50%", "$12", "12:30", "2023-05-20", "a", "I", "me",
        "AbCdEfGhIjKlMnOpQrStUvWxYzAbCdEfGhIjKlMnOpQrStUvWxYzAbCdEfGhIjKlMnOpQrSt",
    };

    @TempDir
    Path dir;

    @Test
    void ranksAsFts5Does_beforeAndAfterChanges() throws SQLException {
        Random random = new Random(7);
        try (SqliteMemoryStore store = SqliteMemoryStore.open(dir.resolve("parity.db"))) {
            List<Memory> memories = new ArrayList<>();
            for (int i = 0; i < 1500; i++) {
                memories.add(memory("m" + i, sentence(random, 3 + random.nextInt(40))));
            }
            store.upsertAll(memories);
            assertParity(store, random);

            List<Memory> replaced = new ArrayList<>();
            List<String> deleted = new ArrayList<>();
            for (int i = 0; i < 1500; i++) {
                int roll = random.nextInt(10);
                if (roll < 2) {
                    replaced.add(memory("m" + i, sentence(random, 1 + random.nextInt(30))));
                } else if (roll < 6) {
                    deleted.add("m" + i);
                }
            }
            store.upsertAll(replaced);
            store.deleteAll(Memory.DEFAULT_NAMESPACE, deleted);
            assertThat(store.count(Memory.DEFAULT_NAMESPACE)).isEqualTo(1500L - deleted.size());
            assertParity(store, random);
        }
    }

    @Test
    void aNamespaceRanksTheSame_whateverOthersHold() {
        Random random = new Random(11);
        List<Memory> own = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            own.add(memory("m" + i, sentence(random, 5 + random.nextInt(20))));
        }
        try (SqliteMemoryStore alone = SqliteMemoryStore.open(dir.resolve("alone.db"));
                SqliteMemoryStore shared = SqliteMemoryStore.open(dir.resolve("shared.db"))) {
            alone.upsertAll(own);
            shared.upsertAll(own);
            List<Memory> others = new ArrayList<>();
            for (int i = 0; i < 2000; i++) {
                others.add(Memory.builder("deploy deploy kafka " + sentence(random, 10)).id("o" + i)
                        .namespace("other-" + (i % 20)).createdAt(Instant.EPOCH).build());
            }
            shared.upsertAll(others);
            for (String query : List.of("deploy kafka", "migration on tuesday", "café straße", "rollback happiness")) {
                assertThat(shared.searchLexical(Memory.DEFAULT_NAMESPACE, query, 50)).as(query)
                        .isEqualTo(alone.searchLexical(Memory.DEFAULT_NAMESPACE, query, 50))
                        .isNotEmpty();
            }
        }
    }

    /** Compares the store's search with FTS5's over an FTS5 table of the namespace's memories as they are now. */
    private static void assertParity(SqliteMemoryStore store, Random random) throws SQLException {
        List<String> queries = new ArrayList<>(List.of("deploy deploys", "the and of", "ies sses eed", "kıyafet",
                "İstanbul straße café", "1990s v2 3rd", "Caroline's support group", "\"NEAR\" (AND) OR*"));
        for (int i = 0; i < 150; i++) {
            queries.add(sentence(random, 1 + random.nextInt(8)));
        }
        int compared = 0;
        try (Connection c = fts5Of(store)) {
            for (String query : queries) {
                List<LexicalHit> expected = fts5(c, query, 40);
                List<LexicalHit> actual = store.searchLexical(Memory.DEFAULT_NAMESPACE, query, 40);
                assertThat(actual).as(query).hasSameSizeAs(expected);
                for (int h = 0; h < actual.size(); h++) {
                    assertThat(actual.get(h).score()).as(query)
                            .isCloseTo(expected.get(h).score(), within(expected.get(h).score() * 1e-12));
                }
                assertThat(inOrder(actual)).as(query).isEqualTo(inOrder(expected));
                compared += expected.size();
            }
        }
        assertThat(compared).as("hits compared").isGreaterThan(2000);
    }

    /**
     * The hits' ids by score to 10 significant digits, then id, leaving out those tied with the last (which a limit
     * may cut differently): Java's {@code Math.log} and the C library's may differ in the last bit, so a score may
     * differ by 10⁻¹⁶ of itself from FTS5's, and two memories FTS5 scores one bit apart may come in either order.
     */
    private static List<String> inOrder(List<LexicalHit> hits) {
        if (hits.isEmpty()) {
            return List.of();
        }
        String last = "%.10e".formatted(hits.get(hits.size() - 1).score());
        return hits.stream().filter(h -> !"%.10e".formatted(h.score()).equals(last))
                .sorted(Comparator.comparingDouble((LexicalHit h) -> -Double.parseDouble("%.10e".formatted(h.score())))
                        .thenComparing(LexicalHit::memoryId))
                .map(LexicalHit::memoryId).toList();
    }

    /** A database in memory with an FTS5 table ({@code porter unicode61}) of the namespace's memories. */
    private static Connection fts5Of(SqliteMemoryStore store) throws SQLException {
        List<Memory> memories = new ArrayList<>();
        store.forEach(Memory.DEFAULT_NAMESPACE, MemoryFilter.all(), memories::add);
        Connection c = DriverManager.getConnection("jdbc:sqlite::memory:");
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE memories (rowid INTEGER PRIMARY KEY, id TEXT NOT NULL)");
            s.execute("CREATE VIRTUAL TABLE memories_fts USING fts5(text, tokenize='porter unicode61')");
        }
        try (PreparedStatement row = c.prepareStatement("INSERT INTO memories (rowid, id) VALUES (?, ?)");
                PreparedStatement text = c.prepareStatement("INSERT INTO memories_fts (rowid, text) VALUES (?, ?)")) {
            for (int i = 0; i < memories.size(); i++) {
                row.setInt(1, i + 1);
                row.setString(2, memories.get(i).id());
                row.executeUpdate();
                text.setInt(1, i + 1);
                text.setString(2, memories.get(i).text());
                text.executeUpdate();
            }
        } catch (SQLException e) {
            c.close();
            throw e;
        }
        return c;
    }

    /** What SQLite's FTS5 ranks first, scores negated to be higher for better matches. */
    private static List<LexicalHit> fts5(Connection c, String query, int limit) throws SQLException {
        String match = FtsQuery.of(query);
        List<LexicalHit> hits = new ArrayList<>();
        if (match.isEmpty()) {
            return hits;
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT m.id, bm25(memories_fts) AS b FROM memories_fts"
                + " JOIN memories m ON m.rowid = memories_fts.rowid WHERE memories_fts MATCH ? ORDER BY b, m.id"
                + " LIMIT ?")) {
            ps.setString(1, match);
            ps.setInt(2, limit);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    hits.add(new LexicalHit(rs.getString(1), -rs.getDouble(2)));
                }
            }
        }
        return hits;
    }

    private static String sentence(Random random, int words) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < words; i++) {
            s.append(i == 0 ? "" : random.nextInt(6) == 0 ? ", " : " ").append(WORDS[random.nextInt(WORDS.length)]);
        }
        return s.append('.').toString();
    }

    private static Memory memory(String id, String text) {
        return Memory.builder(text).id(id).createdAt(Instant.EPOCH).build();
    }
}
