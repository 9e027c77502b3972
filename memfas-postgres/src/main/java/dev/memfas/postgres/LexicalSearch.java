package dev.memfas.postgres;

import dev.memfas.spi.LexicalHit;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * BM25 over PostgreSQL's text search, in one statement. The query's words become lexemes as the memories' text did
 * ({@code to_tsvector('english', …)}: stemmed, stop words dropped); the GIN index finds the memories holding any of
 * them; each is scored by Okapi BM25 (k1 = 1.2, b = 0.75, and SQLite FTS5's idf, so that the two stores rank alike)
 * from the term frequencies in its tsvector, its length in lexemes, and the namespace's counts kept by every write.
 *
 * <p>The query is data: its lexemes are quoted into the tsquery ({@code 'lexeme'}, quotes doubled, backslashes
 * escaped) and every value is bound, so no text can be read as an operator.
 */
final class LexicalSearch {
    private static final double K1 = 1.2;
    private static final double B = 0.75;
    /** How much of a query is read: far beyond any question, and it bounds the work of a hostile one. */
    static final int QUERY_CHARS = 10_000;

    /*
     * Each part MATERIALIZED, so that the planner (which cannot estimate a CTE's rows) finds the memories through the
     * GIN index and joins the rest by hash. Of each memory found only the query's lexemes are unnested (setweight marks
     * them, ts_filter keeps them): on 20,000 memories where the query's words are in 18,000, 69 ms where unnesting
     * every lexeme of every memory and letting the planner choose took 171 ms.
     */
    private static final String SQL = """
            WITH q AS MATERIALIZED (
                SELECT lexemes, array_to_string(ARRAY(
                    SELECT '''' || replace(replace(l, '\\', '\\\\'), '''', '''''') || '''' FROM unnest(lexemes) AS l),
                    ' | ')::tsquery AS query
                FROM (SELECT tsvector_to_array(to_tsvector('english', ?::text)) AS lexemes) AS words
                WHERE cardinality(lexemes) > 0),
            stats AS MATERIALIZED (
                SELECT memories::float8 AS n, greatest(lexemes::float8 / greatest(memories, 1), 1) AS avg_length
                FROM memfas_namespace_stats WHERE namespace = ?),
            terms AS MATERIALIZED (
                SELECT m.id, m.lexeme_count, t.lexeme, cardinality(t.positions) AS tf
                FROM memfas_memories m CROSS JOIN q
                CROSS JOIN LATERAL unnest(ts_filter(setweight(m.lexemes, 'A', q.lexemes), '{a}')) AS t
                WHERE m.namespace = ? AND m.lexemes @@ q.query),
            idf AS MATERIALIZED (
                SELECT lexeme, greatest(ln((stats.n - count(*) + 0.5) / (count(*) + 0.5)), 1e-6) AS idf
                FROM terms, stats GROUP BY lexeme, stats.n)
            SELECT terms.id, sum(idf.idf * terms.tf * (%1$s + 1)
                    / (terms.tf + %1$s * (1 - %2$s + %2$s * terms.lexeme_count / stats.avg_length))) AS score
            FROM terms JOIN idf USING (lexeme) CROSS JOIN stats
            GROUP BY terms.id ORDER BY score DESC, terms.id LIMIT ?""".formatted(K1, B);

    private LexicalSearch() {}

    static List<LexicalHit> search(Connection c, String namespace, String query, int limit) throws SQLException {
        String text = Codec.searchable(query.length() > QUERY_CHARS ? query.substring(0, QUERY_CHARS) : query);
        List<LexicalHit> hits = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(SQL)) {
            ps.setString(1, text);
            ps.setString(2, namespace);
            ps.setString(3, namespace);
            ps.setInt(4, limit);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    double score = rs.getDouble(2);
                    if (score > 0 && Double.isFinite(score)) {
                        hits.add(new LexicalHit(rs.getString(1), score));
                    }
                }
            }
        }
        return hits;
    }
}
