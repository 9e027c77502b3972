package dev.memfas.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.memfas.ContextCurator;
import dev.memfas.MemoryFilter;
import dev.memfas.core.Memfas;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The chat memory in AiServices: the latest messages as they are, older ones curated back by relevance. */
final class MemfasChatMemoryTest {
    private final ContextCurator curator = Memfas.newBuilder().build();

    interface Assistant {
        String chat(@MemoryId String conversation, @dev.langchain4j.service.UserMessage String message);
    }

    /** A model that answers "noted" and keeps every request. */
    static final class Recorder implements ChatModel {
        final List<ChatRequest> requests = new ArrayList<>();

        @Override
        public ChatResponse doChat(ChatRequest request) {
            requests.add(request);
            return ChatResponse.builder().aiMessage(AiMessage.from("noted")).build();
        }
    }

    @AfterEach
    void close() {
        curator.close();
    }

    @Test
    void withTheRetriever_anEarlyFactLeftTheWindow_andComesBackWhenItIsRelevant() {
        Recorder model = new Recorder();
        Assistant assistant = AiServices.builder(Assistant.class).chatModel(model)
                .chatMemoryProvider(id -> MemfasChatMemory.builder(curator, id).recentMessages(2).build())
                .contentRetriever(MemfasContentRetriever.builder(curator).tokenBudget(300).build())
                .build();

        assistant.chat("c1", "My dog is called Biscuit and he is afraid of thunder.");
        assistant.chat("c1", "I am repainting the kitchen yellow this weekend.");
        assistant.chat("c1", "The invoice for the roof is due on the 12th.");
        assistant.chat("c1", "Remind me what my dog is called?");

        List<ChatMessage> sent = model.requests.get(3).messages();
        String question = ((UserMessage) sent.get(sent.size() - 1)).singleText();
        // The early fact, curated back (with the turns stored next to it, memfas's neighbor context).
        assertThat(question).startsWith("Remind me what my dog is called?")
                .contains("User: My dog is called Biscuit");
        // The last exchange as it was, then the new question: the window of 2 messages, and nothing older.
        assertThat(sent).hasSize(3);
        assertThat(curator.memories().list("default", MemoryFilter.all().source("conversation:c1"), 0, 100)).hasSize(4);
    }

    @Test
    void theWindowNeverBeginsWithAToolResult_andClearForgetsTheConversation() {
        MemfasChatMemory memory = MemfasChatMemory.builder(curator, "c2").recentMessages(2).build();
        memory.add(UserMessage.from("What is the weather?"));
        memory.add(AiMessage.from(List.of(dev.langchain4j.agent.tool.ToolExecutionRequest.builder().id("t1")
                .name("weather").arguments("{}").build())));
        memory.add(ToolExecutionResultMessage.from("t1", "weather", "sunny"));
        memory.add(AiMessage.from("It is sunny."));

        assertThat(memory.messages()).extracting(ChatMessage::type)
                .doesNotContain(dev.langchain4j.data.message.ChatMessageType.TOOL_EXECUTION_RESULT);
        assertThat(curator.memories().list("default", MemoryFilter.all().source("conversation:c2"), 0, 100))
                .extracting(m -> m.text()).containsExactly("User: What is the weather?");

        memory.clear();

        assertThat(memory.messages()).isEmpty();
        assertThat(curator.memories().list("default", MemoryFilter.all().source("conversation:c2"), 0, 100)).isEmpty();
    }
}
