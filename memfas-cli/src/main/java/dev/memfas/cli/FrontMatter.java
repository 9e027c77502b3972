package dev.memfas.cli;

import dev.memfas.Scope;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/** The fields of a note's YAML front matter that memfas reads; unknown fields are ignored. */
record FrontMatter(String id, String author, Instant date, List<String> tags, Scope scope, String kind,
        boolean pinned) {
    static final FrontMatter NONE = new FrontMatter(null, null, null, List.of(), null, null, false);

    static FrontMatter parse(String yaml) throws MemoryFiles.BadFileException {
        Object root;
        try {
            root = new Load(LoadSettings.builder().setAllowDuplicateKeys(false).build()).loadFromString(yaml);
        } catch (RuntimeException e) {
            throw new MemoryFiles.BadFileException("malformed front matter: " + MemoryFiles.firstLine(e.getMessage()));
        }
        if (root == null) {
            return NONE;
        }
        if (!(root instanceof Map<?, ?> map)) {
            throw new MemoryFiles.BadFileException("front matter must be a mapping of fields, not " + describe(root));
        }
        Map<String, Object> fields = new HashMap<>();
        map.forEach((k, v) -> fields.put(String.valueOf(k), v));
        try {
            return of(fields);
        } catch (IllegalArgumentException e) {
            throw new MemoryFiles.BadFileException("front matter: " + e.getMessage());
        }
    }

    static FrontMatter of(Map<String, Object> fields) {
        String id = text(fields, "id");
        String author = text(fields, "author");
        if (author == null) {
            author = text(fields, "user");
        }
        Instant date = date(fields.containsKey("date") ? fields.get("date")
                : fields.containsKey("created_at") ? fields.get("created_at") : fields.get("createdAt"));
        List<String> tags = new ArrayList<>();
        Object t = fields.get("tags");
        if (t instanceof List<?> list) {
            list.forEach(x -> tags.add(String.valueOf(x)));
        } else if (t != null) {
            for (String s : String.valueOf(t).split(",")) {
                if (!s.isBlank()) {
                    tags.add(s.strip());
                }
            }
        }
        String scopeText = text(fields, "scope");
        Scope scope = scopeText == null ? null : Scope.parse(scopeText);
        String kind = text(fields, "kind");
        Object p = fields.get("pinned");
        boolean pinned;
        if (p == null) {
            pinned = false;
        } else if (p instanceof Boolean b) {
            pinned = b;
        } else if (String.valueOf(p).equalsIgnoreCase("true") || String.valueOf(p).equalsIgnoreCase("false")) {
            pinned = Boolean.parseBoolean(String.valueOf(p));
        } else {
            throw new IllegalArgumentException("pinned must be true or false: '" + p + "'");
        }
        return new FrontMatter(id, author, date, List.copyOf(tags), scope, kind, pinned);
    }

    private static String text(Map<String, Object> fields, String key) {
        Object v = fields.get(key);
        if (v == null) {
            return null;
        }
        if (v instanceof Map || v instanceof List) {
            throw new IllegalArgumentException(key + " must be a single value, not " + describe(v));
        }
        String s = String.valueOf(v).strip();
        return s.isEmpty() ? null : s;
    }

    private static Instant date(Object v) {
        if (v == null) {
            return null;
        }
        if (v instanceof Date d) {
            return d.toInstant();
        }
        if (v instanceof java.time.temporal.TemporalAccessor ta) {
            try {
                return Instant.from(ta);
            } catch (RuntimeException e) {
                return LocalDate.from(ta).atStartOfDay(ZoneOffset.UTC).toInstant();
            }
        }
        String s = String.valueOf(v).strip();
        try {
            if (s.length() == 10) {
                return LocalDate.parse(s).atStartOfDay(ZoneOffset.UTC).toInstant();
            }
            return OffsetDateTime.parse(s).toInstant();
        } catch (DateTimeParseException e) {
            try {
                return Instant.parse(s);
            } catch (DateTimeParseException e2) {
                throw new IllegalArgumentException(
                        "date must be YYYY-MM-DD or an ISO-8601 date-time: '" + s + "'");
            }
        }
    }

    private static String describe(Object v) {
        return v instanceof Map ? "a mapping" : v instanceof List ? "a list" : "'" + v + "'";
    }
}
