package dev.memfas.mcp;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which tools a server offers, and which arguments of each: named profiles and tool names, comma-separated
 * ({@code core}, {@code full}, {@code core,state}, {@code core,time,orient}).
 *
 * <p>An MCP host puts every tool definition into every request, so what the server offers costs the agent tokens on
 * every turn whether it calls the tools or not: the whole set is about 40,000 characters of {@code tools/list} (about
 * 10,000 tokens), the {@code core} profile under 8,000 (about 2,000). {@code core} is the loop an agent runs each turn
 * (curate, remember, recall, forget, say what helped) with each tool's everyday arguments only; a tool named on its
 * own, or through another profile, comes with all its arguments.
 */
final class ToolSelection {
    /** The default: the loop of a turn, everyday arguments only. */
    static final String DEFAULT = "core";

    /** The {@code core} profile: its tools, in the order listed, and the arguments each offers. */
    private static final Map<String, List<String>> CORE = new LinkedHashMap<>();

    static {
        CORE.put("get_context", List.of("query", "session_id", "token_budget", "recent_history", "baseline_tokens",
                "namespace"));
        CORE.put("remember", List.of("text", "id", "supersedes", "kind", "tags", "pinned", "namespace"));
        CORE.put("recall", List.of("query", "limit", "namespace"));
        CORE.put("report_usage", List.of("session_id", "memory_ids", "was_helpful", "namespace"));
        CORE.put("forget", List.of("memory_id", "namespace"));
    }

    /** The other profiles, each a list of whole tools; {@code full} is every tool. */
    private static final Map<String, List<String>> PROFILES = Map.of(
            "state", List.of("save_state", "load_state", "list_state_keys", "search_state", "delete_state",
                    "clear_state", "offer"));

    /** The profile names, as messages list them. */
    static final List<String> PROFILE_NAMES = List.of("core", "state", "full");

    private final String spec;
    /** The tools offered, in the order of the whole set; each with the arguments it offers, or null for all of them. */
    private final Map<String, Set<String>> offered;

    private ToolSelection(String spec, Map<String, Set<String>> offered) {
        this.spec = spec;
        this.offered = offered;
    }

    /**
     * Reads a selection.
     *
     * @param spec profiles and tool names, comma-separated; blank parts are skipped
     * @param all every tool the server has, in the order to list them
     * @throws IllegalArgumentException naming the part that is neither a profile nor a tool, or if nothing is named
     */
    static ToolSelection parse(String spec, Collection<String> all) {
        if (spec == null) {
            throw new NullPointerException("tools");
        }
        Map<String, Set<String>> chosen = new LinkedHashMap<>();
        Set<String> whole = new LinkedHashSet<>();
        for (String part : spec.split(",")) {
            String name = part.strip();
            if (name.isEmpty()) {
                continue;
            }
            if (name.equals("core")) {
                CORE.forEach((tool, args) -> chosen.computeIfAbsent(tool, t -> new LinkedHashSet<>()).addAll(args));
            } else if (name.equals("full")) {
                whole.addAll(all);
            } else if (PROFILES.containsKey(name)) {
                whole.addAll(PROFILES.get(name));
            } else if (all.contains(name)) {
                whole.add(name);
            } else {
                throw new IllegalArgumentException("tools: '" + name + "' is neither a profile (" + String.join(", ",
                        PROFILE_NAMES) + ") nor a tool (" + String.join(", ", all) + ")");
            }
        }
        if (chosen.isEmpty() && whole.isEmpty()) {
            throw new IllegalArgumentException("tools: no profile or tool named: '" + spec + "'");
        }
        Map<String, Set<String>> offered = new LinkedHashMap<>();
        for (String tool : all) {
            if (whole.contains(tool)) {
                offered.put(tool, null);
            } else if (chosen.containsKey(tool)) {
                offered.put(tool, Set.copyOf(chosen.get(tool)));
            }
        }
        return new ToolSelection(spec.strip(), offered);
    }

    /** Every tool, with every argument. */
    static ToolSelection full(Collection<String> all) {
        return parse("full", all);
    }

    boolean offers(String tool) {
        return offered.containsKey(tool);
    }

    /** The arguments of a tool offered: those of the given set it offers, in their order. */
    List<String> arguments(String tool, Collection<String> declared) {
        Set<String> only = offered.get(tool);
        return only == null ? List.copyOf(declared) : declared.stream().filter(only::contains).toList();
    }

    Set<String> tools() {
        return offered.keySet();
    }

    @Override
    public String toString() {
        return spec;
    }
}
