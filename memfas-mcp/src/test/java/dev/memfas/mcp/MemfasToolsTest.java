package dev.memfas.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.ContextCurator;
import dev.memfas.Memory;
import dev.memfas.core.Memfas;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

final class MemfasToolsTest {
    private ContextCurator curator;
    private MemfasTools tools;

    @BeforeEach
    void setUp() {
        curator = Memfas.newBuilder().build();
        curator.remember(Memory.builder("The billing service deploys with blue-green on Fridays.").id("m1").build());
        curator.remember(Memory.builder("Kafka retention is seven days.").id("m2").build());
        tools = new MemfasTools(curator, null);
    }

    @AfterEach
    void tearDown() {
        curator.close();
    }

    private static String text(McpSchema.CallToolResult r) {
        return ((McpSchema.TextContent) r.content().get(0)).text();
    }

    private McpSchema.CallToolResult call(String tool, Object... kv) {
        Map<String, Object> args = new HashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            args.put((String) kv[i], kv[i + 1]);
        }
        return tools.call(tool, args);
    }

    @Test
    void listsSixToolsWithSchemas() {
        assertThat(tools.tools()).extracting(t -> t.schema().name())
                .containsExactly("get_context", "report_usage", "set_budget", "remember", "recall", "forget");
        assertThat(tools.tools()).allSatisfy(t -> {
            assertThat(t.schema().description()).isNotBlank();
            assertThat((Map<?, ?>) t.schema().inputSchema().get("properties")).isNotEmpty();
        });
    }

    @Test
    void getContext_returnsTheEnvelope_andAcceptsStringTypedNumbersAndBooleans() {
        McpSchema.CallToolResult r = call("get_context", "query", "how does billing deploy", "token_budget", "300",
                "include_triggers", "true", "session_id", "s1");

        assertThat(r.isError()).isFalse();
        assertThat(text(r)).contains("<memory_context").contains("blue-green");
        @SuppressWarnings("unchecked")
        Map<String, Object> structured = (Map<String, Object>) r.structuredContent();
        assertThat(structured.get("token_budget")).isEqualTo(300);
        assertThat(structured.get("memory_ids")).asList().contains("m1");
    }

    @Test
    void badCallsAreToolErrorsThatNameTheProblem() {
        assertThat(text(call("get_context", "query", "x", "token_budget", "lots"))).isEqualTo(
                "get_context: argument 'token_budget' must be a whole number: 'lots'");
        assertThat(text(call("get_context", "query", "x", "token_budget", 0))).isEqualTo(
                "get_context: argument 'token_budget' must be in [1, 1000000]: 0");
        assertThat(text(call("get_context", "token_budget", 10))).isEqualTo(
                "get_context: missing required argument 'query'");
        assertThat(text(call("get_context", "query", "x", "include_triggers", "maybe"))).isEqualTo(
                "get_context: argument 'include_triggers' must be true or false: 'maybe'");
        assertThat(text(call("get_context", "query", "x", "budget", 10))).startsWith(
                "get_context: unknown argument 'budget'");
        assertThat(text(call("remember", "text", "x", "scope", "galaxy"))).contains("scope must be 'universal'");
        assertThat(text(call("nope"))).startsWith("unknown tool 'nope'");
        assertThat(call("recall", "query", 5).isError()).isFalse();
        assertThat(call("forget", "memory_id", List.of("a")).isError()).isTrue();
    }

    @Test
    void remember_recall_forget_roundTrip() {
        McpSchema.CallToolResult saved = call("remember", "text", "Grafana dashboards live in the ops folder.",
                "kind", "fact", "tags", "ops, grafana");
        assertThat(saved.isError()).isFalse();
        @SuppressWarnings("unchecked")
        String id = (String) ((Map<String, Object>) saved.structuredContent()).get("memory_id");
        assertThat(curator.recall("grafana dashboards", 5).get(0).memory().tags()).containsExactly("ops", "grafana");

        assertThat(text(call("recall", "query", "grafana dashboards", "limit", "3"))).startsWith("1. [" + id + "]");
        assertThat(text(call("forget", "memory_id", id))).isEqualTo("forgot " + id);
        assertThat(text(call("forget", "memory_id", id))).isEqualTo("no memory with id " + id);
    }

    @Test
    void setBudget_appliesPerSessionAndAsDefault() {
        call("set_budget", "token_budget", 40, "session_id", "small");
        call("set_budget", "token_budget", "500");
        @SuppressWarnings("unchecked")
        Map<String, Object> small = (Map<String, Object>) call("get_context", "query", "billing", "session_id",
                "small").structuredContent();
        @SuppressWarnings("unchecked")
        Map<String, Object> other = (Map<String, Object>) call("get_context", "query", "billing", "session_id",
                "other").structuredContent();
        assertThat(small.get("token_budget")).isEqualTo(40);
        assertThat(other.get("token_budget")).isEqualTo(500);
        assertThat(tools.stats()).containsEntry("default_token_budget", 500).containsEntry("memories", 2L);
    }

    @Test
    void reportUsage_acceptsAListOrCommaSeparatedIds() {
        call("get_context", "query", "billing deploy", "session_id", "s");
        assertThat(text(call("report_usage", "session_id", "s", "memory_ids", List.of("m1"))))
                .isEqualTo("recorded 1 memory as helpful in session s");
        assertThat(text(call("report_usage", "session_id", "s", "memory_ids", "m1, m2", "was_helpful", "false")))
                .isEqualTo("recorded 2 memories as not helpful in session s");
    }

    @Test
    void reportUsage_namesTheIdsThatNameNoMemory() {
        McpSchema.CallToolResult r = call("report_usage", "session_id", "s", "memory_ids", List.of("m1", "nope", "gone"));

        assertThat(r.isError()).isFalse();
        assertThat(text(r)).isEqualTo("recorded 1 memory as helpful in session s; no memory has the ids nope, gone");
        @SuppressWarnings("unchecked")
        Map<String, Object> structured = (Map<String, Object>) r.structuredContent();
        assertThat(structured).containsEntry("recorded", List.of("m1")).containsEntry("unknown", List.of("nope", "gone"));
    }
}
