package dev.memfas.cli;

import dev.memfas.Memory;
import dev.memfas.Scope;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import tools.jackson.core.json.JsonWriteFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Memories to and from the two export formats, exactly: a JSON line per memory, or a Markdown file per memory with
 * every field in its front matter and the text as the body. A memory written and read back equals the original
 * (times to the nanosecond, text to the code unit).
 *
 * <p>Front matter values are written as JSON, which is YAML too, so a person may edit them with YAML's freedom and
 * the file still reads. Unknown keys, wrong types and malformed values are errors that name the key.
 */
final class MemoryTransfer {
    /** Non-ASCII as {@code \\uXXXX}: a lone surrogate survives, where UTF-8 output would replace it. */
    private static final JsonMapper JSON = JsonMapper.builder().enable(JsonWriteFeature.ESCAPE_NON_ASCII).build();
    static final Set<String> KEYS = Set.of("id", "namespace", "text", "source", "kind", "scope", "tags", "author",
            "created_at", "updated_at", "pinned", "importance", "metadata", "expires_at", "valid_from", "valid_until",
            "supersedes", "superseded_by", "archived_at", "recorded_at");
    private static final String FENCE = "---";

    private MemoryTransfer() {}

    /** One line of JSON, without the newline. */
    static String toJsonLine(Memory m) {
        return JSON.writeValueAsString(Output.memory(m));
    }

    /**
     * A memory from one JSON line.
     *
     * @param where the file and line, for error messages
     * @throws IllegalArgumentException naming {@code where} and the problem
     */
    @SuppressWarnings("unchecked")
    static Memory fromJsonLine(String line, String where) {
        Object value;
        try {
            value = JSON.readValue(line, Object.class);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(where + ": not a JSON object: " + MemoryFiles.firstLine(e.getMessage()));
        }
        if (!(value instanceof Map<?, ?> map)) {
            throw new IllegalArgumentException(where + ": not a JSON object");
        }
        return fromFields((Map<String, Object>) map, null, where);
    }

    /**
     * The memory as a Markdown file: front matter with every field but the text, then the text. A text that UTF-8
     * cannot hold exactly (a lone surrogate) goes in the front matter instead, with an empty body.
     */
    static String toMarkdown(Memory m) {
        Map<String, Object> fields = Output.memory(m);
        boolean inBody = !hasLoneSurrogate(m.text());
        if (inBody) {
            fields.remove("text");
        }
        StringBuilder sb = new StringBuilder(FENCE).append('\n');
        fields.forEach((key, value) -> {
            if (value != null) {
                sb.append(key).append(": ").append(JSON.writeValueAsString(value)).append('\n');
            }
        });
        sb.append(FENCE).append('\n');
        if (inBody) {
            sb.append(m.text());
        }
        return sb.toString();
    }

    /**
     * A memory from a Markdown file written by {@link #toMarkdown} (or by hand in the same form).
     *
     * @throws IllegalArgumentException naming {@code where} and the problem
     */
    @SuppressWarnings("unchecked")
    static Memory fromMarkdown(String file, String where) {
        String body = file.startsWith("\uFEFF") ? file.substring(1) : file;
        if (!body.startsWith(FENCE + "\n") && !body.startsWith(FENCE + "\r\n")) {
            throw new IllegalArgumentException(where + ": no front matter (the file must start with a '---' line)");
        }
        int start = body.indexOf('\n') + 1;
        int end = -1;
        int pos = start;
        while (pos < body.length()) {
            int eol = body.indexOf('\n', pos);
            String line = (eol < 0 ? body.substring(pos) : body.substring(pos, eol));
            if (line.equals(FENCE) || line.equals(FENCE + "\r")) {
                end = pos;
                break;
            }
            if (eol < 0) {
                break;
            }
            pos = eol + 1;
        }
        if (end < 0) {
            throw new IllegalArgumentException(where + ": front matter opened with '---' is never closed");
        }
        Object parsed;
        try {
            parsed = new Load(LoadSettings.builder().setAllowDuplicateKeys(false).build())
                    .loadFromString(body.substring(start, end));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(where + ": malformed front matter: "
                    + MemoryFiles.firstLine(e.getMessage()));
        }
        if (!(parsed instanceof Map<?, ?> map)) {
            throw new IllegalArgumentException(where + ": front matter is not a set of 'key: value' lines");
        }
        int bodyStart = body.indexOf('\n', end);
        String text = bodyStart < 0 ? "" : body.substring(bodyStart + 1);
        return fromFields((Map<String, Object>) map, text, where);
    }

    private static Memory fromFields(Map<String, Object> fields, String bodyText, String where) {
        for (Object key : ((Map<?, ?>) fields).keySet()) {
            // YAML keys may be anything (true, 12, a list): found by fuzzing, where a cast to String failed.
            if (!(key instanceof String) || !KEYS.contains(key)) {
                throw new IllegalArgumentException(where + ": unknown key '" + key + "' (known: "
                        + new java.util.TreeSet<>(KEYS) + ")");
            }
        }
        String text = string(fields, "text", where);
        if (text == null) {
            text = bodyText;
        } else if (bodyText != null && !bodyText.isEmpty()) {
            throw new IllegalArgumentException(where + ": the text is both in the front matter and the body");
        }
        if (text == null) {
            throw new IllegalArgumentException(where + ": missing required key 'text'");
        }
        try {
            Memory.Builder b = Memory.builder(text);
            b.id(string(fields, "id", where));
            ifPresent(string(fields, "namespace", where), b::namespace);
            ifPresent(string(fields, "source", where), b::source);
            ifPresent(string(fields, "kind", where), b::kind);
            String scope = string(fields, "scope", where);
            if (scope != null) {
                b.scope(Scope.parse(scope));
            }
            b.tags(strings(fields, "tags", where));
            b.author(string(fields, "author", where));
            b.createdAt(instant(fields, "created_at", where));
            b.updatedAt(instant(fields, "updated_at", where));
            Object pinned = fields.get("pinned");
            if (pinned != null) {
                if (!(pinned instanceof Boolean p)) {
                    throw new IllegalArgumentException(where + ": 'pinned' must be true or false: " + pinned);
                }
                b.pinned(p);
            }
            Object importance = fields.get("importance");
            if (importance != null) {
                if (!(importance instanceof Number n)) {
                    throw new IllegalArgumentException(where + ": 'importance' must be a number: " + importance);
                }
                b.importance(n.doubleValue());
            }
            b.metadata(metadata(fields, where));
            b.expiresAt(instant(fields, "expires_at", where));
            b.validFrom(instant(fields, "valid_from", where));
            b.validUntil(instant(fields, "valid_until", where));
            b.supersedes(strings(fields, "supersedes", where));
            b.supersededBy(string(fields, "superseded_by", where));
            b.archivedAt(instant(fields, "archived_at", where));
            b.recordedAt(instant(fields, "recorded_at", where));
            return b.build();
        } catch (IllegalArgumentException | NullPointerException e) {
            String message = e.getMessage();
            throw new IllegalArgumentException(message != null && message.startsWith(where) ? message
                    : where + ": " + message);
        }
    }

    private static <T> void ifPresent(T value, java.util.function.Consumer<T> action) {
        if (value != null) {
            action.accept(value);
        }
    }

    private static String string(Map<String, Object> fields, String key, String where) {
        Object v = fields.get(key);
        if (v == null) {
            return null;
        }
        if (!(v instanceof String s)) {
            throw new IllegalArgumentException(where + ": '" + key + "' must be a string: " + v);
        }
        return s;
    }

    private static List<String> strings(Map<String, Object> fields, String key, String where) {
        Object v = fields.get(key);
        if (v == null) {
            return List.of();
        }
        if (!(v instanceof List<?> list)) {
            throw new IllegalArgumentException(where + ": '" + key + "' must be a list of strings: " + v);
        }
        List<String> out = new ArrayList<>();
        for (Object o : list) {
            if (!(o instanceof String s)) {
                throw new IllegalArgumentException(where + ": '" + key + "' must be a list of strings: " + v);
            }
            out.add(s);
        }
        return out;
    }

    private static Map<String, String> metadata(Map<String, Object> fields, String where) {
        Object v = fields.get("metadata");
        if (v == null) {
            return Map.of();
        }
        if (!(v instanceof Map<?, ?> map)) {
            throw new IllegalArgumentException(where + ": 'metadata' must be a mapping of strings: " + v);
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : map.entrySet()) {
            if (!(e.getKey() instanceof String k) || !(e.getValue() instanceof String value)) {
                throw new IllegalArgumentException(where + ": 'metadata' must be a mapping of strings: " + v);
            }
            out.put(k, value);
        }
        return out;
    }

    private static Instant instant(Map<String, Object> fields, String key, String where) {
        String s = string(fields, key, where);
        if (s == null) {
            return null;
        }
        try {
            return Instant.parse(s);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(where + ": '" + key + "' must be an ISO-8601 instant such as"
                    + " 2026-11-24T09:30:00Z: '" + s + "'");
        }
    }

    private static boolean hasLoneSurrogate(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c)) {
                if (i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                    i++;
                } else {
                    return true;
                }
            } else if (Character.isLowSurrogate(c)) {
                return true;
            }
        }
        return false;
    }
}
