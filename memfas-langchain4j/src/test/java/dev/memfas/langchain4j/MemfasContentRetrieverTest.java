package dev.memfas.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.rag.DefaultRetrievalAugmentor;
import dev.langchain4j.rag.content.Content;
import dev.langchain4j.rag.content.ContentMetadata;
import dev.langchain4j.rag.query.Query;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.memfas.ContextCurator;
import dev.memfas.Memory;
import dev.memfas.upkeep.UsageReport;
import dev.memfas.core.Memfas;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The retriever in LangChain4j's own AiServices and augmentor, with a scripted chat model (no network). */
final class MemfasContentRetrieverTest {
    private ContextCurator curator;

    /** An agent that answers with what the scripted model says. */
    interface Assistant {
        String chat(@MemoryId String conversation, @dev.langchain4j.service.UserMessage String message);
    }

    /** A chat model that answers by a script and keeps every request it was sent. */
    static final class ScriptedModel implements ChatModel {
        final List<ChatRequest> requests = new ArrayList<>();
        private final Function<ChatRequest, String> script;

        ScriptedModel(Function<ChatRequest, String> script) {
            this.script = script;
        }

        @Override
        public ChatResponse doChat(ChatRequest request) {
            requests.add(request);
            return ChatResponse.builder().aiMessage(AiMessage.from(script.apply(request))).build();
        }
    }

    @BeforeEach
    void memories() {
        curator = Memfas.newBuilder().build();
        curator.rememberAll(List.of(
                Memory.builder("Deploys go out on Tuesdays after the review.").id("deploy-days").source("team.md")
                        .build(),
                Memory.builder("Deploys need a green build on main.").id("deploy-build").build(),
                Memory.builder("Lunch is at noon on Fridays.").id("lunch").build(),
                Memory.builder("Release notes: " + "every change is described in the changelog before deploys. "
                        .repeat(60)).id("long-notes").build()));
    }

    @AfterEach
    void close() {
        curator.close();
    }

    private static String lastUserText(ChatRequest request) {
        ChatMessage last = request.messages().get(request.messages().size() - 1);
        return ((UserMessage) last).singleText();
    }

    @Test
    void inAiServices_thePromptHoldsTheCuratedMemories_withinTheBudget() {
        ScriptedModel model = new ScriptedModel(r -> "Yes, on Tuesdays [deploy-days].");
        MemfasContentRetriever retriever = MemfasContentRetriever.builder(curator).tokenBudget(300).build();
        Assistant assistant = AiServices.builder(Assistant.class).chatModel(model).contentRetriever(retriever)
                .chatMemoryProvider(id -> MessageWindowChatMemory.withMaxMessages(4)).build();

        String answer = assistant.chat("conv-1", "Can we deploy today?");

        assertThat(answer).isEqualTo("Yes, on Tuesdays [deploy-days].");
        String prompt = lastUserText(model.requests.get(0));
        assertThat(prompt).startsWith("Can we deploy today?").contains("Deploys go out on Tuesdays after the review.")
                .contains("Deploys need a green build on main.").doesNotContain("Lunch is at noon");
        String injected = prompt.substring(prompt.indexOf("Deploys"));
        assertThat(dev.memfas.core.Memfas.defaultTokenizer().count(injected)).isLessThanOrEqualTo(300);
        UsageReport report = retriever.reportUsage("conv-1", answer);
        assertThat(report.recorded()).containsExactly("deploy-days");
        assertThat(curator.get("default", "deploy-days").orElseThrow().accessCount())
                .isGreaterThan(curator.get("default", "deploy-build").orElseThrow().accessCount());
    }

    @Test
    void eachContent_carriesItsMemory_andALongOneIsCut() {
        MemfasContentRetriever retriever = MemfasContentRetriever.builder(curator).tokenBudget(400).build();

        List<Content> contents = retriever.retrieve(Query.from("how do deploys and release notes work?"));

        assertThat(contents).isNotEmpty();
        Content first = contents.get(0);
        assertThat(first.metadata()).containsKeys(ContentMetadata.SCORE, ContentMetadata.EMBEDDING_ID);
        assertThat(first.textSegment().metadata().getString("memory_id")).isNotBlank();
        Content notes = contents.stream()
                .filter(c -> "long-notes".equals(c.textSegment().metadata().getString("memory_id"))).findFirst()
                .orElseThrow();
        assertThat(notes.textSegment().text()).startsWith("[long-notes] Release notes:")
                .hasSizeLessThan(curator.get("default", "long-notes").orElseThrow().memory().text().length());
        Content days = contents.stream()
                .filter(c -> "deploy-days".equals(c.textSegment().metadata().getString("memory_id"))).findFirst()
                .orElseThrow();
        assertThat(days.textSegment().metadata().getString("source")).isEqualTo("team.md");
    }

    @Test
    void theModelSeesEachMemorysId_andAnAnswerThatCitesOne_isReportedUsed() {
        // The model cites the first bracketed id it is shown, as a model told to cite its sources does.
        ScriptedModel model = new ScriptedModel(r -> {
            java.util.regex.Matcher id = java.util.regex.Pattern.compile("\\[([\\w-]+)\\] Deploys go out")
                    .matcher(lastUserText(r));
            return id.find() ? "On Tuesdays [" + id.group(1) + "]." : "I do not know.";
        });
        MemfasContentRetriever retriever = MemfasContentRetriever.builder(curator).tokenBudget(300).build();
        Assistant assistant = AiServices.builder(Assistant.class).chatModel(model).contentRetriever(retriever)
                .chatMemoryProvider(id -> MessageWindowChatMemory.withMaxMessages(4)).build();
        long before = curator.get("default", "deploy-days").orElseThrow().accessCount();

        String answer = assistant.chat("conv-5", "Which day do deploys go out?");
        UsageReport report = retriever.reportUsage("conv-5", answer);

        assertThat(answer).isEqualTo("On Tuesdays [deploy-days].");
        assertThat(lastUserText(model.requests.get(0))).contains("[deploy-days] Deploys go out on Tuesdays");
        assertThat(report.recorded()).containsExactly("deploy-days");
        assertThat(curator.get("default", "deploy-days").orElseThrow().accessCount()).isGreaterThan(before);
    }

    @Test
    void idsInTextOff_showsTheTextAlone_andKeepsTheIdInTheMetadata() {
        MemfasContentRetriever retriever = MemfasContentRetriever.builder(curator).idsInText(false).build();

        List<Content> contents = retriever.retrieve(Query.from("When is lunch?"));

        assertThat(contents).extracting(c -> c.textSegment().text()).contains("Lunch is at noon on Fridays.");
        assertThat(contents).extracting(c -> c.textSegment().metadata().getString("memory_id")).contains("lunch");
    }

    @Test
    void inARetrievalAugmentor_too() {
        ScriptedModel model = new ScriptedModel(r -> "ok");
        Assistant assistant = AiServices.builder(Assistant.class).chatModel(model)
                .retrievalAugmentor(DefaultRetrievalAugmentor.builder()
                        .contentRetriever(MemfasContentRetriever.builder(curator).build()).build())
                .chatMemoryProvider(id -> MessageWindowChatMemory.withMaxMessages(4)).build();

        assistant.chat("conv-2", "When is lunch?");

        assertThat(lastUserText(model.requests.get(0))).contains("Lunch is at noon on Fridays.");
    }

    @Test
    void aFollowUpThatNamesNothing_isReadWithTheChatMemory() {
        ScriptedModel model = new ScriptedModel(r -> "Fridays at noon.");
        Assistant assistant = AiServices.builder(Assistant.class).chatModel(model)
                .contentRetriever(MemfasContentRetriever.builder(curator).build())
                .chatMemoryProvider(id -> MessageWindowChatMemory.withMaxMessages(6)).build();

        assistant.chat("conv-3", "When is lunch?");
        assistant.chat("conv-3", "And then?");
        assistant.chat("conv-4", "And then?");

        assertThat(lastUserText(model.requests.get(1))).startsWith("And then?")
                .contains("Lunch is at noon on Fridays.");
        assertThat(lastUserText(model.requests.get(2))).doesNotContain("Lunch is at noon");
    }

    @Test
    void badSettings_areRefused() {
        assertThatThrownBy(() -> MemfasContentRetriever.builder(curator).tokenBudget(0))
                .hasMessage("the token budget must be positive: 0");
        assertThatThrownBy(() -> MemfasContentRetriever.builder(curator).namespace(" ").build())
                .hasMessageContaining("namespace");
        assertThat(MemfasContentRetriever.builder(curator).build().reportUsage(null, "nothing cited").recorded())
                .isEmpty();
    }
}
