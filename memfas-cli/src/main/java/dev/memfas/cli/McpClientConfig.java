package dev.memfas.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;
import tools.jackson.core.json.JsonReadFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.toml.TomlMapper;

/**
 * One MCP client's configuration file, and the memfas server written into it: where each client keeps its servers, in
 * what shape, and the merge that adds or replaces one server and keeps everything else in the file.
 *
 * <p>A file is rewritten only when it can be read whole: one that does not parse, or (JSON) that holds comments a
 * rewrite would drop, is refused with its name and nothing is written. Before a file that exists is changed, a copy of
 * it is written beside it ({@code NAME.memfas-YYYYMMDD-HHMMSS.bak}, never over an earlier one); the new text then
 * replaces it in one move.
 */
final class McpClientConfig {
    /** The clients, by the name {@code memfas setup} takes. */
    enum Client {
        CLAUDE_CODE("claude-code", "Claude Code"),
        CLAUDE_DESKTOP("claude-desktop", "Claude Desktop"),
        CURSOR("cursor", "Cursor"),
        VSCODE("vscode", "VS Code"),
        CODEX("codex", "Codex CLI");

        final String id;
        final String title;

        Client(String id, String title) {
            this.id = id;
            this.title = title;
        }

        /**
         * @throws IllegalArgumentException naming the name and the clients there are
         */
        static Client parse(String name) {
            for (Client c : values()) {
                if (c.id.equals(name.strip().toLowerCase(Locale.ROOT))) {
                    return c;
                }
            }
            throw new IllegalArgumentException("unknown client '" + name + "': give one of "
                    + String.join(", ", List.of(values()).stream().map(c -> c.id).toList()));
        }

        /**
         * The file this client reads its servers from.
         *
         * @param home the user's home directory
         * @param project the directory of the project (where the command runs)
         * @param os the value of {@code os.name}
         * @param env the environment ({@code CODEX_HOME}, {@code APPDATA})
         */
        Path file(Path home, Path project, String os, Map<String, String> env) {
            String system = os.toLowerCase(Locale.ROOT);
            return switch (this) {
                // The project's servers, which Claude Code asks the user to approve.
                case CLAUDE_CODE -> project.resolve(".mcp.json");
                case CLAUDE_DESKTOP -> system.contains("mac")
                        ? home.resolve("Library/Application Support/Claude/claude_desktop_config.json")
                        : system.contains("win") && env.get("APPDATA") != null
                                ? Path.of(env.get("APPDATA"), "Claude", "claude_desktop_config.json")
                                : home.resolve(".config/Claude/claude_desktop_config.json");
                case CURSOR -> home.resolve(".cursor/mcp.json");
                case VSCODE -> project.resolve(".vscode/mcp.json");
                case CODEX -> (env.get("CODEX_HOME") != null && !env.get("CODEX_HOME").isBlank()
                        ? Path.of(env.get("CODEX_HOME")) : home.resolve(".codex")).resolve("config.toml");
            };
        }
    }

    /** The server to write: its name in the client's list, the command and its arguments. */
    record Server(String name, String command, List<String> args) {
        private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]{1,64}");

        Server {
            if (!NAME.matcher(name).matches()) {
                throw new IllegalArgumentException("a server name has 1 to 64 letters, digits, '-' or '_': '" + name
                        + "'");
            }
            args = List.copyOf(args);
        }
    }

    /**
     * What a merge wrote.
     *
     * @param file the configuration file
     * @param text the file's new text
     * @param replaced whether it held a server of that name already
     * @param backup the copy of the file as it was, or null when there was no file
     */
    record Written(Path file, String text, boolean replaced, Path backup) {}

    private static final JsonMapper JSON = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();
    /** Reads what a client may accept but a rewrite would lose (comments), to say so instead of "cannot parse". */
    private static final JsonMapper LENIENT_JSON = JsonMapper.builder()
            .enable(JsonReadFeature.ALLOW_JAVA_COMMENTS, JsonReadFeature.ALLOW_YAML_COMMENTS,
                    JsonReadFeature.ALLOW_TRAILING_COMMA).build();
    private static final TomlMapper TOML = TomlMapper.builder().build();
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")
            .withZone(ZoneOffset.UTC);

    private McpClientConfig() {}

    /** The file's text with the server added or replaced; the file is not touched. */
    static String merged(Client client, Path file, Server server) throws IOException {
        String before = Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : null;
        return client == Client.CODEX ? mergedToml(file, before, server) : mergedJson(client, file, before, server);
    }

    /** The server alone, in the client's format: what a file holding nothing else would say. */
    static String alone(Client client, Server server) {
        Path none = Path.of("(new file)");
        return client == Client.CODEX ? mergedToml(none, null, server) : mergedJson(client, none, null, server);
    }

    /** Writes the server into the client's file, backing the file up first. */
    static Written write(Client client, Path file, Server server, Clock clock) throws IOException {
        boolean existed = Files.exists(file);
        boolean replaced = existed && holds(client, file, server.name());
        String text = merged(client, file, server);
        Path backup = null;
        if (existed) {
            String stem = file.getFileName() + ".memfas-" + STAMP.format(clock.instant());
            backup = file.resolveSibling(stem + ".bak");
            for (int n = 2; Files.exists(backup); n++) {
                backup = file.resolveSibling(stem + "-" + n + ".bak"); // never over an earlier backup
            }
            Files.copy(file, backup, StandardCopyOption.COPY_ATTRIBUTES);
        } else if (file.getParent() != null) {
            Files.createDirectories(file.getParent());
        }
        Path temporary = Files.createTempFile(file.toAbsolutePath().getParent(), "." + file.getFileName(), ".tmp");
        try {
            Files.writeString(temporary, text, StandardCharsets.UTF_8);
            try {
                Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(temporary);
        }
        return new Written(file, text, replaced, backup);
    }

    private static boolean holds(Client client, Path file, String name) throws IOException {
        String text = Files.readString(file, StandardCharsets.UTF_8);
        if (text.isBlank()) {
            return false;
        }
        try {
            JsonNode root = client == Client.CODEX ? TOML.readTree(text) : JSON.readTree(text);
            return root.path(serversKey(client)).has(name);
        } catch (JacksonException e) {
            return false; // merged() refuses it, naming the file
        }
    }

    private static String serversKey(Client client) {
        return switch (client) {
            case VSCODE -> "servers";
            case CODEX -> "mcp_servers";
            default -> "mcpServers";
        };
    }

    // ---------------------------------------------------------------- JSON

    private static String mergedJson(Client client, Path file, String before, Server server) {
        ObjectNode root;
        if (before == null || before.isBlank()) {
            root = JSON.createObjectNode();
        } else {
            JsonNode read;
            try {
                read = JSON.readTree(before);
            } catch (JacksonException e) {
                throw new IllegalArgumentException(unreadableJson(file, before, e));
            }
            if (!(read instanceof ObjectNode object)) {
                throw new IllegalArgumentException("cannot add a server to " + file + ": it holds a JSON "
                        + read.getNodeType().toString().toLowerCase(Locale.ROOT) + ", not an object; nothing was"
                        + " written");
            }
            root = object;
        }
        String key = serversKey(client);
        JsonNode servers = root.get(key);
        if (servers != null && !servers.isObject()) {
            throw new IllegalArgumentException("cannot add a server to " + file + ": its '" + key + "' is not an"
                    + " object; nothing was written");
        }
        ObjectNode list = servers == null ? root.putObject(key) : (ObjectNode) servers;
        ObjectNode entry = JSON.createObjectNode();
        if (client == Client.VSCODE) {
            entry.put("type", "stdio"); // VS Code requires it
        }
        entry.put("command", server.command());
        ArrayNode args = entry.putArray("args");
        server.args().forEach(args::add);
        list.set(server.name(), entry);
        return JSON.writeValueAsString(root) + System.lineSeparator();
    }

    private static String unreadableJson(Path file, String text, JacksonException e) {
        try {
            LENIENT_JSON.readTree(text);
            return "cannot add a server to " + file + ": it holds comments or trailing commas, which rewriting it"
                    + " would lose; nothing was written (add the entry 'memfas setup --print' shows by hand)";
        } catch (JacksonException lenient) {
            return "cannot read " + file + " as JSON (" + where(e) + "): nothing was written; fix the file or move it"
                    + " away, then run this again";
        }
    }

    private static String where(JacksonException e) {
        return e.getLocation() == null ? e.getOriginalMessage()
                : "line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ": "
                        + e.getOriginalMessage();
    }

    // ---------------------------------------------------------------- TOML

    /**
     * The file with its {@code [mcp_servers.NAME]} table (and its sub-tables) taken out and written anew at the end.
     * The rest of the file stays as written, comments included; the result is read back to check it says what was
     * meant.
     */
    private static String mergedToml(Path file, String before, Server server) {
        String text = before == null ? "" : before;
        if (!text.isBlank()) {
            try {
                TOML.readTree(text);
            } catch (JacksonException e) {
                throw new IllegalArgumentException("cannot read " + file + " as TOML (" + where(e) + "): nothing was"
                        + " written; fix the file or move it away, then run this again");
            }
        }
        List<String> kept = new ArrayList<>();
        boolean inOurs = false;
        Pattern ours = Pattern.compile("^\\s*\\[\\s*mcp_servers\\s*\\.\\s*(\"" + Pattern.quote(server.name()) + "\"|"
                + Pattern.quote(server.name()) + ")\\s*(\\.[^\\]]*)?\\]\\s*(#.*)?$");
        Pattern header = Pattern.compile("^\\s*\\[.*$");
        for (String line : text.split("\\R", -1)) {
            if (ours.matcher(line).matches()) {
                inOurs = true;
            } else if (header.matcher(line).matches()) {
                inOurs = false;
            }
            if (!inOurs) {
                kept.add(line);
            }
        }
        StringBuilder out = new StringBuilder(String.join("\n", kept).stripTrailing());
        if (out.length() > 0) {
            out.append("\n\n");
        }
        out.append("[mcp_servers.").append(server.name()).append("]\n");
        out.append("command = ").append(tomlString(server.command())).append('\n');
        out.append("args = [").append(String.join(", ", server.args().stream().map(McpClientConfig::tomlString)
                .toList())).append("]\n");
        String merged = out.toString();
        JsonNode check;
        try {
            check = TOML.readTree(merged).path("mcp_servers").path(server.name());
        } catch (JacksonException e) {
            // A dotted key elsewhere in the file (mcp_servers.memfas.command = ...) defines the table twice.
            throw new IllegalArgumentException("cannot add a server to " + file + ": it defines mcp_servers."
                    + server.name() + " in a way this command does not rewrite (" + where(e) + "); nothing was"
                    + " written");
        }
        if (!server.command().equals(check.path("command").asString(null))) {
            throw new IllegalStateException("the merged " + file + " does not say the command written; nothing was"
                    + " written");
        }
        return merged;
    }

    /** A TOML basic string: quotes, backslashes and control characters escaped. */
    private static String tomlString(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\t' -> b.append("\\t");
                case '\r' -> b.append("\\r");
                default -> {
                    if (c < 0x20 || c == 0x7f) {
                        b.append(String.format(Locale.ROOT, "\\u%04X", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }
}
