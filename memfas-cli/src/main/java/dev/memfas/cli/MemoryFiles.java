package dev.memfas.cli;

import dev.memfas.Memory;
import dev.memfas.spi.Tokenizer;
import dev.memfas.core.Memfas;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
        Instant created = meta.date() != null ? meta.date() : FileDates.of(fileKey, fileName);
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
        if (meta.id() != null) {
            for (int i = 0; i < out.size(); i++) {
                String id = out.size() == 1 ? meta.id() : meta.id() + "#" + (i + 1);
                out.set(i, out.get(i).toBuilder().id(id).build());
            }
        }
        return out;
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
        if (meta.kind() != null) {
            b.kind(meta.kind());
        }
        if (meta.author() != null) {
            b.author(meta.author());
        }
        if (meta.scope() != null) {
            b.scope(meta.scope());
        }
        if (!meta.tags().isEmpty()) {
            b.tags(meta.tags());
        }
        if (meta.pinned()) {
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
            String id = meta.id() != null ? meta.id() : "f-" + hash(fileKey + "\n" + i + "\n" + body);
            try {
                out.add(build(body, source, fileKey, meta, meta.date() == null ? now : meta.date(), id));
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
}
