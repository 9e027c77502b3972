package dev.memfas.langchain4j;

import dev.langchain4j.data.document.Metadata;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.rag.content.Content;
import dev.langchain4j.rag.content.ContentMetadata;
import dev.langchain4j.rag.content.retriever.ContentRetriever;
import dev.langchain4j.rag.query.Query;
import dev.memfas.ContextCurator;
import dev.memfas.ContextItem;
import dev.memfas.ContextRequest;
import dev.memfas.ContextResponse;
import dev.memfas.Memory;
import dev.memfas.upkeep.UsageReport;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A LangChain4j {@link ContentRetriever} backed by a memfas curator: each query is one {@code getContext}, limited by a
 * token budget rather than a count of results, in the session of the query's chat memory id (so the session's topic
 * and hot memories carry from turn to turn), with the last {@value #RECENT_MESSAGES} user and AI messages of the chat
 * memory as recent history (so a follow-up that names nothing, "Tell me more about that.", is read with its
 * conversation). Each included memory becomes one {@link Content}: its text as the context holds it (cut to the
 * per-item cap if need be), opened by its id in brackets ({@code [deploy-days] Deploys go out on Tuesdays.}) so that
 * the model can cite what it used (LangChain4j's content injector shows the text alone, not the metadata;
 * {@link Builder#idsInText(boolean)} turns this off), and its memory id, score, source and layer as metadata
 * ({@code memory_id}, {@code score}, {@code source}, {@code layer}; {@link ContentMetadata#SCORE} and
 * {@link ContentMetadata#EMBEDDING_ID} too). Use it with {@code AiServices.builder(...).contentRetriever(...)} or in
 * a {@code DefaultRetrievalAugmentor}.
 *
 * <p>{@link #reportUsage} tells the curator which of the last retrieval's memories an answer used. Thread-safe.
 */
public final class MemfasContentRetriever implements ContentRetriever {
    /** The session of a query without a chat memory id. */
    public static final String DEFAULT_SESSION = "langchain4j";
    /** How many of the chat memory's last user and AI messages go with a query as its recent history. */
    static final int RECENT_MESSAGES = 6;
    private static final int MAX_SESSIONS = 10_000;

    private final ContextCurator curator;
    private final int tokenBudget;
    private final String namespace;
    private final boolean idsInText;
    /** The memories each session's last retrieval returned, for {@link #reportUsage}; bounded. */
    private final Map<String, List<String>> lastRetrieved = new ConcurrentHashMap<>();

    private MemfasContentRetriever(Builder b) {
        this.curator = b.curator;
        this.tokenBudget = b.tokenBudget;
        this.namespace = b.namespace;
        this.idsInText = b.idsInText;
    }

    /** Starts a retriever over a curator: a budget of 1,000 tokens per query in the default namespace. */
    public static Builder builder(ContextCurator curator) {
        return new Builder(curator);
    }

    /** Options of a {@link MemfasContentRetriever}. Not thread-safe. */
    public static final class Builder {
        private final ContextCurator curator;
        private int tokenBudget = 1_000;
        private String namespace = Memory.DEFAULT_NAMESPACE;
        private boolean idsInText = true;

        private Builder(ContextCurator curator) {
            this.curator = Objects.requireNonNull(curator, "curator");
        }

        /**
         * The most tokens the memories of one query may take; 1,000 when not set.
         *
         * @throws IllegalArgumentException if not positive
         */
        public Builder tokenBudget(int tokens) {
            if (tokens < 1) {
                throw new IllegalArgumentException("the token budget must be positive: " + tokens);
            }
            this.tokenBudget = tokens;
            return this;
        }

        /** The namespace to curate from; {@code default} when not set. */
        public Builder namespace(String namespace) {
            this.namespace = Objects.requireNonNull(namespace, "namespace");
            return this;
        }

        /**
         * Whether each content's text opens with its memory id in brackets, which is what the model sees and can cite
         * for {@link #reportUsage}; true when not set. Off, the id is in the metadata only, which LangChain4j's default
         * content injector leaves out of the prompt.
         */
        public Builder idsInText(boolean idsInText) {
            this.idsInText = idsInText;
            return this;
        }

        public MemfasContentRetriever build() {
            // Checked as a request checks it, so a bad namespace fails here and not at the first query.
            ContextRequest.builder("check").namespace(namespace).build();
            return new MemfasContentRetriever(this);
        }
    }

    @Override
    public List<Content> retrieve(Query query) {
        Objects.requireNonNull(query, "query");
        String session = session(query);
        ContextResponse r = curator.getContext(ContextRequest.builder(query.text()).namespace(namespace)
                .sessionId(session).tokenBudget(tokenBudget).recentHistory(recentHistory(query)).build());
        List<Content> contents = new ArrayList<>(r.items().size());
        List<String> ids = new ArrayList<>(r.items().size());
        for (ContextItem item : r.items()) {
            Map<String, Object> meta = new LinkedHashMap<>();
            meta.put("memory_id", item.memoryId());
            meta.put("score", item.score());
            meta.put("source", item.source());
            meta.put("layer", item.layer().label());
            String text = idsInText ? "[" + item.memoryId() + "] " + item.text() : item.text();
            contents.add(Content.from(TextSegment.from(text, Metadata.from(meta)),
                    Map.of(ContentMetadata.SCORE, item.score(), ContentMetadata.EMBEDDING_ID, item.memoryId())));
            ids.add(item.memoryId());
        }
        if (lastRetrieved.size() >= MAX_SESSIONS && !lastRetrieved.containsKey(session)) {
            lastRetrieved.clear();
        }
        lastRetrieved.put(session, List.copyOf(ids));
        return contents;
    }

    /**
     * Tells the curator which memories of a session's last retrieval the answer used: those whose id the answer cites
     * (ask the model to cite the bracketed id that opens each memory it used) count as helpful. Nothing is reported
     * when the session retrieved nothing or the answer cites none.
     *
     * @param chatMemoryId the chat memory id the query carried, or null for queries without one
     * @return what the curator recorded
     */
    public UsageReport reportUsage(Object chatMemoryId, String answer) {
        Objects.requireNonNull(answer, "answer");
        String session = chatMemoryId == null ? DEFAULT_SESSION : String.valueOf(chatMemoryId);
        List<String> used = new ArrayList<>();
        for (String id : lastRetrieved.getOrDefault(session, List.of())) {
            if (answer.contains(id)) {
                used.add(id);
            }
        }
        if (used.isEmpty()) {
            return new UsageReport(List.of(), List.of());
        }
        return curator.upkeep().reportUsage(namespace, session, used, true);
    }

    private static String session(Query query) {
        Object id = query.metadata() == null ? null : query.metadata().chatMemoryId();
        return id == null ? DEFAULT_SESSION : String.valueOf(id);
    }

    /** The texts of the last {@value #RECENT_MESSAGES} user and AI messages of the query's chat memory, in order. */
    private static List<String> recentHistory(Query query) {
        List<ChatMessage> memory = query.metadata() == null ? null : query.metadata().chatMemory();
        if (memory == null) {
            return List.of();
        }
        List<String> history = new ArrayList<>();
        for (ChatMessage m : memory) {
            String text = m instanceof UserMessage u && u.hasSingleText() ? u.singleText()
                    : m instanceof AiMessage a ? a.text() : null;
            if (text != null && !text.isBlank()) {
                history.add(text);
            }
        }
        return history.size() <= RECENT_MESSAGES ? history
                : List.copyOf(history.subList(history.size() - RECENT_MESSAGES, history.size()));
    }
}
