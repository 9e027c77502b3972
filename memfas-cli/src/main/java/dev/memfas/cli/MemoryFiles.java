package dev.memfas.cli;

import dev.memfas.Memory;
import dev.memfas.Scope;
import dev.memfas.Tokenizer;
import dev.memfas.core.Memfas;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Turns memory files into memories: Markdown chunked by headings (long sections split at paragraphs with overlap),
 * optional YAML front matter, daily logs named {@code YYYY-MM-DD.md}, plain text, and JSON / JSON Lines.
 *
 * <p>Chunk ids are derived from the file, the section and the text, so re-indexing an unchanged chunk gives the same
 * id; a front-matter {@code id} names the chunks of its file instead.
 */
final class MemoryFiles {
    /** The metadata key that records which file a memory came from. */
    static final String FILE_KEY = "file";
    private static final Pattern HEADING = Pattern.compile("^(#{1,6})\\s+(.+?)\\s*#*\\s*$");
    private static final Pattern FENCE = Pattern.compile("^\\s*(```|~~~)");
    /** A date in a file name: {@code 2026-11-17.md}, {@code 2026-11-17-standup.md}, {@code notes-2026-11-17.md}. */
    private static final Pattern DATED_NAME = Pattern.compile("(?<![0-9])(\\d{4}-\\d{2}-\\d{2})(?![0-9])");
    /** A date in the folders a file is in: {@code journal/2026/11/17/standup.md}. */
    private static final Pattern DATED_FOLDERS = Pattern.compile("(?:^|/)(\\d{4})/(\\d{2})/(\\d{2})/[^/]+$");
    private static final Tokenizer TOKENIZER = Memfas.defaultTokenizer();
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final int targetTokens;
    private final int overlapTokens;

    MemoryFiles(int targetTokens, int overlapTokens) {
        if (targetTokens < 16) {
            throw new IllegalArgumentException("chunk target must be at least 16 tokens: " + targetTokens);
        }
        if (overlapTokens < 0 || overlapTokens >= targetTokens) {
            throw new IllegalArgumentException(
                    "chunk overlap must be in [0, target): " + overlapTokens + " (target " + targetTokens + ")");
        }
        this.targetTokens = targetTokens;
        this.overlapTokens = overlapTokens;
    }

    /** A file that cannot be turned into memories; the message says why, for the user. */
    static final class BadFileException extends Exception {
        BadFileException(String message) {
            super(message);
        }
    }

    /**
     * The memories of one file.
     *
     * @param fileKey how the file is named in the store (relative path when under the working directory)
     * @param fileName the file's own name, which decides the format
     * @param text the file's content
     * @param now the time given to memories with no date of their own: the file's last-modified time
     */
    List<Memory> parse(String fileKey, String fileName, String text, Instant now) throws BadFileException {
        String lower = fileName.toLowerCase(Locale.ROOT);
        if (lower.endsWith(".json")) {
            return parseJson(fileKey, text, now, false);
        }
        if (lower.endsWith(".jsonl")) {
            return parseJson(fileKey, text, now, true);
        }
        FrontMatter meta = FrontMatter.NONE;
        String body = text.startsWith("\uFEFF") ? text.substring(1) : text;
        if (body.startsWith("---\n") || body.startsWith("---\r\n")) {
            int end = findFrontMatterEnd(body);
            if (end < 0) {
                throw new BadFileException("front matter opened with '---' is never closed");
            }
            meta = FrontMatter.parse(body.substring(body.indexOf('\n') + 1, end));
            body = body.substring(body.indexOf('\n', end) + 1);
        }
        // Front matter's date wins, then a date in the file's name or folders, then the file's own time.
        Instant created = meta.date != null ? meta.date : dateOf(fileKey, fileName);
        List<String[]> sections = lower.endsWith(".md") || lower.endsWith(".markdown")
                ? markdownSections(body)
                : List.<String[]>of(new String[] {"", body});
        List<Memory> out = new ArrayList<>();
        Map<String, Integer> seen = new HashMap<>();
        for (String[] section : sections) {
            for (String chunk : split(section[1])) {
                String source = section[0].isEmpty() ? fileKey : fileKey + " > " + section[0];
                String base = hash(fileKey + "\n" + section[0] + "\n" + chunk);
                int n = seen.merge(base, 1, Integer::sum);
                out.add(build(chunk, source, fileKey, meta, created == null ? now : created,
                        n == 1 ? "f-" + base : "f-" + base + "-" + n));
            }
        }
        if (meta.id != null) {
            for (int i = 0; i < out.size(); i++) {
                String id = out.size() == 1 ? meta.id : meta.id + "#" + (i + 1);
                out.set(i, out.get(i).toBuilder().id(id).build());
            }
        }
        return out;
    }

    /**
     * The date a file's name or folders give it, at the start of that day in UTC, or null.
     *
     * @throws BadFileException if what looks like a date is not one (2026-02-30)
     */
    static Instant dateOf(String fileKey, String fileName) throws BadFileException {
        String day = null;
        Matcher named = DATED_NAME.matcher(fileName);
        if (named.find()) {
            day = named.group(1);
        } else {
            Matcher folders = DATED_FOLDERS.matcher(fileKey.replace('\\', '/'));
            if (folders.find()) {
                day = folders.group(1) + "-" + folders.group(2) + "-" + folders.group(3);
            }
        }
        if (day == null) {
            return null;
        }
        try {
            return LocalDate.parse(day).atStartOfDay(ZoneOffset.UTC).toInstant();
        } catch (DateTimeParseException e) {
            throw new BadFileException("the file's name or folders look like a date but are not one: " + day);
        }
    }

    private static int findFrontMatterEnd(String body) {
        int pos = body.indexOf('\n') + 1;
        while (pos < body.length()) {
            int eol = body.indexOf('\n', pos);
            String line = (eol < 0 ? body.substring(pos) : body.substring(pos, eol)).stripTrailing();
            if (line.equals("---") || line.equals("...")) {
                return pos;
            }
            if (eol < 0) {
                return -1;
            }
            pos = eol + 1;
        }
        return -1;
    }

    private static Memory build(String text, String source, String fileKey, FrontMatter meta, Instant created,
            String id) {
        Memory.Builder b = Memory.builder(text).id(id).source(truncate(source, 1000)).createdAt(created)
                .metadata(FILE_KEY, fileKey);
        if (meta.kind != null) {
            b.kind(meta.kind);
        }
        if (meta.author != null) {
            b.author(meta.author);
        }
        if (meta.scope != null) {
            b.scope(meta.scope);
        }
        if (!meta.tags.isEmpty()) {
            b.tags(meta.tags);
        }
        if (meta.pinned) {
            b.pinned(true);
        }
        return b.build();
    }

    private static String truncate(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max);
    }

    /** Markdown sections as (heading path, body); headings inside fenced code do not count. */
    static List<String[]> markdownSections(String body) {
        List<String[]> sections = new ArrayList<>();
        String[] path = new String[7];
        StringBuilder current = new StringBuilder();
        String currentPath = "";
        boolean inFence = false;
        for (String line : body.split("\r?\n", -1)) {
            if (FENCE.matcher(line).find()) {
                inFence = !inFence;
            }
            Matcher h = inFence ? null : HEADING.matcher(line);
            if (h != null && h.matches()) {
                sections.add(new String[] {currentPath, current.toString()});
                current.setLength(0);
                int level = h.group(1).length();
                path[level] = h.group(2).strip();
                for (int i = level + 1; i < path.length; i++) {
                    path[i] = null;
                }
                List<String> parts = new ArrayList<>();
                for (int i = 1; i < path.length; i++) {
                    if (path[i] != null) {
                        parts.add(path[i]);
                    }
                }
                currentPath = String.join(" > ", parts);
            } else {
                current.append(line).append('\n');
            }
        }
        sections.add(new String[] {currentPath, current.toString()});
        sections.removeIf(s -> s[1].isBlank());
        return sections;
    }

    /** A section as chunks of about the target size, split at paragraphs, each starting with some overlap. */
    List<String> split(String section) {
        String text = section.strip();
        if (text.isEmpty()) {
            return List.of();
        }
        if (tokens(text) <= targetTokens) {
            return List.of(text);
        }
        List<String> pieces = new ArrayList<>();
        for (String paragraph : text.split("\\n\\s*\\n")) {
            String p = paragraph.strip();
            if (p.isEmpty()) {
                continue;
            }
            if (tokens(p) <= targetTokens) {
                pieces.add(p);
            } else {
                pieces.addAll(splitLong(p));
            }
        }
        List<String> chunks = new ArrayList<>();
        List<String> current = new ArrayList<>();
        int currentTokens = 0;
        for (String piece : pieces) {
            int t = tokens(piece);
            if (!current.isEmpty() && currentTokens + t > targetTokens) {
                chunks.add(String.join("\n\n", current));
                // Carry the last pieces that fit the overlap into the next chunk.
                List<String> carried = new ArrayList<>();
                int carriedTokens = 0;
                for (int i = current.size() - 1; i >= 0; i--) {
                    int ct = tokens(current.get(i));
                    if (carriedTokens + ct > overlapTokens || carriedTokens + ct + t > targetTokens) {
                        break;
                    }
                    carried.add(0, current.get(i));
                    carriedTokens += ct;
                }
                current = carried;
                currentTokens = carriedTokens;
            }
            current.add(piece);
            currentTokens += t;
        }
        if (!current.isEmpty()) {
            chunks.add(String.join("\n\n", current));
        }
        return chunks;
    }

    /** A paragraph longer than the target, cut at sentence ends, or at words when a sentence is itself too long. */
    private List<String> splitLong(String paragraph) {
        List<String> out = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String sentence : paragraph.split("(?<=[.!?])\\s+")) {
            List<String> parts = tokens(sentence) <= targetTokens ? List.of(sentence) : splitWords(sentence);
            for (String part : parts) {
                String candidate = current.length() == 0 ? part : current + " " + part;
                if (current.length() > 0 && tokens(candidate) > targetTokens) {
                    out.add(current.toString());
                    current.setLength(0);
                    current.append(part);
                } else {
                    current.setLength(0);
                    current.append(candidate);
                }
            }
        }
        if (current.length() > 0) {
            out.add(current.toString());
        }
        return out;
    }

    private List<String> splitWords(String sentence) {
        List<String> out = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String word : sentence.split("\\s+")) {
            if (current.length() > 0 && tokens(current + " " + word) > targetTokens) {
                out.add(current.toString());
                current.setLength(0);
            }
            if (tokens(word) > targetTokens) {
                // One "word" longer than a chunk (a URL, a base64 blob): cut by characters.
                int step = Math.max(1, targetTokens * 2);
                for (int i = 0; i < word.length(); i += step) {
                    out.add(word.substring(i, Math.min(word.length(), i + step)));
                }
                continue;
            }
            current.append(current.length() == 0 ? "" : " ").append(word);
        }
        if (current.length() > 0) {
            out.add(current.toString());
        }
        return out;
    }

    /** The token count of a text, as the curator counts it (lone surrogates included: found by fuzzing). */
    static int tokens(String text) {
        return TOKENIZER.count(text);
    }

    private List<Memory> parseJson(String fileKey, String text, Instant now, boolean lines) throws BadFileException {
        List<JsonNode> items = new ArrayList<>();
        try {
            if (lines) {
                int lineNo = 0;
                for (String line : text.split("\r?\n")) {
                    lineNo++;
                    if (line.isBlank()) {
                        continue;
                    }
                    try {
                        items.add(JSON.readTree(line));
                    } catch (RuntimeException e) {
                        throw new BadFileException("line " + lineNo + " is not JSON: " + firstLine(e.getMessage()));
                    }
                }
            } else {
                JsonNode root = JSON.readTree(text);
                JsonNode array = root.isArray() ? root : root.get("memories");
                if (array == null || !array.isArray()) {
                    throw new BadFileException("expected a JSON array of memories, or an object with a"
                            + " \"memories\" array");
                }
                array.forEach(items::add);
            }
        } catch (BadFileException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new BadFileException("not valid JSON: " + firstLine(e.getMessage()));
        }
        List<Memory> out = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            JsonNode item = items.get(i);
            String where = (lines ? "line item " : "item ") + (i + 1);
            if (item.isString()) {
                if (!item.asString().isBlank()) {
                    out.add(build(item.asString().strip(), fileKey, fileKey, FrontMatter.NONE, now,
                            "f-" + hash(fileKey + "\n" + i + "\n" + item.asString())));
                }
                continue;
            }
            if (!item.isObject() || !item.hasNonNull("text") || !item.get("text").isString()) {
                throw new BadFileException(where + " has no \"text\" string");
            }
            Map<String, Object> fields = new HashMap<>();
            for (String key : List.of("id", "author", "user", "date", "created_at", "createdAt", "scope", "kind",
                    "pinned", "tags")) {
                JsonNode v = item.get(key);
                if (v != null && !v.isNull()) {
                    fields.put(key, v.isArray() ? toList(v) : v.isBoolean() ? v.asBoolean() : v.asString());
                }
            }
            FrontMatter meta;
            try {
                meta = FrontMatter.of(fields);
            } catch (IllegalArgumentException e) {
                throw new BadFileException(where + ": " + e.getMessage());
            }
            String body = item.get("text").asString().strip();
            if (body.isEmpty()) {
                continue;
            }
            String source = item.hasNonNull("source") ? item.get("source").asString() : fileKey;
            String id = meta.id != null ? meta.id : "f-" + hash(fileKey + "\n" + i + "\n" + body);
            try {
                out.add(build(body, source, fileKey, meta, meta.date == null ? now : meta.date, id));
            } catch (IllegalArgumentException e) {
                throw new BadFileException(where + ": " + e.getMessage());
            }
        }
        return out;
    }

    private static List<String> toList(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asString()));
        return out;
    }

    /** The first line of an exception message: parsers add context lines that do not belong in one-line errors. */
    static String firstLine(String message) {
        if (message == null) {
            return "";
        }
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }

    static String hash(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError("SHA-256 is always present", e);
        }
    }

    /** The fields of a note's YAML front matter that memfas reads; unknown fields are ignored. */
    record FrontMatter(String id, String author, Instant date, List<String> tags, Scope scope, String kind,
            boolean pinned) {
        static final FrontMatter NONE = new FrontMatter(null, null, null, List.of(), null, null, false);

        static FrontMatter parse(String yaml) throws BadFileException {
            Object root;
            try {
                root = new Load(LoadSettings.builder().setAllowDuplicateKeys(false).build()).loadFromString(yaml);
            } catch (RuntimeException e) {
                throw new BadFileException("malformed front matter: " + firstLine(e.getMessage()));
            }
            if (root == null) {
                return NONE;
            }
            if (!(root instanceof Map<?, ?> map)) {
                throw new BadFileException("front matter must be a mapping of fields, not " + describe(root));
            }
            Map<String, Object> fields = new HashMap<>();
            map.forEach((k, v) -> fields.put(String.valueOf(k), v));
            try {
                return of(fields);
            } catch (IllegalArgumentException e) {
                throw new BadFileException("front matter: " + e.getMessage());
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
}
