package dev.memfas.cli;

import dev.memfas.MemfasException;
import dev.memfas.Memory;
import dev.memfas.ScopeBudgets;
import dev.memfas.ScoringWeights;
import dev.memfas.policy.SupersessionPolicy;
import dev.memfas.Trigger;
import dev.memfas.config.internal.ConfigFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The settings of the {@code memfas} command, read from {@code memfas.yaml} (see docs/cli.md); flags override them.
 * Relative paths are resolved against the directory the file is in.
 */
final class CliConfig {
    static final String FILE_NAME = ConfigFile.FILE_NAME;

    /** The SQLite file, unless {@link #dbUrl} names a PostgreSQL database. */
    Path db;
    /** The PostgreSQL database's URL; null for a SQLite file. */
    String dbUrl;
    String model = ConfigFile.DEFAULT_MODEL;
    Integer budget;
    List<String> sources = new ArrayList<>();
    int chunkTargetTokens = ConfigFile.DEFAULT_CHUNK_TARGET_TOKENS;
    int chunkOverlapTokens = ConfigFile.DEFAULT_CHUNK_OVERLAP_TOKENS;
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
    int workingMemoryLimit = ConfigFile.DEFAULT_WORKING_MEMORY_LIMIT;
    /** The namespace (tenant) commands work in. */
    String namespace = Memory.DEFAULT_NAMESPACE;
    /** Whether the config file named the namespace. */
    boolean namespaceConfigured;
    /** The tools {@code memfas mcp} offers (profiles and tool names); null for the server's default. */
    String mcpTools;
    /** The shares of every turn's budget by scope; null for none. */
    ScopeBudgets scopeBudgets;
    Path baseDir;

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
        if (ConfigFile.isPostgresUrl(value)) {
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
        return dbUrl != null ? ConfigFile.displayUrl(dbUrl) : db.toString();
    }

    static CliConfig defaults(Path baseDir) {
        CliConfig c = new CliConfig();
        c.baseDir = baseDir.toAbsolutePath().normalize();
        c.db = c.baseDir.resolve(ConfigFile.DEFAULT_DB);
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
        ConfigFile f;
        try {
            f = ConfigFile.read(path);
        } catch (MemfasException e) {
            // A config file that is missing or unreadable is the user's input, like a bad key: exit code 2.
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        CliConfig c = defaults(f.baseDir());
        if (f.telemetry() != null) {
            c.telemetry = f.telemetry().equalsIgnoreCase("off") ? null : c.baseDir.resolve(f.telemetry());
            c.telemetryConfigured = true;
        }
        if (f.db() != null) {
            c.useDb(f.db(), c.baseDir);
        }
        if (f.model() != null) {
            // A model directory is relative to the file, as every path in it is.
            Path dir = c.baseDir.resolve(f.model());
            c.model = Files.isDirectory(dir) ? dir.toString() : f.model();
        }
        c.budget = f.budget();
        c.sources = new ArrayList<>(f.sources());
        if (f.chunkTargetTokens() != null) {
            c.chunkTargetTokens = f.chunkTargetTokens();
        }
        if (f.chunkOverlapTokens() != null) {
            c.chunkOverlapTokens = f.chunkOverlapTokens();
        }
        if (f.maxFileBytes() != null) {
            c.maxFileBytes = f.maxFileBytes();
        }
        c.weights = f.weights();
        c.triggers = new ArrayList<>(f.triggers());
        c.timeWindowWeight = f.timeWindowWeight();
        c.supersession = f.supersession();
        c.workingMemoryTtl = f.workingMemoryTtl();
        if (f.workingMemoryLimit() != null) {
            c.workingMemoryLimit = f.workingMemoryLimit();
        }
        if (f.namespace() != null) {
            c.namespace = f.namespace();
            c.namespaceConfigured = true;
        }
        c.mcpTools = f.mcpTools();
        c.scopeBudgets = f.scopeBudgets();
        return c;
    }
}
