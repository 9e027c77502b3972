package dev.memfas.langchain4j;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ChatMessageType;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.ChatMemory;
import dev.memfas.ContextCurator;
import dev.memfas.ContextRequest;
import dev.memfas.Memory;
import dev.memfas.MemoryFilter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Objects;

/**
 * A LangChain4j {@link ChatMemory} that keeps a conversation's last few messages as they are and remembers every older
 * one in memfas, where a {@link MemfasContentRetriever} curates them back by relevance under a token budget: together,
 * the window memory users asked for, by what the current message is about instead of by recency.
 *
 * <p>{@link #messages()} is the system message and the recent messages. A message leaving the recent window is
 * remembered (kind {@code conversation_turn}, source {@code conversation:ID}, prefixed {@code User:} or
 * {@code Assistant:}); tool calls and their results are kept only while recent, and the window never begins with a
 * tool result. Pair it with a {@link MemfasContentRetriever} over the same curator and namespace, which curates for
 * each new user message (LangChain4j asks the chat memory for its messages before it adds the new one, so the memory
 * itself cannot curate for it). {@link #clear()} forgets the conversation, its memories included. Thread-safe.
 */
public final class MemfasChatMemory implements ChatMemory {
    private final ContextCurator curator;
    private final Object id;
    private final String session;
    private final String namespace;
    private final int recentMessages;
    private SystemMessage system;
    private final Deque<ChatMessage> recent = new ArrayDeque<>();

    private MemfasChatMemory(Builder b) {
        this.curator = b.curator;
        this.id = b.id;
        this.session = String.valueOf(b.id);
        this.namespace = b.namespace;
        this.recentMessages = b.recentMessages;
    }

    /** Starts a chat memory for one conversation: the last 4 messages kept as they are. */
    public static Builder builder(ContextCurator curator, Object conversationId) {
        return new Builder(curator, conversationId);
    }

    /** Options of a {@link MemfasChatMemory}. Not thread-safe. */
    public static final class Builder {
        private final ContextCurator curator;
        private final Object id;
        private String namespace = Memory.DEFAULT_NAMESPACE;
        private int recentMessages = 4;

        private Builder(ContextCurator curator, Object id) {
            this.curator = Objects.requireNonNull(curator, "curator");
            this.id = Objects.requireNonNull(id, "conversationId");
        }

        /** The namespace its memories live in; {@code default} when not set. */
        public Builder namespace(String namespace) {
            this.namespace = Objects.requireNonNull(namespace, "namespace");
            return this;
        }

        /** How many of the latest messages are kept as they are; 4 when not set, at least 1. */
        public Builder recentMessages(int count) {
            if (count < 1) {
                throw new IllegalArgumentException("at least one recent message is kept: " + count);
            }
            this.recentMessages = count;
            return this;
        }

        public MemfasChatMemory build() {
            // Checked as a request checks them, so a bad id or namespace fails here and not at the first message.
            ContextRequest.builder("check").namespace(namespace).sessionId(String.valueOf(id)).build();
            return new MemfasChatMemory(this);
        }
    }

    @Override
    public Object id() {
        return id;
    }

    @Override
    public synchronized void add(ChatMessage message) {
        Objects.requireNonNull(message, "message");
        if (message instanceof SystemMessage s) {
            system = s;
            return;
        }
        recent.addLast(message);
        while (recent.size() > recentMessages
                || (!recent.isEmpty() && recent.peekFirst().type() == ChatMessageType.TOOL_EXECUTION_RESULT)) {
            remember(recent.removeFirst());
        }
    }

    @Override
    public synchronized List<ChatMessage> messages() {
        List<ChatMessage> out = new ArrayList<>(recent.size() + 1);
        if (system != null) {
            out.add(system);
        }
        out.addAll(recent);
        return out;
    }

    @Override
    public synchronized void clear() {
        system = null;
        recent.clear();
        MemoryFilter mine = MemoryFilter.all().source(source()).kind("conversation_turn");
        List<String> ids = new ArrayList<>();
        for (int offset = 0; ; offset += 1000) {
            List<Memory> page = curator.memories().list(namespace, mine, offset, 1000);
            for (Memory m : page) {
                if (m.source().equals(source())) {
                    ids.add(m.id());
                }
            }
            if (page.size() < 1000) {
                break;
            }
        }
        ids.forEach(memoryId -> curator.forget(namespace, memoryId));
    }

    private void remember(ChatMessage message) {
        String text = null;
        if (message instanceof UserMessage u && u.hasSingleText()) {
            text = "User: " + u.singleText();
        } else if (message instanceof AiMessage a && !a.hasToolExecutionRequests() && a.text() != null) {
            text = "Assistant: " + a.text();
        }
        if (text != null && !text.isBlank()) {
            curator.remember(Memory.builder(text).namespace(namespace).kind("conversation_turn").source(source())
                    .build());
        }
    }

    private String source() {
        return "conversation:" + session;
    }
}
