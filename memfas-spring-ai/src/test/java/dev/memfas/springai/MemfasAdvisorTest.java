package dev.memfas.springai;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.ContextCurator;
import dev.memfas.Memory;
import dev.memfas.MemoryFilter;
import dev.memfas.core.Memfas;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.ObservationTextPublisher;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.client.advisor.MessageChatMemoryAdvisor;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.memory.MessageWindowChatMemory;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.MessageType;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.Prompt;
import reactor.core.publisher.Flux;

/** The advisor in Spring AI's own ChatClient, with a scripted chat model that records every prompt it receives. */
final class MemfasAdvisorTest {
    private ContextCurator curator;
    private ScriptedModel model;

    @BeforeEach
    void setUp() {
        curator = Memfas.newBuilder().build();
        curator.remember(Memory.builder("Billing deploys with blue-green on Fridays, after the change review.")
                .id("deploy").build());
        for (int i = 0; i < 60; i++) {
            curator.remember(Memory.builder("Billing note " + i + ": the invoice service retries webhooks "
                    + (i + 2) + " times before it pages the on-call engineer about billing.").id("n" + i).build());
        }
        model = new ScriptedModel(prompt -> "We deploy billing blue-green on Fridays [deploy].");
    }

    @AfterEach
    void tearDown() {
        curator.close();
    }

    @Test
    void theModelSeesTheCuratedBlockInItsSystemMessage_withinTheBudget() {
        ChatClient chat = ChatClient.builder(model).defaultSystem("You are a helpful assistant.")
                .defaultAdvisors(MemfasAdvisor.builder(curator).tokenBudget(200).build()).build();

        String answer = chat.prompt().user("How do we deploy billing?")
                .advisors(a -> a.param(ChatMemory.CONVERSATION_ID, "c1")).call().content();

        assertThat(answer).contains("[deploy]");
        String system = model.prompts.get(0).getSystemMessage().getText();
        assertThat(system).startsWith("You are a helpful assistant.\n\n<memory_context")
                .containsPattern("<memory id=\"deploy\"|\\n\\[deploy\\] ").contains("blue-green on Fridays")
                .endsWith("</memory_context>");
        String block = system.substring(system.indexOf("<memory_context"));
        assertThat(Memfas.defaultTokenizer().count(block)).isLessThanOrEqualTo(200);
        // An item is a tag, or a line under its day's heading that opens with its id.
        assertThat(block.split("<memory id=|\\n\\[", -1).length - 1).as("the budget leaves most of the 61 memories out")
                .isBetween(1, 10);
    }

    @Test
    void afterTheCall_theExchangeIsRemembered_andCitedMemoriesAreReportedHelpful() {
        ChatClient chat = ChatClient.builder(model).defaultAdvisors(MemfasAdvisor.of(curator)).build();

        chat.prompt().user("How do we deploy billing?").advisors(a -> a.param(ChatMemory.CONVERSATION_ID, "c2"))
                .call().content();

        List<Memory> turns = curator.memories().list(Memory.DEFAULT_NAMESPACE,
                MemoryFilter.all().kind(MemfasAdvisor.CONVERSATION_TURN).source("conversation:c2"), 0, 10);
        assertThat(turns).extracting(Memory::text).containsExactlyInAnyOrder("User: How do we deploy billing?",
                "Assistant: We deploy billing blue-green on Fridays [deploy].");
        // Included once by the turn, used once more when the answer cited it; the others were at most included.
        assertThat(curator.get(Memory.DEFAULT_NAMESPACE, "deploy").orElseThrow().accessCount()).isEqualTo(2);
        for (int i = 0; i < 60; i++) {
            assertThat(curator.get(Memory.DEFAULT_NAMESPACE, "n" + i).orElseThrow().accessCount())
                    .isLessThanOrEqualTo(1);
        }
    }

    @Test
    void orderedAfterSpringAisChatMemory_theBlockJoinsTheSystemMessageAboveTheHistory() {
        ChatMemory window = MessageWindowChatMemory.builder().maxMessages(10).build();
        ChatClient chat = ChatClient.builder(model).defaultAdvisors(MemfasAdvisor.builder(curator)
                        .rememberExchanges(false).build(), MessageChatMemoryAdvisor.builder(window).build())
                .build();

        chat.prompt().user("How do we deploy billing?").advisors(a -> a.param(ChatMemory.CONVERSATION_ID, "c3"))
                .call().content();
        chat.prompt().user("On which day does billing deploy?").advisors(a -> a.param(ChatMemory.CONVERSATION_ID, "c3"))
                .call().content();

        assertThat(MemfasAdvisor.of(curator).getOrder())
                .isGreaterThan(MessageChatMemoryAdvisor.builder(window).build().getOrder());
        Prompt second = model.prompts.get(1);
        List<MessageType> types = second.getInstructions().stream().map(Message::getMessageType).toList();
        assertThat(types).containsExactly(MessageType.SYSTEM, MessageType.USER, MessageType.ASSISTANT,
                MessageType.USER);
        assertThat(second.getSystemMessage().getText()).containsPattern("<memory id=\"deploy\"|\\n\\[deploy\\] ");
        assertThat(curator.memories()
                .list(Memory.DEFAULT_NAMESPACE, MemoryFilter.all().kind(MemfasAdvisor.CONVERSATION_TURN),
                0, 10)).isEmpty();
    }

    @Test
    void streaming_isAdvised_andTheWholeAnswerIsRememberedOnce() {
        ChatClient chat = ChatClient.builder(model).defaultAdvisors(MemfasAdvisor.of(curator)).build();

        List<String> chunks = chat.prompt().user("How do we deploy billing?")
                .advisors(a -> a.param(ChatMemory.CONVERSATION_ID, "c4")).stream().content().collectList().block();

        assertThat(String.join("", chunks)).isEqualTo("We deploy billing blue-green on Fridays [deploy].");
        assertThat(model.prompts.get(0).getSystemMessage().getText())
                .containsPattern("<memory id=\"deploy\"|\\n\\[deploy\\] ");
        assertThat(curator.memories().list(Memory.DEFAULT_NAMESPACE,
                MemoryFilter.all().kind(MemfasAdvisor.CONVERSATION_TURN).source("conversation:c4"), 0, 10))
                .extracting(Memory::text)
                .containsExactlyInAnyOrder("User: How do we deploy billing?",
                        "Assistant: We deploy billing blue-green on Fridays [deploy].");
    }

    @Test
    void whenMemfasFails_theChatGoesOn_andTheObservationRecordsTheError() {
        List<String> observed = new CopyOnWriteArrayList<>();
        ObservationRegistry registry = ObservationRegistry.create();
        registry.observationConfig().observationHandler(new ObservationTextPublisher(observed::add));
        ChatClient chat = ChatClient.builder(model)
                .defaultAdvisors(MemfasAdvisor.builder(curator).observationRegistry(registry).build()).build();
        curator.close(); // every memfas call now fails

        String answer = chat.prompt().user("How do we deploy billing?").call().content();

        assertThat(answer).contains("blue-green");
        assertThat(model.prompts.get(0).getInstructions()).noneSatisfy(
                m -> assertThat(m.getText()).contains("memory_context"));
        assertThat(observed).anySatisfy(line -> assertThat(line).contains("memfas.curate").contains("error"));
        assertThat(observed).anySatisfy(line -> assertThat(line).contains("memfas.remember").contains("error"));
    }

    @Test
    void aBadBudgetOrNamespace_failsAtConfiguration() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> MemfasAdvisor.builder(curator).tokenBudget(0))
                .hasMessage("token budget must be positive: 0");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> MemfasAdvisor.builder(curator).namespace(" "))
                .isInstanceOf(IllegalArgumentException.class);
    }

    /** A chat model that answers from a script and keeps every prompt; it streams its answer word by word. */
    static final class ScriptedModel implements ChatModel {
        final List<Prompt> prompts = new CopyOnWriteArrayList<>();
        private final Function<Prompt, String> script;

        ScriptedModel(Function<Prompt, String> script) {
            this.script = script;
        }

        @Override
        public ChatResponse call(Prompt prompt) {
            prompts.add(prompt);
            return new ChatResponse(List.of(new Generation(new AssistantMessage(script.apply(prompt)))));
        }

        @Override
        public Flux<ChatResponse> stream(Prompt prompt) {
            prompts.add(prompt);
            List<ChatResponse> chunks = new ArrayList<>();
            for (String word : script.apply(prompt).split("(?<= )")) {
                chunks.add(new ChatResponse(List.of(new Generation(new AssistantMessage(word)))));
            }
            return Flux.fromIterable(chunks);
        }
    }
}
