package dev.memfas.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.ContextCurator;
import dev.memfas.Memory;
import dev.memfas.RecallRequest;
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
    void listsTheTools_eachWithInputAndOutputSchemas_andAnnotations() {
        assertThat(tools.tools()).extracting(t -> t.schema().name()).containsExactly("get_context", "report_usage",
                "set_budget", "memory_context", "patterns", "remember_conversation", "remember", "recall", "get",
                "list",
                "update", "supersede", "history",
                        "maintain",
                "summarize", "restore", "time", "report_event", "orient", "promote", "working_memory",
                "suggest_triggers", "add_trigger", "save_state", "load_state", "list_state_keys", "search_state",
                "delete_state", "offer", "clear_state", "forget");
        assertThat(tools.tools()).allSatisfy(t -> {
            assertThat(t.schema().description()).isNotBlank();
            assertThat((Map<?, ?>) t.schema().inputSchema().get("properties")).isNotEmpty();
            assertThat(t.schema().outputSchema()).containsEntry("type", "object");
            assertThat(t.schema().annotations().readOnlyHint()).isNotNull();
        });
        assertThat(annotations("get_context").readOnlyHint()).isTrue();
        assertThat(annotations("recall").readOnlyHint()).isTrue();
        assertThat(annotations("forget").destructiveHint()).isTrue();
        assertThat(annotations("forget").idempotentHint()).isTrue();
        assertThat(annotations("remember").readOnlyHint()).isFalse();
    }

    private McpSchema.ToolAnnotations annotations(String tool) {
        return tools.tools().stream().filter(t -> t.schema().name().equals(tool)).findFirst().orElseThrow().schema()
                .annotations();
    }

    /** Every successful result's structured content has exactly the properties its output schema lists. */
    @Test
    void structuredContent_fitsEachToolsOutputSchema() {
        Map<String, McpSchema.CallToolResult> results = new java.util.LinkedHashMap<>();
        results.put("get_context", call("get_context", "query", "billing deploy", "session_id", "s"));
        results.put("report_usage", call("report_usage", "session_id", "s", "memory_ids", List.of("m1")));
        results.put("set_budget", call("set_budget", "token_budget", 300));
        results.put("memory_context", call("memory_context", "scope", "universal"));
        results.put("patterns", call("patterns", "limit", 5));
        results.put("remember_conversation", call("remember_conversation", "session_id", "s", "dry_run", true,
                "messages", List.of(Map.of("author", "user", "text", "I prefer short answers in reviews."))));
        results.put("remember", call("remember", "text", "New fact.", "id", "m3", "pinned", true, "source", "chat",
                "created_at", "2026-11-01", "expires_at", "2030-01-01T00:00:00Z"));
        results.put("recall", call("recall", "query", "kafka"));
        results.put("get", call("get", "memory_id", "m3"));
        results.put("list", call("list", "limit", 2));
        results.put("update", call("update", "memory_id", "m3", "text", "Newer fact."));
        results.put("supersede", call("supersede", "memory_id", "m3", "text", "Newest fact.", "id", "m4"));
        results.put("history", call("history", "memory_id", "m3"));
        call("remember", "text", "The old build server was jenkins-2.", "id", "old", "created_at", "2020-01-01");
        results.put("maintain", call("maintain", "dry_run", false));
        results.put("restore", call("restore", "memory_id", "old"));
        call("remember", "text", "The old build server was jenkins-1.", "id", "older", "created_at", "2019-12-01");
        call("remember", "text", "The old build agents ran jenkins-1 too.", "id", "older2", "created_at", "2019-12-02");
        results.put("summarize", call("summarize", "older_than_days", 365, "dry_run", false));
        results.put("time", call("time", "timezone", "Europe/Berlin", "resolve", "last week"));
        results.put("orient", call("orient", "timezone", "Europe/Berlin"));
        results.put("report_event", call("report_event", "type", "error_occurred", "text", "Build failed: OOM",
                "fix", "raise the heap"));
        call("remember", "text", "Scratch: the lenient parser.", "id", "w1", "session_id", "s", "layer", "working");
        results.put("working_memory", call("working_memory", "session_id", "s"));
        results.put("promote", call("promote", "memory_id", "w1", "layer", "global"));
        results.put("suggest_triggers", call("suggest_triggers"));
        results.put("add_trigger", call("add_trigger", "keyword", "kafka", "memory_ids", List.of("m2")));
        results.put("save_state", call("save_state", "key", "plan", "value", "{\"step\": 1}"));
        results.put("load_state", call("load_state", "key", "plan"));
        results.put("list_state_keys", call("list_state_keys", "include_preview", true));
        results.put("search_state", call("search_state", "glob", "p*"));
        results.put("delete_state", call("delete_state", "key", "plan"));
        results.put("offer",
                call("offer", "tool_name", "getUserProfile", "result", "{\"name\": \"Ana\", \"team\": 7}"));
        results.put("clear_state", call("clear_state"));
        results.put("forget", call("forget", "memory_id", "m3"));
        for (MemfasTools.Tool tool : tools.tools()) {
            McpSchema.CallToolResult r = results.get(tool.schema().name());
            assertThat(r.isError()).as(tool.schema().name() + ": " + text(r)).isFalse();
            @SuppressWarnings("unchecked")
            Map<String, Object> properties = (Map<String, Object>) tool.schema().outputSchema().get("properties");
            @SuppressWarnings("unchecked")
            Map<String, Object> structured = (Map<String, Object>) r.structuredContent();
            assertThat(structured.keySet()).as(tool.schema().name()).isEqualTo(properties.keySet());
        }
    }

    @Test
    void remember_withId_replaces_andKeepsEveryGivenField_updateChangesOnlyWhatItNames() {
        call("remember", "text", "Old text.", "id", "x", "source", "chat", "pinned", "true",
                "created_at", "2026-11-01T09:00:00Z", "tags", "a, b");
        McpSchema.CallToolResult again = call("remember", "text", "Replaced text.", "id", "x", "pinned", true,
                "created_at", "2026-11-01T09:00:00Z");
        assertThat(text(again)).isEqualTo("replaced x in the global layer (default, but no project given)");

        McpSchema.CallToolResult updated = call("update", "memory_id", "x", "kind", "decision");

        @SuppressWarnings("unchecked")
        Map<String, Object> m = (Map<String, Object>) updated.structuredContent();
        assertThat(m).containsEntry("text", "Replaced text.").containsEntry("kind", "decision")
                .containsEntry("pinned", true).containsEntry("created_at", "2026-11-01T09:00:00Z");
        assertThat(text(call("update", "memory_id", "nope", "text", "x")))
                .isEqualTo("update: no memory 'nope' in namespace 'default'");
        assertThat(text(call("remember", "text", "x", "created_at", "last tuesday")))
                .isEqualTo("remember: argument 'created_at' must be an ISO-8601 date-time or YYYY-MM-DD: 'last tuesday'");
    }

    @Test
    void supersede_keepsTheOldMemory_outOfRecallUnlessAsked_andHistoryListsEveryState() {
        call("remember", "text", "Checkout-api owner is Dev.", "id", "dev", "kind", "fact",
                "created_at", "2026-10-01T09:00:00Z");

        McpSchema.CallToolResult superseded = call("supersede", "memory_id", "dev", "text", "Aiko owns checkout-api.",
                "id", "aiko", "valid_from", "2026-11-02");

        assertThat(superseded.isError()).as(text(superseded)).isFalse();
        @SuppressWarnings("unchecked")
        Map<String, Object> aiko = (Map<String, Object>) superseded.structuredContent();
        assertThat(aiko).containsEntry("memory_id", "aiko").containsEntry("kind", "fact")
                .containsEntry("supersedes", List.of("dev")).containsEntry("valid_from", "2026-11-02T00:00:00Z");
        assertThat(text(call("recall", "query", "checkout-api owner"))).contains("[aiko]").doesNotContain("[dev]");
        assertThat(text(call("recall", "query", "checkout-api owner", "include_superseded", true)))
                .contains("[dev]").contains("superseded by aiko");
        assertThat(text(call("recall", "query", "checkout-api owner", "as_of", "2026-10-15")))
                .contains("[dev]").doesNotContain("[aiko]");
        assertThat(text(call("get_context", "query", "checkout-api owner", "include_superseded", true)))
                .contains("superseded-by=\"aiko\"");
        assertThat(text(call("history", "memory_id", "dev"))).startsWith("v1 2026-10-01T09:00:00Z by unknown: created")
                .contains("v2 ").contains("changed validUntil, supersededBy");
        assertThat(text(call("supersede", "memory_id", "dev", "text", "Kim owns it.")))
                .isEqualTo("supersede: memory 'dev' is already superseded by 'aiko'; supersede that one instead");
        assertThat(text(call("history", "memory_id", "nope")))
                .isEqualTo("history: no memory 'nope' in namespace 'default'");
    }

    @Test
    void remember_withoutAnId_ofWhatIsStored_isADuplicate_andValidityIsKept() {
        McpSchema.CallToolResult first = call("remember", "text", "Standup is at 9:30.", "valid_from", "2026-01-01",
                "valid_until", "2030-01-01");
        @SuppressWarnings("unchecked")
        Map<String, Object> made = (Map<String, Object>) first.structuredContent();
        String id = (String) made.get("memory_id");
        assertThat(made).containsEntry("duplicate", false);

        McpSchema.CallToolResult again = call("remember", "text", "standup is at 9:30");

        assertThat(text(again)).startsWith("already remembered as " + id + " in the global layer");
        @SuppressWarnings("unchecked")
        Map<String, Object> dup = (Map<String, Object>) again.structuredContent();
        assertThat(dup).containsEntry("memory_id", id).containsEntry("duplicate", true);
        @SuppressWarnings("unchecked")
        Map<String, Object> got = (Map<String, Object>) call("get", "memory_id", id).structuredContent();
        assertThat(got).containsEntry("valid_from", "2026-01-01T00:00:00Z").containsEntry("evidence_count", 2L);
    }

    @Test
    void maintain_isADryRunUnlessToldOtherwise_restoreBringsBack_andTimeResolvesPhrases() {
        call("remember", "text", "The old build server was jenkins-2.", "id", "old", "created_at", "2020-01-01");

        McpSchema.CallToolResult dry = call("maintain");
        assertThat(text(dry)).startsWith("dry run, nothing changed: 3 live memories examined (0 pinned): 1 archived")
                .contains("archive old");
        assertThat(text(call("recall", "query", "old build server jenkins"))).contains("[old]");
        assertThat(text(call("maintain", "dry_run", false))).contains("1 archived");
        assertThat(text(call("recall", "query", "old build server jenkins"))).doesNotContain("[old]");
        assertThat(text(call("list"))).doesNotContain("[old]").contains("[m1]");
        assertThat(text(call("list", "archived", true))).contains("[old]").doesNotContain("[m1]");
        assertThat(text(call("restore", "memory_id", "old"))).isEqualTo("restored old");
        assertThat(text(call("recall", "query", "old build server jenkins"))).contains("[old]");
        assertThat(text(call("restore", "memory_id", "m1"))).isEqualTo("restore: memory 'm1' is not archived");

        McpSchema.CallToolResult time = call("time", "timezone", "Asia/Tokyo", "resolve", "yesterday");
        @SuppressWarnings("unchecked")
        Map<String, Object> t = (Map<String, Object>) time.structuredContent();
        assertThat((String) t.get("now")).endsWith("+09:00");
        assertThat(t.get("window").toString()).contains("T00:00+09:00");
        assertThat(text(call("time", "timezone", "Mars/Olympus"))).startsWith("time: unknown time zone 'Mars/Olympus'");
        assertThat(text(call("time", "resolve", "after lunch"))).startsWith("time: not a time phrase memfas reads");

        assertThat(text(call("orient"))).contains("first orientation: 3 memories stored");
        call("remember", "text", "Aiko owns checkout-api now.", "id", "aiko");
        McpSchema.CallToolResult back = call("orient", "timezone", "Europe/Berlin");
        assertThat(text(back)).contains("1 memories stored since").contains("[aiko] Aiko owns checkout-api now.");
        @SuppressWarnings("unchecked")
        Map<String, Object> o = (Map<String, Object>) back.structuredContent();
        assertThat(o.get("last_seen")).isNotNull();
        assertThat(o).containsEntry("added", 1);
    }

    @Test
    void reportEvent_remembersAnError_andAnswersTheNextSimilarOneWithItsFix() {
        assertThat(text(call("report_event", "type", "error_occurred", "text", "OutOfMemoryError in the indexer",
                "fix", "raise -Xmx to 2g", "session_id", "s"))).startsWith("remembered as ");

        McpSchema.CallToolResult next = call("report_event", "type", "error_occurred", "text",
                "OutOfMemoryError in the indexer again");

        assertThat(text(next)).contains("similar past error").contains("fixed by: raise -Xmx to 2g");
        String decision = (String) structured(call("report_event", "type", "decision_made", "text",
                "The indexer runs nightly", "project", "Atlas")).get("memory_id");
        assertThat(curator.get("default", decision).orElseThrow().memory().scope().toString())
                .isEqualTo("project:atlas");
        assertThat(text(call("report_event", "type", "file_opened", "text", "Indexer.java")))
                .isEqualTo("noted (not remembered)");
        assertThat(text(call("report_event", "type", "lunch", "text", "x")))
                .startsWith("report_event: unknown event type 'lunch'");
    }

    @Test
    void remember_routesToALayer_getContextSaysEachItemsLayer_andPromoteMovesUp() {
        McpSchema.CallToolResult working = call("remember", "text", "Scratch: trying the blue-green flag on billing.",
                "tags", List.of("temp"), "session_id", "s1");
        McpSchema.CallToolResult decision = call("remember", "text", "Billing deploys need two approvals.",
                "kind", "decision", "project", "billing");

        assertThat(structured(working)).containsEntry("layer", "working").containsEntry("reason", "tag temp");
        assertThat(text(working)).contains("in the working layer (tag temp)");
        assertThat(structured(decision)).containsEntry("layer", "project").containsEntry("reason", "kind decision");
        String workingId = (String) structured(working).get("memory_id");

        Map<String, Object> context = structured(call("get_context", "query", "billing deploy flag", "session_id",
                "s1"));
        @SuppressWarnings("unchecked")
        List<String> ids = (List<String>) context.get("memory_ids");
        @SuppressWarnings("unchecked")
        List<String> layers = (List<String>) context.get("memory_layers");
        assertThat(layers.get(ids.indexOf(workingId))).isEqualTo("working");
        assertThat(layers.get(ids.indexOf(structured(decision).get("memory_id")))).isEqualTo("project");

        McpSchema.CallToolResult down = call("promote", "memory_id", "m1", "layer", "working");
        assertThat(down.isError()).isTrue();
        assertThat(text(down)).contains("lowest layer");
        assertThat(call("remember", "text", "x", "layer", "sideways").isError()).isTrue();
        McpSchema.CallToolResult up = call("promote", "memory_id", workingId, "layer", "global");
        assertThat(text(up)).isEqualTo("promoted " + workingId + " to the global layer");
        assertThat(curator.get("default", workingId)).isPresent();
    }

    @Test
    void rememberConversation_storesTheTurnsAndFacts_aDryRunNothing_andBadMessagesNameTheProblem() {
        List<Map<String, Object>> chat = List.of(
                Map.of("author", "user", "text", "Can you book the trip? I prefer aisle seats on long flights."),
                Map.of("author", "assistant", "text", "Done. The flight is on March 14.", "at",
                        "2026-03-01T10:00:00Z"));
        Map<String, Object> dry = structured(call("remember_conversation", "messages", chat, "session_id", "s9",
                "dry_run", true));
        assertThat(dry).containsEntry("dry_run", true);
        assertThat(curator.memories().list("default", dev.memfas.MemoryFilter.all().source("s9"), 0, 10)).isEmpty();

        McpSchema.CallToolResult stored = call("remember_conversation", "messages", chat, "session_id", "s9");
        assertThat(text(stored)).startsWith("stored 2 messages").contains("(preference) user: I prefer aisle seats")
                .contains("(event) The flight is on March 14.");
        @SuppressWarnings("unchecked")
        List<String> turns = (List<String>) structured(stored).get("turn_ids");
        assertThat(curator.get("default", turns.get(1)).orElseThrow().memory().createdAt())
                .isEqualTo(java.time.Instant.parse("2026-03-01T10:00:00Z"));
        assertThat(text(call("remember_conversation", "messages", chat, "session_id", "s9")))
                .contains("already known [");

        assertThat(text(call("remember_conversation", "messages", List.of(Map.of("author", "user")))))
                .isEqualTo("remember_conversation: messages[0] needs an author and a text, neither blank");
        assertThat(text(call("remember_conversation", "messages", List.of(Map.of("author", "u", "text", "x",
                "when", "now"))))).contains("messages[0]: unknown field 'when'");
        assertThat(text(call("remember_conversation", "messages", List.of())))
                .contains("argument 'messages' must be a list of objects, not empty");
    }

    @Test
    void getContextWithoutAQuery_startsTheSession_fromItsWorkingMemoryAndTheLatest() {
        String scratch = (String) structured(call("remember", "text", "Scratch: bisecting the flaky login test.",
                "tags", List.of("temp"), "session_id", "s1")).get("memory_id");
        call("remember", "text", "Billing deploys need two approvals.", "kind", "decision");

        McpSchema.CallToolResult opened = call("get_context", "session_id", "s1");

        assertThat(opened.isError()).isFalse();
        assertThat(text(opened)).contains("bisecting the flaky login test").contains("two approvals");
        @SuppressWarnings("unchecked")
        List<String> layers = (List<String>) structured(opened).get("memory_layers");
        @SuppressWarnings("unchecked")
        List<String> ids = (List<String>) structured(opened).get("memory_ids");
        assertThat(layers.get(ids.indexOf(scratch))).isEqualTo("working");
        // Another session has no working memory of its own: only the stored memories.
        assertThat(text(call("get_context", "session_id", "s2", "query", ""))).doesNotContain("bisecting")
                .contains("two approvals");
    }

    @Test
    void helpfulReports_teachTriggerSuggestions_thatAreAddedOnlyWhenAsked() {
        for (int i = 0; i < 3; i++) {
            String session = "learn-" + i;
            call("get_context", "query", "kafka retention on the orders topic " + i, "session_id", session);
            call("report_usage", "session_id", session, "memory_ids", List.of("m2"));
        }

        McpSchema.CallToolResult suggested = call("suggest_triggers");

        @SuppressWarnings("unchecked")
        List<Map<String, Object>> suggestions = (List<Map<String, Object>>) structured(suggested).get("suggestions");
        assertThat(suggestions).extracting(m -> m.get("keyword")).contains("kafka", "retention");
        assertThat(suggestions.get(0)).containsEntry("queries", 3).containsEntry("memory_ids", List.of("m2"));
        assertThat(text(suggested)).startsWith(suggestions.size() + " suggestions");
        assertThat(text(call("add_trigger", "keyword", "kafka", "memory_ids", List.of("m2"))))
                .isEqualTo("added trigger 'kafka'");
        assertThat(structured(call("get_context", "query", "kafka?", "session_id", "after")))
                .containsEntry("triggers_matched", List.of("kafka"));
        assertThat(call("add_trigger", "keyword", "lonely").isError()).isTrue();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> structured(McpSchema.CallToolResult r) {
        return (Map<String, Object>) r.structuredContent();
    }

    @Test
    void namespaces_areWalls_forEveryTool() {
        call("remember", "text", "Team secret.", "id", "t1", "namespace", "team");

        assertThat(call("get", "memory_id", "t1").isError()).isTrue();
        assertThat(call("get", "memory_id", "t1", "namespace", "team").isError()).isFalse();
        assertThat(text(call("recall", "query", "team secret"))).doesNotContain("t1");
        assertThat(text(call("recall", "query", "team secret", "namespace", "team"))).contains("t1");
        assertThat(text(call("report_usage", "session_id", "s", "memory_ids", "t1")))
                .endsWith("no memory has the id t1");
    }

    @Test
    void prompt_useMemory_namesTheSession_andTheTools() {
        String text = MemoryPrompt.text("chat \"7\"");
        assertThat(text).contains("\"chat \\\"7\\\"\"").contains("get_context").contains("remember")
                .contains("report_usage");
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
        assertThat(structured.get("memory_ids")).asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.LIST)
                .contains("m1");
    }

    @Test
    void getContext_namingProjectAndLanguage_leavesOutOtherProjectsAndLanguages() {
        call("remember", "text", "Billing in Go: wrap errors with %w", "id", "go", "scope", "language:go");
        call("remember", "text", "Billing in Python: raise BillingError", "id", "py", "scope", "language:python");
        call("remember", "text", "Billing debugging: replay the invoice queue", "id", "task",
                "scope", "project:billing:task:debugging");

        McpSchema.CallToolResult r = call("get_context", "query", "billing errors", "project", "billing",
                "language", "Python", "task", "fix the failing invoice test");

        assertThat(r.isError()).isFalse();
        @SuppressWarnings("unchecked")
        List<String> ids = (List<String>) ((Map<String, Object>) r.structuredContent()).get("memory_ids");
        assertThat(ids).contains("task", "py").doesNotContain("go");
        assertThat(text(call("get_context", "query", "billing errors", "project", "billing", "group_by_scope", "true")))
                .contains("<scope name=\"project:billing:task:debugging\">");
        assertThat(text(call("get_context", "query", "billing", "project", " "))).contains("project must not be blank");
    }

    @Test
    void memoryContext_listsWhatAppliesInAScope_andTheServersWorkingContextIsTheDefault() {
        call("remember", "text", "Billing: never retry a charge", "id", "bill", "kind", "rule",
                "scope", "project:billing");
        call("remember", "text", "Search: cache for a minute", "id", "search", "kind", "rule",
                "scope", "project:search");
        call("remember", "text", "Prefer small commits", "id", "small", "kind", "rule");
        MemfasTools here = new MemfasTools(curator, null, new WorkingContext("billing", null, null), "full");

        McpSchema.CallToolResult asked = call("memory_context", "scope", "project:search", "kind", "rule");
        McpSchema.CallToolResult byDefault = here.call("memory_context", Map.of("kind", "rule"));

        assertThat(text(asked)).startsWith("2 memories apply in project:search\n- [search]").contains("[small]")
                .doesNotContain("[bill]");
        assertThat(text(byDefault)).startsWith("2 memories apply in project:billing\n- [bill]")
                .doesNotContain("[search]");
        McpSchema.CallToolResult context = here.call("get_context", Map.of("query", "retry the search cache"));
        assertThat(text(context)).doesNotContain("cache for a minute");
        assertThat(text(call("memory_context", "scope", "team:x"))).contains("scope must be");
        assertThat(text(call("memory_context", "limit", 500))).contains("'limit' must be in [1, 200]");
    }

    @Test
    void aServerOfOneNamespace_refusesCallsNamingAnother_andWorksInItsOwnByDefault() {
        MemfasTools acme = new MemfasTools(curator, null, new WorkingContext(null, null, "acme"), "full");

        McpSchema.CallToolResult remembered = acme
                .call("remember", Map.of("text", "Acme ships on Mondays", "id", "a1"));
        McpSchema.CallToolResult elsewhere = acme.call("recall", Map.of("query", "billing", "namespace", "default"));

        assertThat(remembered.isError()).as(text(remembered)).isFalse();
        assertThat(curator.get("acme", "a1")).isPresent();
        assertThat(curator.get("default", "a1")).isEmpty();
        assertThat(elsewhere.isError()).isTrue();
        assertThat(text(elsewhere)).isEqualTo("recall: this server serves the namespace 'acme' only, not 'default'");
        assertThat(text(acme.call("get_context", Map.of("query", "billing deploys")))).doesNotContain("blue-green");
        assertThat(text(acme.call("get", Map.of("memory_id", "m1")))).contains("no memory");
        assertThat(acme.call("recall", Map.of("query", "ships", "namespace", "acme")).isError()).isFalse();
        assertThat(acme.stats()).containsEntry("memories", 1L);
        assertThat(tools.stats()).containsEntry("memories", 3L);
    }

    @Test
    void filters_restrictListRecallAndGetContext_alike() {
        call("remember", "text", "Billing retries charges twice.", "id", "b2", "source", "notes/billing.md",
                "created_at", "2026-01-10");
        call("remember", "text", "Billing invoices go out monthly.", "id", "b3", "source", "chat-9",
                "created_at", "2026-03-10");

        McpSchema.CallToolResult listed = call("list", "source", "notes/", "until", "2026-02-01");
        McpSchema.CallToolResult recalled = call("recall", "query", "billing", "source", "chat-");
        McpSchema.CallToolResult context = call("get_context", "query", "billing", "topic", "invoices");

        assertThat(text(listed)).contains("b2").doesNotContain("b3");
        assertThat(text(recalled)).contains("[b3]").doesNotContain("[b2]").doesNotContain("[m1]");
        assertThat(text(context)).contains("invoices go out monthly").doesNotContain("retries")
                .doesNotContain("blue-green");
        // A blank argument is no filter, as for every optional argument.
        assertThat(text(call("recall", "query", "billing", "topic", " "))).contains("[b2]").contains("[b3]");
    }

    @Test
    void state_isSavedLoadedListedSearchedAndDeleted_perNamespace() {
        call("save_state", "key", "plan", "value", "{\"step\": 2}");
        call("save_state", "key", "plan", "value", "\"theirs\"", "namespace", "acme");

        assertThat(text(call("load_state", "key", "plan"))).isEqualTo("{\"step\": 2}");
        assertThat(text(call("load_state", "key", "plan", "namespace", "acme"))).isEqualTo("\"theirs\"");
        assertThat(text(call("list_state_keys", "include_preview", "true"))).startsWith("plan (11 chars, ")
                .endsWith(": {\"step\": 2}");
        assertThat(text(call("search_state", "glob", "pl?n"))).isEqualTo("plan: {\"step\": 2}");
        assertThat(text(call("save_state", "key", "plan", "value", "oops")))
                .isEqualTo("save_state: state value of 'plan' is not JSON: expected a value at char 0 near 'oops'");
        assertThat(text(call("delete_state", "key", "plan"))).isEqualTo("deleted plan");
        assertThat(text(call("load_state", "key", "plan"))).isEqualTo("no state under plan");
        assertThat(text(call("load_state", "key", "plan", "namespace", "acme"))).isEqualTo("\"theirs\"");
        call("save_state", "key", "deploy/window", "value", "\"deploys between 10 and 16\"");
        McpSchema.CallToolResult context = call("get_context", "query", "billing deploys", "state", "deploy/*");
        assertThat(text(context)).contains("<state key=\"deploy/window\">\"deploys between 10 and 16\"</state>");
        assertThat(((Map<?, ?>) context.structuredContent()).get("state_keys")).isEqualTo(List.of("deploy/window"));
        assertThat(text(call("offer", "tool_name", "getCurrentDate", "result", "\"2026-11-24, a Tuesday\"")))
                .isEqualTo("not saved: a utility tool's result");
        assertThat(text(call("offer", "tool_name", "getUserProfile", "result", "{\"name\": \"Ana\", \"team\": 7}")))
                .isEqualTo("saved under tool/getUserProfile: a tool's result worth keeping across sessions");
    }

    @Test
    void badCallsAreToolErrorsThatNameTheProblem() {
        assertThat(text(call("get_context", "query", "x", "token_budget", "lots"))).isEqualTo(
                "get_context: argument 'token_budget' must be a whole number: 'lots'");
        assertThat(text(call("get_context", "query", "x", "token_budget", 0))).isEqualTo(
                "get_context: argument 'token_budget' must be in [1, 1000000]: 0");
        assertThat(text(call("recall", "limit", 10))).isEqualTo("recall: missing required argument 'query'");
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
        assertThat(curator.recall(RecallRequest.builder("grafana dashboards").limit(5).build()).get(0).memory().tags())
                .containsExactly("ops", "grafana");

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
    void levelsAndTiers_sizeOneCall_andSetBudgetTakesALevel_forOneSessionOnly() {
        assertThat(budget(call("get_context", "query", "billing", "level", "lean"))).isEqualTo(800);
        assertThat(budget(call("get_context", "query", "billing", "tier", "standard"))).isEqualTo(4000);
        assertThat(budget(call("get_context", "query", "billing", "level", "1", "token_budget", 90))).isEqualTo(90);

        McpSchema.CallToolResult set = call("set_budget", "level", "minimal", "session_id", "terse");

        assertThat(text(set)).isEqualTo("size of session terse set to level minimal (300 tokens)");
        assertThat(budget(call("get_context", "query", "billing", "session_id", "terse"))).isEqualTo(300);
        assertThat(budget(call("get_context", "query", "billing", "session_id", "other"))).isNotEqualTo(300);
        assertThat(budget(call("get_context", "query", "billing", "session_id", "terse", "level", "rich")))
                .isEqualTo(3000);
        assertThat(text(call("set_budget", "level", "huge"))).contains("unknown level 'huge'");
        assertThat(text(call("set_budget"))).contains("give either 'token_budget' or 'level'");
        assertThat(text(call("get_context", "query", "q", "level", "lean", "tier", "minimal")))
                .contains("a request has a level or a tier, not both");
    }

    private static Object budget(McpSchema.CallToolResult r) {
        assertThat(r.isError()).as(text(r)).isFalse();
        return ((Map<?, ?>) r.structuredContent()).get("token_budget");
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
        McpSchema.CallToolResult r = call("report_usage", "session_id", "s", "memory_ids",
                List.of("m1", "nope", "gone"));

        assertThat(r.isError()).isFalse();
        assertThat(text(r)).isEqualTo("recorded 1 memory as helpful in session s; no memory has the ids nope, gone");
        @SuppressWarnings("unchecked")
        Map<String, Object> structured = (Map<String, Object>) r.structuredContent();
        assertThat(structured).containsEntry("recorded", List.of("m1"))
                .containsEntry("unknown", List.of("nope", "gone"));
    }

    @Test
    void getContext_accountsForWhatItScoredAndDropped_andLogsTheTokensSavedAgainstABaseline() {
        List<dev.memfas.telemetry.TurnTelemetry> turns = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (ContextCurator logged = Memfas.newBuilder().telemetryListener(turns::add).build()) {
            logged.remember(Memory.builder("The billing service deploys with blue-green on Fridays.").id("m1").build());
            logged.remember(Memory.builder("Kafka retention is seven days.").id("m2").build());
            MemfasTools served = new MemfasTools(logged, null);

            McpSchema.CallToolResult r = served.call("get_context", Map.of("query", "how does billing deploy?",
                    "baseline_tokens", "12000"));

            Map<?, ?> structured = (Map<?, ?>) r.structuredContent();
            assertThat((Integer) structured.get("memories_scored")).isPositive();
            assertThat(turns).singleElement().satisfies(t -> {
                assertThat(structured.get("memories_scored")).isEqualTo(t.memoriesScored());
                assertThat(structured.get("memories_dropped")).isEqualTo(t.memoriesDropped());
                assertThat(t.baselineTokens()).hasValue(12_000);
                assertThat(t.tokensSaved()).hasValue(12_000 - t.curatedTokens());
            });
            assertThat(text(served.call("get_context", Map.of("query", "q", "baseline_tokens", -1))))
                    .contains("baseline_tokens");
        }
    }

    @Test
    void remember_takesAnAuthor_whomHistoryAndGetThenName() {
        McpSchema.CallToolResult r = call("remember", "text", "We moved the standup to 9:30.", "id", "standup",
                "author", "Caroline");

        assertThat(r.isError()).as(text(r)).isFalse();
        assertThat(curator.get("default", "standup").orElseThrow().memory().author()).isEqualTo("Caroline");
        assertThat(text(call("history", "memory_id", "standup"))).contains("Caroline").doesNotContain("unknown");
        assertThat(call("remember", "text", "x", "author", "bad\u0007name").isError()).isTrue();
    }
}
