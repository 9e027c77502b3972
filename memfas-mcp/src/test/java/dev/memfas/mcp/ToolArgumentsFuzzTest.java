package dev.memfas.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.memfas.ContextCurator;
import dev.memfas.Memory;
import dev.memfas.core.Memfas;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Tool calls with fuzzed arguments, as a confused or hostile client might send them: every call is answered with a
 * result (a tool error at worst), never an exception, and an error's text is one line that names the tool.
 *
 * <p>{@code JAZZER_FUZZ=1 ./mvnw -B -pl memfas-mcp test -Dtest='ToolArgumentsFuzzTest#toolCalls'} fuzzes it for real.
 */
final class ToolArgumentsFuzzTest {
    private static final String[] TOOLS = {"get_context", "report_usage", "set_budget", "remember", "recall", "get",
        "list", "update", "supersede", "history", "maintain", "restore", "time", "report_event", "orient", "forget", "no_such_tool"};
    private static final String[] NAMES = {"query", "session_id", "token_budget", "include_triggers",
        "recent_history", "namespace", "memory_ids", "was_helpful", "text", "id", "kind", "scope", "tags", "source",
        "pinned", "created_at", "expires_at", "limit", "offset", "since", "memory_id", "as_of", "include_superseded",
        "valid_from", "valid_until", "dry_run", "purge", "timezone", "resolve", "archived", "type", "fix", "unknown"};
    private static final ContextCurator CURATOR = Memfas.newBuilder().build();
    private static final MemfasTools TOOLS_UNDER_TEST = new MemfasTools(CURATOR, null);

    static {
        CURATOR.remember(Memory.builder("Deploys go out on Tuesdays.").id("m1").build());
    }

    @FuzzTest(maxDuration = "2m")
    void toolCalls(FuzzedDataProvider data) {
        String tool = data.pickValue(TOOLS);
        Map<String, Object> args = new HashMap<>();
        int n = data.consumeInt(0, 6);
        for (int i = 0; i < n; i++) {
            args.put(data.pickValue(NAMES), value(data, 0));
        }

        McpSchema.CallToolResult r = TOOLS_UNDER_TEST.call(tool, args);

        assertThat(r).isNotNull();
        if (Boolean.TRUE.equals(r.isError())) {
            String text = ((McpSchema.TextContent) r.content().get(0)).text();
            assertThat(text).doesNotContain("\n\tat ").doesNotContain("Exception:");
        }
    }

    private static Object value(FuzzedDataProvider data, int depth) {
        return switch (data.consumeInt(0, depth < 2 ? 6 : 4)) {
            case 0 -> data.consumeString(200);
            case 1 -> data.consumeInt();
            case 2 -> data.consumeDouble();
            case 3 -> data.consumeBoolean();
            case 4 -> null;
            case 5 -> {
                List<Object> list = new ArrayList<>();
                int n = data.consumeInt(0, 4);
                for (int i = 0; i < n; i++) {
                    list.add(value(data, depth + 1));
                }
                yield list;
            }
            default -> {
                Map<String, Object> map = new HashMap<>();
                map.put(data.consumeString(10), value(data, depth + 1));
                yield map;
            }
        };
    }
}
