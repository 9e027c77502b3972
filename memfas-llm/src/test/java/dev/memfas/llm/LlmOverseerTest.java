package dev.memfas.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.memfas.ContextCurator;
import dev.memfas.ContextRequest;
import dev.memfas.State;
import dev.memfas.core.Memfas;
import dev.memfas.policy.RelevanceJudge;
import dev.memfas.policy.SavePolicy;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The LLM-backed judge and save policy against a local server speaking the chat-completions protocol. */
final class LlmOverseerTest {
    private static final String KEY = "sk-test-secret-0123456789";
    private static final List<RelevanceJudge.Candidate> CANDIDATES = List.of(
            new RelevanceJudge.Candidate(RelevanceJudge.Kind.STATE, "notes/deploy-window",
                    "\"deploy between 10:00 and 16:00\""),
            new RelevanceJudge.Candidate(RelevanceJudge.Kind.STATE, "notes/lunch-order", "\"two pizzas\""));

    private static ChatEndpoint endpoint(CompletionsServer server, Duration timeout) {
        return ChatEndpoint.builder(server.baseUrl(), "llama3.1").apiKey(KEY).timeout(timeout).build();
    }

    @Test
    void theJudge_asksWithTheGoalAndPreviews_andReadsTheKeys() throws Exception {
        try (CompletionsServer server = new CompletionsServer()
                .answering("{\"relevant_keys\": [\"notes/deploy-window\"]}")) {
            List<String> keys = new LlmRelevanceJudge(endpoint(server, Duration.ofSeconds(5)))
                    .relevant("when can we deploy?", CANDIDATES);

            assertThat(keys).containsExactly("notes/deploy-window");
            CompletionsServer.Seen request = server.seen.get(0);
            assertThat(request.authorization()).isEqualTo("Bearer " + KEY);
            assertThat(request.body()).contains("\"model\":\"llama3.1\"").contains("\"temperature\":0")
                    .contains("\"role\":\"system\"").contains("Goal: when can we deploy?")
                    .contains("- notes/deploy-window: \\\"deploy between 10:00 and 16:00\\\"");
        }
    }

    @Test
    void aFencedAnswer_isRead_butAnythingElseIsAnError() throws Exception {
        try (CompletionsServer server = new CompletionsServer()) {
            LlmRelevanceJudge judge = new LlmRelevanceJudge(endpoint(server, Duration.ofSeconds(5)));

            server.answering("```json\n{\"relevant_keys\": []}\n```");
            assertThat(judge.relevant("goal", CANDIDATES)).isEmpty();
            for (String bad : List.of("The relevant key is notes/deploy-window.",
                    "Sure! {\"relevant_keys\": [\"notes/deploy-window\"]}", "[\"notes/deploy-window\"]",
                    "{\"keys\": [\"notes/deploy-window\"]}", "{\"relevant_keys\": [1, 2]}")) {
                server.answering(bad);
                assertThatThrownBy(() -> judge.relevant("goal", CANDIDATES)).as(bad).isInstanceOf(IOException.class)
                        .hasMessageStartingWith("the model's answer").hasMessageNotContaining(KEY);
            }
        }
    }

    @Test
    void aFailingSlowOrStrangeServer_isAnError_thatNeverNamesTheKey() throws Exception {
        try (CompletionsServer failing = new CompletionsServer().failing(401, "{\"error\": \"bad key\"}");
                CompletionsServer strange = new CompletionsServer().failing(200, "<html>proxy login</html>");
                CompletionsServer slow = new CompletionsServer().slow()) {
            assertThatThrownBy(() -> endpoint(failing, Duration.ofSeconds(5)).complete("s", "u"))
                    .isInstanceOf(IOException.class).hasMessageEndingWith("answered 401: {\"error\": \"bad key\"}")
                    .hasMessageNotContaining(KEY);
            assertThatThrownBy(() -> endpoint(strange, Duration.ofSeconds(5)).complete("s", "u"))
                    .isInstanceOf(IOException.class).hasMessageContaining("not JSON: <html>proxy login</html>");
            assertThatThrownBy(() -> endpoint(slow, Duration.ofMillis(200)).complete("s", "u"))
                    .isInstanceOf(HttpTimeoutException.class);
            assertThat(endpoint(failing, Duration.ofSeconds(5)).toString()).contains("llama3.1").contains("with a key")
                    .doesNotContain(KEY);
        }
    }

    @Test
    void theSavePolicy_readsItsDecisionStrictly() throws Exception {
        try (CompletionsServer server = new CompletionsServer()) {
            LlmSavePolicy policy = new LlmSavePolicy(endpoint(server, Duration.ofSeconds(5)));
            SavePolicy.Offer offer = new SavePolicy.Offer("getTeamLeads", "[\"Ana\", \"Ben\"]", "plan the review");

            server.answering("{\"save\": true, \"key\": \"people/team-leads\", \"reason\": \"lasting people list\"}");
            assertThat(policy.decide(offer)).isEqualTo(SavePolicy.Decision.save("people/team-leads",
                    "lasting people list"));
            assertThat(server.seen.get(0).body()).contains("Tool: getTeamLeads").contains("Goal: plan the review");
            server.answering("{\"save\": false, \"reason\": \"one-off\"}");
            assertThat(policy.decide(offer)).isEqualTo(SavePolicy.Decision.skip("one-off"));
            server.answering("{\"save\": true, \"reason\": \"no key\"}");
            assertThatThrownBy(() -> policy.decide(offer)).hasMessageContaining("saves without a key");
            server.answering("{\"save\": \"yes\", \"reason\": \"strings are not booleans\"}");
            assertThatThrownBy(() -> policy.decide(offer)).hasMessageContaining("needs save (true or false)");
        }
    }

    @Test
    void inACurator_theModelChooses_andWhenItFailsTheCuratorFallsBackToItsOwnChoice() throws Exception {
        try (CompletionsServer server = new CompletionsServer()
                .answering("{\"relevant_keys\": [\"notes/lunch-order\"]}");
                CompletionsServer down = new CompletionsServer().failing(503, "overloaded")) {
            for (CompletionsServer s : List.of(server, down)) {
                try (ContextCurator curator = Memfas.newBuilder()
                        .relevanceJudge(new LlmRelevanceJudge(endpoint(s, Duration.ofSeconds(5))),
                                Duration.ofSeconds(5))
                        .savePolicy(new LlmSavePolicy(endpoint(s, Duration.ofSeconds(5))), Duration.ofSeconds(5))
                        .build()) {
                    curator.state().save("default", "notes/deploy-window", "\"deploy between 10:00 and 16:00\"");
                    curator.state().save("default", "notes/lunch-order", "\"two pizzas, one salad\"");

                    List<String> chosen = curator.getContext(ContextRequest.builder("when can we deploy?")
                            .sessionId("s").state("notes/*").build()).stateKeys();
                    State.SaveOutcome offered = curator.state().offer("default", "getUserProfile",
                            "{\"name\": \"Ana\", \"prefers\": \"short answers\"}", "greet");

                    if (s == server) {
                        assertThat(chosen).containsExactly("notes/lunch-order");
                    } else {
                        assertThat(chosen).containsExactly("notes/deploy-window");
                        assertThat(offered.decidedBy()).isEqualTo("rules");
                    }
                }
            }
        }
    }

    @Test
    void badSettings_areRefused() {
        assertThatThrownBy(() -> ChatEndpoint.builder(URI.create("ftp://host/v1"), "m"))
                .hasMessage("the base URL must be http or https: ftp://host/v1");
        assertThatThrownBy(() -> ChatEndpoint.builder(URI.create("http://localhost/v1"), " "))
                .hasMessage("the model must not be blank");
        assertThatThrownBy(() -> ChatEndpoint.builder(URI.create("http://localhost/v1"), "m").timeout(Duration.ZERO))
                .hasMessage("the timeout must be positive: PT0S");
    }
}
