package dev.memfas.cli;

import dev.memfas.Memory;
import dev.memfas.spi.StoredMemory;
import java.io.PrintWriter;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;

/** How commands print: memories as JSON objects for {@code --json}, dates for people, the empty-store note. */
final class Output {
    static final JsonMapper JSON = JsonMapper.builder().build();
    private static final DateTimeFormatter DAY = DateTimeFormatter.ISO_LOCAL_DATE.withZone(ZoneOffset.UTC);

    private Output() {}

    /** One line of JSON. */
    static void json(PrintWriter out, Object value) {
        out.println(JSON.writeValueAsString(value));
    }

    /** The day a memory is about, {@code YYYY-MM-DD} in UTC. */
    static String day(Instant t) {
        return t == null ? "-" : DAY.format(t);
    }

    /** Every field of a memory, in a fixed order, with times as ISO-8601 instants (exact to the nanosecond). */
    static Map<String, Object> memory(Memory m) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", m.id());
        out.put("namespace", m.namespace());
        out.put("text", m.text());
        out.put("source", m.source());
        out.put("kind", m.kind());
        out.put("scope", m.scope().toString());
        out.put("tags", m.tags());
        out.put("author", m.author());
        out.put("created_at", m.createdAt() == null ? null : m.createdAt().toString());
        out.put("updated_at", m.updatedAt() == null ? null : m.updatedAt().toString());
        out.put("pinned", m.pinned());
        out.put("importance", m.importance());
        out.put("metadata", new java.util.TreeMap<>(m.metadata()));
        out.put("expires_at", m.expiresAt() == null ? null : m.expiresAt().toString());
        out.put("valid_from", m.validFrom() == null ? null : m.validFrom().toString());
        out.put("valid_until", m.validUntil() == null ? null : m.validUntil().toString());
        out.put("supersedes", m.supersedes());
        out.put("superseded_by", m.supersededBy());
        out.put("archived_at", m.archivedAt() == null ? null : m.archivedAt().toString());
        out.put("recorded_at", m.recordedAt() == null ? null : m.recordedAt().toString());
        return out;
    }

    /** A stored memory: its fields and its access statistics. */
    static Map<String, Object> stored(StoredMemory s) {
        Map<String, Object> out = memory(s.memory());
        out.put("access_count", s.accessCount());
        out.put("last_accessed_at", s.lastAccessedAt() == null ? null : s.lastAccessedAt().toString());
        out.put("evidence_count", s.evidenceCount());
        return out;
    }

    /** Says that the store holds nothing yet, and which commands fill it. */
    static void emptyStore(PrintWriter out, String db) {
        out.println("the store at " + db + " holds no memories yet: 'memfas index PATH...' indexes memory files,"
                + " 'memfas remember TEXT' stores one memory");
    }
}
