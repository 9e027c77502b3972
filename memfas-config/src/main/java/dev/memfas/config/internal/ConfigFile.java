package dev.memfas.config.internal;

import dev.memfas.MemfasException;
import dev.memfas.ScopeBudgets;
import dev.memfas.ScoringWeights;
import dev.memfas.Trigger;
import dev.memfas.policy.SupersessionPolicy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * Internal, not an API: the settings of one {@code memfas.yaml}, as written (docs/cli.md, "Configuration"). A key the
 * file leaves out is null here; {@code dev.memfas.config.MemfasConfig} and the command each apply their defaults.
 *
 * @param file the file read, absolute
 * @param db the database setting as written: a SQLite file relative to the file's directory, or a PostgreSQL URL
 * @param telemetry the telemetry file relative to the file's directory, or {@code off}
 * @param workingMemoryTtl with {@code workingMemoryLimit}: set together when the file has {@code working_memory}
 * @param mcpTools the tools {@code memfas mcp} offers, comma-separated
 */
public record ConfigFile(Path file, String db, String model, Integer budget, List<String> sources,
        Integer chunkTargetTokens, Integer chunkOverlapTokens, Long maxFileBytes, String telemetry,
        ScoringWeights weights, List<Trigger> triggers, Double timeWindowWeight, SupersessionPolicy supersession,
        Duration workingMemoryTtl, Integer workingMemoryLimit, ScopeBudgets scopeBudgets, String namespace,
        String mcpTools) {
    /** The file's name in a working directory. */
    public static final String FILE_NAME = "memfas.yaml";
    /** The model when the file names none. */
    public static final String DEFAULT_MODEL = "bge-small-en-v1.5-q";
    /** The SQLite file when the file names no database, relative to the file's directory. */
    public static final String DEFAULT_DB = ".memfas/memfas.db";
    public static final int DEFAULT_CHUNK_TARGET_TOKENS = 400;
    public static final int DEFAULT_CHUNK_OVERLAP_TOKENS = 50;
    public static final Duration DEFAULT_WORKING_MEMORY_TTL = Duration.ofHours(1);
    public static final int DEFAULT_WORKING_MEMORY_LIMIT = 1000;

    private static final Set<String> KEYS = Set.of("db", "model", "budget", "sources", "chunk", "max_file_bytes",
            "telemetry", "weights", "triggers", "time_window_weight", "supersession", "working_memory",
            "scope_budgets", "namespace", "mcp");
    private static final Set<String> CHUNK_KEYS = Set.of("target_tokens", "overlap_tokens");
    private static final List<String> WEIGHT_KEYS = List.of("semantic", "lexical", "recency", "frequency", "topic",
            "scope", "priority", "hot");
    private static final List<String> SCOPE_KEYS = List.of("universal", "language", "project");

    public ConfigFile {
        Objects.requireNonNull(file, "file");
        sources = sources == null ? List.of() : List.copyOf(sources);
        triggers = triggers == null ? List.of() : List.copyOf(triggers);
    }

    /** The directory the file is in, which its relative paths are relative to. */
    public Path baseDir() {
        return file.getParent();
    }

    /** Whether a database setting names a PostgreSQL database (by URL) rather than a SQLite file. */
    public static boolean isPostgresUrl(String location) {
        return location.startsWith("jdbc:postgresql:") || location.startsWith("postgresql://")
                || location.startsWith("postgres://");
    }

    /** A PostgreSQL URL as messages show it: no parameters (which may hold a password), no user information. */
    public static String displayUrl(String url) {
        int query = url.indexOf('?');
        String base = query < 0 ? url : url.substring(0, query);
        int scheme = base.indexOf("://");
        int at = base.lastIndexOf('@');
        return scheme >= 0 && at > scheme ? base.substring(0, scheme + 3) + base.substring(at + 1) : base;
    }

    /**
     * Reads a {@code memfas.yaml}.
     *
     * @throws IllegalArgumentException if it is not valid YAML, or has an unknown key, a value of the wrong type or out
     *     of range; the message names the file and the key
     * @throws MemfasException if the file does not exist or cannot be read
     */
    public static ConfigFile read(Path path) {
        Path abs = path.toAbsolutePath().normalize();
        if (!Files.isRegularFile(abs)) {
            throw new MemfasException("config file " + abs + " does not exist");
        }
        String text;
        try {
            text = Files.readString(abs);
        } catch (IOException e) {
            throw new MemfasException("cannot read config file " + abs + ": " + e.getMessage(), e);
        }
        Object root;
        try {
            root = new Load(LoadSettings.builder().setAllowDuplicateKeys(false).build()).loadFromString(text);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(abs + ": not valid YAML: " + firstLine(e.getMessage()));
        }
        Parsed p = new Parsed();
        if (root != null) {
            mapping(root, abs.toString(), KEYS).forEach((key, value) -> p.set(key, value, abs + ": " + key));
        }
        int target = p.chunkTarget == null ? DEFAULT_CHUNK_TARGET_TOKENS : p.chunkTarget;
        int overlap = p.chunkOverlap == null ? DEFAULT_CHUNK_OVERLAP_TOKENS : p.chunkOverlap;
        if (overlap >= target) {
            throw new IllegalArgumentException(abs + ": chunk.overlap_tokens (" + overlap
                    + ") must be less than chunk.target_tokens (" + target + ")");
        }
        return new ConfigFile(abs, p.db, p.model, p.budget, p.sources, p.chunkTarget, p.chunkOverlap, p.maxFileBytes,
                p.telemetry, p.weights, p.triggers, p.timeWindowWeight, p.supersession, p.workingMemoryTtl,
                p.workingMemoryLimit, p.scopeBudgets, p.namespace, p.mcpTools);
    }

    /** The values read so far, one key at a time. */
    private static final class Parsed {
        String db;
        String model;
        Integer budget;
        List<String> sources;
        Integer chunkTarget;
        Integer chunkOverlap;
        Long maxFileBytes;
        String telemetry;
        ScoringWeights weights;
        final List<Trigger> triggers = new ArrayList<>();
        Double timeWindowWeight;
        SupersessionPolicy supersession;
        Duration workingMemoryTtl;
        Integer workingMemoryLimit;
        ScopeBudgets scopeBudgets;
        String namespace;
        String mcpTools;

        void set(String key, Object value, String at) {
            switch (key) {
                case "db" -> db = string(value, at);
                case "model" -> model = string(value, at);
                case "budget" -> budget = (int) number(value, at, 1, 1_000_000);
                case "sources" -> sources = strings(value, at);
                case "chunk" -> mapping(value, at, CHUNK_KEYS).forEach((k, v) -> {
                    if (k.equals("target_tokens")) {
                        chunkTarget = (int) number(v, at + "." + k, 16, 100_000);
                    } else {
                        chunkOverlap = (int) number(v, at + "." + k, 0, 100_000);
                    }
                });
                case "max_file_bytes" -> maxFileBytes = number(value, at, 1, Long.MAX_VALUE);
                case "telemetry" -> telemetry = string(value, at);
                case "weights" -> weights = weights(value, at);
                case "triggers" -> triggers(value, at);
                case "time_window_weight" -> timeWindowWeight = within(decimal(value, at), 0, 10, at);
                case "supersession" -> supersession = supersession(value, at);
                case "working_memory" -> {
                    Map<String, Object> m = mapping(value, at, Set.of("ttl", "limit"));
                    workingMemoryTtl = m.get("ttl") == null ? DEFAULT_WORKING_MEMORY_TTL
                            : duration(string(m.get("ttl"), at + ".ttl"), at + ".ttl");
                    workingMemoryLimit = m.get("limit") == null ? DEFAULT_WORKING_MEMORY_LIMIT
                            : (int) number(m.get("limit"), at + ".limit", 1, 1_000_000);
                }
                case "namespace" -> namespace = string(value, at);
                case "mcp" -> {
                    Object tools = mapping(value, at, Set.of("tools")).get("tools");
                    if (tools != null) {
                        // A YAML list or one comma-separated string; the server checks the names.
                        mcpTools = tools instanceof List<?> ? String.join(",", strings(tools, at + ".tools"))
                                : string(tools, at + ".tools");
                    }
                }
                case "scope_budgets" -> {
                    Map<String, Object> m = mapping(value, at, Set.copyOf(SCOPE_KEYS));
                    int[] shares = new int[3];
                    for (int i = 0; i < 3; i++) {
                        Object share = m.get(SCOPE_KEYS.get(i));
                        shares[i] = share == null ? 0
                                : (int) number(share, at + "." + SCOPE_KEYS.get(i), 0, 1_000_000);
                    }
                    try {
                        scopeBudgets = new ScopeBudgets(shares[0], shares[1], shares[2]);
                    } catch (IllegalArgumentException e) {
                        throw new IllegalArgumentException(at + ": " + e.getMessage());
                    }
                }
                default -> throw new AssertionError(key);
            }
        }

        private static ScoringWeights weights(Object value, String at) {
            Map<String, Object> w = mapping(value, at, Set.copyOf(WEIGHT_KEYS));
            ScoringWeights d = ScoringWeights.DEFAULT;
            double[] v = {d.semantic(), d.lexical(), d.recency(), d.frequency(), d.topic(), d.scope(), d.priority(),
                d.hot()};
            for (int i = 0; i < WEIGHT_KEYS.size(); i++) {
                Object x = w.get(WEIGHT_KEYS.get(i));
                if (x != null) {
                    v[i] = decimal(x, at + "." + WEIGHT_KEYS.get(i));
                }
            }
            try {
                return new ScoringWeights(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(at + ": " + e.getMessage());
            }
        }

        private void triggers(Object value, String at) {
            if (!(value instanceof List<?> list)) {
                throw new IllegalArgumentException(at + " must be a list of {keyword, hint}");
            }
            for (int i = 0; i < list.size(); i++) {
                String item = at + "[" + i + "]";
                Map<String, Object> t = mapping(list.get(i), item, Set.of("keyword", "hint", "memories"));
                String keyword = string(t.get("keyword"), item + ".keyword");
                String hint = t.get("hint") == null ? "" : string(t.get("hint"), item + ".hint");
                List<String> ids = t.get("memories") == null ? List.of()
                        : strings(t.get("memories"), item + ".memories");
                try {
                    triggers.add(Trigger.of(keyword, hint, ids.toArray(String[]::new)));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(item + ": " + e.getMessage());
                }
            }
        }

        private static SupersessionPolicy supersession(Object value, String at) {
            Map<String, Object> p = mapping(value, at, Set.of("mode", "similarity"));
            String mode = p.get("mode") == null ? "off" : string(p.get("mode"), at + ".mode");
            double similarity = p.get("similarity") == null ? SupersessionPolicy.DEFAULT_SIMILARITY
                    : within(decimal(p.get("similarity"), at + ".similarity"), 0.01, 1, at + ".similarity");
            return switch (mode) {
                case "off" -> SupersessionPolicy.off();
                case "suggest" -> SupersessionPolicy.suggest(similarity);
                case "apply" -> SupersessionPolicy.apply(similarity);
                default -> throw new IllegalArgumentException(at + ".mode must be off, suggest or apply: " + mode);
            };
        }
    }

    private static Map<String, Object> mapping(Object value, String at, Set<String> allowed) {
        if (!(value instanceof Map<?, ?> m)) {
            throw new IllegalArgumentException(at + " must be a mapping");
        }
        Map<String, Object> out = new LinkedHashMap<>();
        m.forEach((k, v) -> {
            String key = String.valueOf(k);
            if (!allowed.contains(key)) {
                throw new IllegalArgumentException(at + ": unknown key '" + key + "' (known: "
                        + String.join(", ", allowed.stream().sorted().toList()) + ")");
            }
            out.put(key, v);
        });
        return out;
    }

    private static String string(Object value, String at) {
        if (value == null || value instanceof Map || value instanceof List || String.valueOf(value).isBlank()) {
            throw new IllegalArgumentException(at + " must be a non-empty string: " + value);
        }
        return String.valueOf(value);
    }

    private static List<String> strings(Object value, String at) {
        if (value instanceof String s) {
            return List.of(s);
        }
        if (!(value instanceof List<?> list)) {
            throw new IllegalArgumentException(at + " must be a list of strings");
        }
        List<String> out = new ArrayList<>();
        for (Object o : list) {
            out.add(string(o, at));
        }
        return out;
    }

    private static long number(Object value, String at, long min, long max) {
        if (!(value instanceof Number x) || x.doubleValue() != Math.rint(x.doubleValue())) {
            throw new IllegalArgumentException(at + " must be a whole number: " + value);
        }
        long n = x.longValue();
        if (n < min || n > max) {
            throw new IllegalArgumentException(at + " must be in [" + min + ", " + max + "]: " + n);
        }
        return n;
    }

    private static double within(double value, double min, double max, String at) {
        if (!(value >= min && value <= max)) {
            throw new IllegalArgumentException(at + " must be in [" + min + ", " + max + "]: " + value);
        }
        return value;
    }

    private static double decimal(Object value, String at) {
        if (value instanceof Number x) {
            return x.doubleValue();
        }
        throw new IllegalArgumentException(at + " must be a number: " + value);
    }

    /**
     * A duration such as {@code 90s}, {@code 30m}, {@code 1h} or {@code 7d}, as the file and the command's options
     * write one.
     *
     * @param at what names the value in an error: a key ({@code memfas.yaml: working_memory.ttl}) or an option
     * @throws IllegalArgumentException if it is not a positive whole number followed by s, m, h or d
     */
    public static Duration duration(String text, String at) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        if (t.length() >= 2) {
            String digits = t.substring(0, t.length() - 1);
            if (digits.chars().allMatch(Character::isDigit) && digits.length() <= 9) {
                long n = Long.parseLong(digits);
                Duration d = switch (t.charAt(t.length() - 1)) {
                    case 's' -> Duration.ofSeconds(n);
                    case 'm' -> Duration.ofMinutes(n);
                    case 'h' -> Duration.ofHours(n);
                    case 'd' -> Duration.ofDays(n);
                    default -> null;
                };
                if (d != null && !d.isZero()) {
                    return d;
                }
            }
        }
        throw new IllegalArgumentException(at + " must be a positive number with s, m, h or d (like 24h): '" + text
                + "'");
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "";
        }
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }
}
