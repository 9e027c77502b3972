package dev.memfas.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.memfas.ContextCurator;
import dev.memfas.Memory;
import dev.memfas.spi.StoredMemory;
import dev.memfas.core.Memfas;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

final class ToolSelectionTest {
    private static final Path MCP_DOC = Path.of("../docs/mcp.md");

    private ContextCurator curator;

    @BeforeEach
    void setUp() {
        curator = Memfas.newBuilder().build();
    }

    @AfterEach
    void tearDown() {
        curator.close();
    }

    private MemfasTools tools(String selection) {
        return new MemfasTools(curator, null, WorkingContext.NONE, selection);
    }

    /** The characters of {@code tools/list}'s result as the server sends it. */
    private static int listSize(MemfasTools tools) throws IOException {
        List<McpSchema.Tool> schemas = tools.tools().stream().map(MemfasTools.Tool::schema).toList();
        return McpJsonDefaults.getMapper().writeValueAsString(new McpSchema.ListToolsResult(schemas, null)).length();
    }

    private static List<String> names(MemfasTools tools) {
        return tools.tools().stream().map(t -> t.schema().name()).toList();
    }

    private static String text(McpSchema.CallToolResult r) {
        return ((McpSchema.TextContent) r.content().get(0)).text();
    }

    private static Map<String, Object> args(Object... kv) {
        Map<String, Object> args = new HashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            args.put((String) kv[i], kv[i + 1]);
        }
        return args;
    }

    // ---------------------------------------------------------------- profiles

    @Test
    void core_isTheLoopOfATurn_inUnder8000Characters() throws IOException {
        MemfasTools core = tools("core");

        assertThat(names(core)).containsExactly("get_context", "report_usage", "remember", "recall", "forget");
        assertThat(listSize(core)).isLessThanOrEqualTo(8_000);
        assertThat(arguments(core, "get_context")).containsExactly("query", "session_id", "token_budget",
                "recent_history", "baseline_tokens", "namespace");
    }

    @Test
    void full_isEveryTool_withEveryArgument() {
        MemfasTools full = tools("full");

        assertThat(names(full)).hasSize(31).contains("maintain", "save_state", "time", "patterns",
                "remember_conversation");
        assertThat(arguments(full, "get_context")).contains("level", "tier", "as_of", "state", "project");
    }

    @Test
    void profilesAndTools_combine_aToolNamedAloneComesWhole() {
        MemfasTools some = tools(" core , state,time,get_context ");

        assertThat(names(some)).containsExactly("get_context", "report_usage", "remember", "recall", "time",
                "save_state", "load_state", "list_state_keys", "search_state", "delete_state", "offer", "clear_state",
                "forget");
        assertThat(arguments(some, "get_context")).contains("level", "as_of");
        assertThat(arguments(some, "remember")).doesNotContain("layer");
    }

    @Test
    void selection_unknownName_throwsNamingItAndTheChoices() {
        assertThatThrownBy(() -> tools("core,memories"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("tools: 'memories' is neither a profile (core, state, full) nor a tool"
                        + " (get_context, report_usage,");
        assertThatThrownBy(() -> tools(" , ")).hasMessage("tools: no profile or tool named: ' , '");
    }

    @Test
    void core_refusesWhatItDoesNotOffer_sayingWhereItIs() {
        MemfasTools core = tools("core");

        McpSchema.CallToolResult level = core.call("get_context", args("query", "q", "level", "rich"));
        McpSchema.CallToolResult maintain = core.call("maintain", args());

        assertThat(level.isError()).isTrue();
        assertThat(text(level)).isEqualTo("get_context: unknown argument 'level' (get_context takes baseline_tokens,"
                + " namespace, query, recent_history, session_id, token_budget)");
        assertThat(maintain.isError()).isTrue();
        assertThat(text(maintain)).isEqualTo("unknown tool 'maintain' (this server offers get_context, report_usage,"
                + " remember, recall, forget; 'maintain' is in the profile 'full')");
    }

    private static List<String> arguments(MemfasTools tools, String tool) {
        Map<?, ?> properties = (Map<?, ?>) tools.tools().stream().filter(t -> t.schema().name().equals(tool))
                .findFirst().orElseThrow().schema().inputSchema().get("properties");
        return properties.keySet().stream().map(Object::toString).toList();
    }

    // ---------------------------------------------------------------- remember with supersedes

    @Test
    void remember_supersedes_keepsTheOldMarked_andTakesItsKindAndTags() {
        curator.remember(Memory.builder("Deploys go out on Tuesdays.").id("old").kind("decision").tags(List.of("ops"))
                .build());
        MemfasTools core = tools("core");

        McpSchema.CallToolResult r = core.call("remember", args("text", "Deploys go out on Thursdays.", "id", "new",
                "supersedes", "old"));

        assertThat(r.isError()).as(text(r)).isFalse();
        assertThat(text(r)).isEqualTo("remembered as new in the global layer (supersedes old)");
        StoredMemory old = curator.get(Memory.DEFAULT_NAMESPACE, "old").orElseThrow();
        StoredMemory now = curator.get(Memory.DEFAULT_NAMESPACE, "new").orElseThrow();
        assertThat(old.memory().supersededBy()).isEqualTo("new");
        assertThat(now.memory().kind()).isEqualTo("decision");
        assertThat(now.memory().tags()).containsExactly("ops");
        assertThat(now.memory().supersedes()).containsExactly("old");
    }

    @Test
    void remember_supersedesAMissingMemory_isAToolErrorNamingIt() {
        McpSchema.CallToolResult r = tools("core").call("remember", args("text", "x", "supersedes", "ghost"));

        assertThat(r.isError()).isTrue();
        assertThat(text(r)).isEqualTo("remember: no memory 'ghost' in namespace 'default'");
        assertThat(curator.stats().memories()).isZero();
    }

    // ---------------------------------------------------------------- the sizes docs/mcp.md prints

    /** docs/mcp.md prints each profile's size: the table must say what the server sends today. */
    @Test
    void docsPrintEachProfilesSize_asMeasured() throws IOException {
        String doc = Files.readString(MCP_DOC, StandardCharsets.UTF_8);
        Map<String, String> printed = new LinkedHashMap<>();
        Matcher row = Pattern.compile("(?m)^\\| `([a-z_,]+)` \\| (\\d+) \\| ([\\d,]+) \\|").matcher(doc);
        while (row.find()) {
            printed.put(row.group(1), row.group(2) + " " + row.group(3).replace(",", ""));
        }
        Map<String, String> measured = new LinkedHashMap<>();
        for (String profile : List.of("core", "state", "core,state", "full")) {
            MemfasTools t = tools(profile);
            measured.put(profile, names(t).size() + " " + listSize(t));
        }
        assertThat(printed).isEqualTo(measured);
    }
}
