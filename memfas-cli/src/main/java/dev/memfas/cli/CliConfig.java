package dev.memfas.cli;

import dev.memfas.Memory;
import dev.memfas.ScopeBudgets;
import dev.memfas.ScoringWeights;
import dev.memfas.policy.SupersessionPolicy;
import dev.memfas.Trigger;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * The settings of the {@code memfas} command, read from {@code memfas.yaml} (see docs/cli.md); flags override them.
 * Relative paths are resolved against the directory the file is in.
 */
final class CliConfig {
    static final String FILE_NAME = "memfas.yaml";
    private static final Set<String> KEYS = Set.of("db", "model", "budget", "sources", "chunk", "max_file_bytes",
            "telemetry", "weights", "triggers", "time_window_weight", "supersession", "working_memory",
            "scope_budgets", "namespace", "mcp");
    private static final Set<String> CHUNK_KEYS = Set.of("target_tokens", "overlap_tokens");
    private static final List<String> WEIGHT_KEYS = List.of("semantic", "lexical", "recency", "frequency", "topic",
            "scope", "priority", "hot");

    /** The SQLite file, unless {@link #dbUrl} names a PostgreSQL database. */
    Path db;
    /** The PostgreSQL database's URL; null for a SQLite file. */
    String dbUrl;
    String model = "bge-small-en-v1.5-q";
    Integer budget;
    List<String> sources = new ArrayList<>();
    int chunkTargetTokens = 400;
    int chunkOverlapTokens = 50;
    long maxFileBytes = 10L << 20;
    /** The telemetry log; null when off. Unless the config names one, it is {@code telemetry.jsonl} beside the db. */
    Path telemetry;
    /** Whether the config file said where telemetry goes, or that it is off. */
    boolean telemetryConfigured;
    ScoringWeights weights;
    List<Trigger> triggers = new ArrayList<>();
    /** The weight of a window of time the query names; null for the default. */
    Double timeWindowWeight;
    /** Update detection; null for the default (off). */
    SupersessionPolicy supersession;
    /** Working memory's time to live and limit (for the MCP server's sessions); null for the defaults. */
    Duration workingMemoryTtl;
    int workingMemoryLimit = 1000;
    /** The namespace (tenant) commands work in. */
    String namespace = Memory.DEFAULT_NAMESPACE;
    /** Whether the config file named the namespace. */
    boolean namespaceConfigured;
    /** The tools {@code memfas mcp} offers (profiles and tool names); null for the server's default. */
    String mcpTools;
    /** The shares of every turn's budget by scope; null for none. */
    ScopeBudgets scopeBudgets;
    Path baseDir;

    /** A configuration error, with the file and the key in its message. */
    static final class ConfigException extends RuntimeException {
        ConfigException(String message) {
            super(message);
        }
    }

    /** Sets the database; telemetry, unless the config placed it, goes beside it. */
    void useDb(Path file) {
        db = file.toAbsolutePath().normalize();
        dbUrl = null;
        if (!telemetryConfigured) {
            telemetry = db.resolveSibling("telemetry.jsonl");
        }
    }

    /**
     * Sets the database from a setting: a PostgreSQL URL, or a SQLite file relative to {@code base}. With PostgreSQL,
     * telemetry (unless the config placed it) goes to {@code .memfas/telemetry.jsonl} under the base directory.
     */
    void useDb(String value, Path base) {
        if (Stores.isPostgresUrl(value)) {
            dbUrl = value;
            db = null;
            if (!telemetryConfigured) {
                telemetry = base.toAbsolutePath().normalize().resolve(".memfas/telemetry.jsonl");
            }
        } else {
            useDb(base.resolve(value));
        }
    }

    /** The database as messages name it: the file, or the URL without parameters or user information. */
    String where() {
        return dbUrl != null ? Stores.display(dbUrl) : db.toString();
    }

    static CliConfig defaults(Path baseDir) {
        CliConfig c = new CliConfig();
        c.baseDir = baseDir.toAbsolutePath().normalize();
        c.db = c.baseDir.resolve(".memfas/memfas.db");
        c.telemetry = c.db.resolveSibling("telemetry.jsonl");
        return c;
    }

    /** Reads the given file; with none, {@code ./memfas.yaml} if it exists, else the defaults. */
    static CliConfig load(Path file) {
        Path path = file;
        if (path == null) {
            Path local = Path.of(FILE_NAME);
            if (!Files.isRegularFile(local)) {
                return defaults(Path.of(""));
            }
            path = local;
        }
        Path abs = path.toAbsolutePath().normalize();
        if (!Files.isRegularFile(abs)) {
            throw new ConfigException("config file " + abs + " does not exist");
        }
        String text;
        try {
            text = Files.readString(abs);
        } catch (IOException e) {
            throw new ConfigException("cannot read config file " + abs + ": " + e.getMessage());
        }
        CliConfig c = defaults(abs.getParent());
        Object root;
        try {
            root = new Load(LoadSettings.builder().setAllowDuplicateKeys(false).build()).loadFromString(text);
        } catch (RuntimeException e) {
            throw new ConfigException(abs + ": not valid YAML: " + MemoryFiles.firstLine(e.getMessage()));
        }
        if (root == null) {
            return c;
        }
        Map<String, Object> map = mapping(root, abs + "", KEYS);
        String where = abs.toString();
        map.forEach((key, value) -> {
            String at = where + ": " + key;
            switch (key) {
                case "db" -> c.useDb(string(value, at), c.baseDir);
                case "model" -> c.model = string(value, at);
                case "budget" -> c.budget = (int) number(value, at, 1, 1_000_000);
                case "sources" -> c.sources = strings(value, at);
                case "chunk" -> mapping(value, at, CHUNK_KEYS).forEach((k, v) -> {
                    if (k.equals("target_tokens")) {
                        c.chunkTargetTokens = (int) number(v, at + "." + k, 16, 100_000);
                    } else {
                        c.chunkOverlapTokens = (int) number(v, at + "." + k, 0, 100_000);
                    }
                });
                case "max_file_bytes" -> c.maxFileBytes = number(value, at, 1, Long.MAX_VALUE);
                case "telemetry" -> {
                    String t = string(value, at);
                    c.telemetry = t.equalsIgnoreCase("off") ? null : c.baseDir.resolve(t);
                    c.telemetryConfigured = true;
                }
                case "weights" -> {
                    Map<String, Object> w = mapping(value, at, Set.copyOf(WEIGHT_KEYS));
                    ScoringWeights d = ScoringWeights.DEFAULT;
                    double[] v = {d.semantic(), d.lexical(), d.recency(), d.frequency(), d.topic(), d.scope(),
                        d.priority(), d.hot()};
                    for (int i = 0; i < WEIGHT_KEYS.size(); i++) {
                        Object x = w.get(WEIGHT_KEYS.get(i));
                        if (x != null) {
                            v[i] = decimal(x, at + "." + WEIGHT_KEYS.get(i));
                        }
                    }
                    try {
                        c.weights = new ScoringWeights(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]);
                    } catch (IllegalArgumentException e) {
                        throw new ConfigException(at + ": " + e.getMessage());
                    }
                }
                case "triggers" -> {
                    if (!(value instanceof List<?> list)) {
                        throw new ConfigException(at + " must be a list of {keyword, hint}");
                    }
                    for (int i = 0; i < list.size(); i++) {
                        Map<String, Object> t = mapping(list.get(i), at + "[" + i + "]",
                                Set.of("keyword", "hint", "memories"));
                        String keyword = string(t.get("keyword"), at + "[" + i + "].keyword");
                        String hint = t.get("hint") == null ? "" : string(t.get("hint"), at + "[" + i + "].hint");
                        List<String> ids = t.get("memories") == null ? List.of()
                                : strings(t.get("memories"), at + "[" + i + "].memories");
                        try {
                            c.triggers.add(Trigger.of(keyword, hint, ids.toArray(String[]::new)));
                        } catch (IllegalArgumentException e) {
                            throw new ConfigException(at + "[" + i + "]: " + e.getMessage());
                        }
                    }
                }
                case "time_window_weight" -> c.timeWindowWeight = within(decimal(value, at), 0, 10, at);
                case "supersession" -> {
                    Map<String, Object> p = mapping(value, at, Set.of("mode", "similarity"));
                    String mode = p.get("mode") == null ? "off" : string(p.get("mode"), at + ".mode");
                    double similarity = p.get("similarity") == null ? SupersessionPolicy.DEFAULT_SIMILARITY
                            : within(decimal(p.get("similarity"), at + ".similarity"), 0.01, 1, at + ".similarity");
                    c.supersession = switch (mode) {
                        case "off" -> SupersessionPolicy.off();
                        case "suggest" -> SupersessionPolicy.suggest(similarity);
                        case "apply" -> SupersessionPolicy.apply(similarity);
                        default -> throw new ConfigException(at + ".mode must be off, suggest or apply: " + mode);
                    };
                }
                case "working_memory" -> {
                    Map<String, Object> m = mapping(value, at, Set.of("ttl", "limit"));
                    c.workingMemoryTtl = m.get("ttl") == null ? Duration.ofHours(1)
                            : duration(string(m.get("ttl"), at + ".ttl"), at + ".ttl");
                    if (m.get("limit") != null) {
                        c.workingMemoryLimit = (int) number(m.get("limit"), at + ".limit", 1, 1_000_000);
                    }
                }
                case "namespace" -> {
                    c.namespace = string(value, at);
                    c.namespaceConfigured = true;
                }
                case "mcp" -> {
                    Object tools = mapping(value, at, Set.of("tools")).get("tools");
                    if (tools != null) {
                        // A YAML list or one comma-separated string; the server checks the names.
                        c.mcpTools = tools instanceof List<?> ? String.join(",", strings(tools, at + ".tools"))
                                : string(tools, at + ".tools");
                    }
                }
                case "scope_budgets" -> {
                    Map<String, Object> m = mapping(value, at, Set.of("universal", "language", "project"));
                    int[] shares = new int[3];
                    List<String> names = List.of("universal", "language", "project");
                    for (int i = 0; i < 3; i++) {
                        Object share = m.get(names.get(i));
                        shares[i] = share == null ? 0
                                : (int) number(share, at + "." + names.get(i), 0, 1_000_000);
                    }
                    try {
                        c.scopeBudgets = new ScopeBudgets(shares[0], shares[1], shares[2]);
                    } catch (IllegalArgumentException e) {
                        throw new ConfigException(at + ": " + e.getMessage());
                    }
                }
                default -> throw new AssertionError(key);
            }
        });
        if (c.chunkOverlapTokens >= c.chunkTargetTokens) {
            throw new ConfigException(where + ": chunk.overlap_tokens (" + c.chunkOverlapTokens
                    + ") must be less than chunk.target_tokens (" + c.chunkTargetTokens + ")");
        }
        return c;
    }

    private static Map<String, Object> mapping(Object value, String at, Set<String> allowed) {
        if (!(value instanceof Map<?, ?> m)) {
            throw new ConfigException(at + " must be a mapping");
        }
        Map<String, Object> out = new LinkedHashMap<>();
        m.forEach((k, v) -> {
            String key = String.valueOf(k);
            if (!allowed.contains(key)) {
                throw new ConfigException(at + ": unknown key '" + key + "' (known: "
                        + String.join(", ", allowed.stream().sorted().toList()) + ")");
            }
            out.put(key, v);
        });
        return out;
    }

    private static String string(Object value, String at) {
        if (value == null || value instanceof Map || value instanceof List || String.valueOf(value).isBlank()) {
            throw new ConfigException(at + " must be a non-empty string: " + value);
        }
        return String.valueOf(value);
    }

    private static List<String> strings(Object value, String at) {
        if (value instanceof String s) {
            return List.of(s);
        }
        if (!(value instanceof List<?> list)) {
            throw new ConfigException(at + " must be a list of strings");
        }
        List<String> out = new ArrayList<>();
        for (Object o : list) {
            out.add(string(o, at));
        }
        return out;
    }

    private static long number(Object value, String at, long min, long max) {
        long n;
        if (value instanceof Number x && x.doubleValue() == Math.rint(x.doubleValue())) {
            n = x.longValue();
        } else {
            throw new ConfigException(at + " must be a whole number: " + value);
        }
        if (n < min || n > max) {
            throw new ConfigException(at + " must be in [" + min + ", " + max + "]: " + n);
        }
        return n;
    }

    private static double within(double value, double min, double max, String at) {
        if (!(value >= min && value <= max)) {
            throw new ConfigException(at + " must be in [" + min + ", " + max + "]: " + value);
        }
        return value;
    }

    private static Duration duration(String text, String at) {
        try {
            return TelemetryCommand.parseDuration(at, text);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage());
        }
    }

    private static double decimal(Object value, String at) {
        if (value instanceof Number x) {
            return x.doubleValue();
        }
        throw new ConfigException(at + " must be a number: " + value);
    }
}
