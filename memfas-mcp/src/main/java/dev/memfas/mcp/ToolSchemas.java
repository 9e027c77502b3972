package dev.memfas.mcp;

import dev.memfas.Memory;
import dev.memfas.spi.StoredMemory;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON Schema pieces for the tools' input and output, and the one structured form of a memory every tool that returns
 * memories uses. Clients check {@code structuredContent} against {@code outputSchema}, so the two are built side by
 * side here.
 */
final class ToolSchemas {
    private ToolSchemas() {}

    static Map<String, Object> object(Map<String, Object> properties, List<String> required) {
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("type", "object");
        schema.put("properties", new LinkedHashMap<>(properties));
        schema.put("required", required);
        schema.put("additionalProperties", false);
        return schema;
    }

    /** An output object: every property is always present. */
    static Map<String, Object> output(Map<String, Object> properties) {
        return object(properties, List.copyOf(properties.keySet()));
    }

    static Map<String, Object> prop(String type, String description) {
        return Map.of("type", type, "description", description);
    }

    static Map<String, Object> type(String type) {
        return Map.of("type", type);
    }

    static Map<String, Object> nullable(String type) {
        return Map.of("type", List.of(type, "null"));
    }

    static Map<String, Object> arrayOf(Map<String, Object> items) {
        return Map.of("type", "array", "items", items);
    }

    static Map<String, Object> strings(String description) {
        return Map.of("type", "array", "items", Map.of("type", "string"), "description", description);
    }

    /** The schema of {@link #memory(StoredMemory)}. */
    static Map<String, Object> memorySchema() {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("memory_id", type("string"));
        p.put("namespace", type("string"));
        p.put("text", type("string"));
        p.put("source", type("string"));
        p.put("kind", type("string"));
        p.put("scope", type("string"));
        p.put("tags", arrayOf(type("string")));
        p.put("author", nullable("string"));
        p.put("created_at", type("string"));
        p.put("updated_at", type("string"));
        p.put("pinned", type("boolean"));
        p.put("importance", type("number"));
        p.put("metadata", Map.of("type", "object", "additionalProperties", type("string")));
        p.put("expires_at", nullable("string"));
        p.put("valid_from", nullable("string"));
        p.put("valid_until", nullable("string"));
        p.put("supersedes", arrayOf(type("string")));
        p.put("superseded_by", nullable("string"));
        p.put("archived_at", nullable("string"));
        p.put("recorded_at", nullable("string"));
        p.put("access_count", nullable("integer"));
        p.put("evidence_count", nullable("integer"));
        return output(p);
    }

    /** A memory as structured content; {@code access_count} is null where the caller did not read it. */
    static Map<String, Object> memory(Memory m, Long accessCount) {
        return memory(m, accessCount, null);
    }

    /** A memory as structured content; the counts are null where the caller did not read them. */
    static Map<String, Object> memory(Memory m, Long accessCount, Long evidenceCount) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("memory_id", m.id());
        out.put("namespace", m.namespace());
        out.put("text", m.text());
        out.put("source", m.source());
        out.put("kind", m.kind());
        out.put("scope", m.scope().toString());
        out.put("tags", m.tags());
        out.put("author", m.author());
        out.put("created_at", m.createdAt().toString());
        out.put("updated_at", m.updatedAt().toString());
        out.put("pinned", m.pinned());
        out.put("importance", m.importance());
        out.put("metadata", m.metadata());
        out.put("expires_at", m.expiresAt() == null ? null : m.expiresAt().toString());
        out.put("valid_from", m.validFrom() == null ? null : m.validFrom().toString());
        out.put("valid_until", m.validUntil() == null ? null : m.validUntil().toString());
        out.put("supersedes", m.supersedes());
        out.put("superseded_by", m.supersededBy());
        out.put("archived_at", m.archivedAt() == null ? null : m.archivedAt().toString());
        out.put("recorded_at", m.recordedAt() == null ? null : m.recordedAt().toString());
        out.put("access_count", accessCount);
        out.put("evidence_count", evidenceCount);
        return out;
    }

    static Map<String, Object> memory(StoredMemory s) {
        return memory(s.memory(), s.accessCount(), s.evidenceCount());
    }
}
