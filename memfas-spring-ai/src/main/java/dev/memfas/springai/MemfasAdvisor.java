package dev.memfas.springai;

import dev.memfas.ContextCurator;
import dev.memfas.ContextRequest;
import dev.memfas.ContextResponse;
import dev.memfas.Memory;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.ai.chat.client.ChatClientMessageAggregator;
import org.springframework.ai.chat.client.ChatClientRequest;
import org.springframework.ai.chat.client.ChatClientResponse;
import org.springframework.ai.chat.client.advisor.api.Advisor;
import org.springframework.ai.chat.client.advisor.api.AdvisorChain;
import org.springframework.ai.chat.client.advisor.api.BaseAdvisor;
import org.springframework.ai.chat.client.advisor.api.StreamAdvisorChain;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.MessageType;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.model.ChatResponse;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * A Spring AI {@link org.springframework.ai.chat.client.ChatClient} advisor backed by memfas. Before the call it
 * curates for the user message, in the conversation's session ({@link ChatMemory#CONVERSATION_ID}, else {@code
 * default}), and appends the {@code <memory_context>} block to the system message, within the token budget. After the
 * call it remembers the exchange (the user message and the answer, kind {@code conversation_turn}, source
 * {@code conversation:ID}) and reports as helpful the curated memories whose id the answer cites.
 *
 * <p>Ordered just after Spring AI's chat memory advisors ({@link #DEFAULT_ORDER}), so that the recent messages they
 * add are in the prompt when it curates, and are passed to the curator as the recent history. Streaming calls are
 * advised too: the answer is remembered once the stream completes.
 *
 * <p>memfas never breaks a chat: if curating fails, the call goes on without memories; if remembering fails, the answer
 * is returned all the same. Each failure is logged, and recorded as the error of the {@code memfas.curate} or
 * {@code memfas.remember} observation. Thread-safe.
 *
 * <pre>{@code
 * ChatClient chat = ChatClient.builder(chatModel)
 *         .defaultAdvisors(MemfasAdvisor.builder(curator).tokenBudget(1500).build())
 *         .build();
 * String answer = chat.prompt().user("How do we deploy billing?")
 *         .advisors(a -> a.param(ChatMemory.CONVERSATION_ID, "user-42"))
 *         .call().content();
 * }</pre>
 */
public final class MemfasAdvisor implements BaseAdvisor {
    /** Just after {@link Advisor#DEFAULT_CHAT_MEMORY_PRECEDENCE_ORDER}, Spring AI's chat memory advisors. */
    public static final int DEFAULT_ORDER = Advisor.DEFAULT_CHAT_MEMORY_PRECEDENCE_ORDER + 100;
    /** The session of a call without a conversation id. */
    public static final String DEFAULT_CONVERSATION = "default";
    /** The request context key under which {@link #before} leaves the ids of the memories it curated. */
    public static final String MEMORY_IDS = "memfas.memory_ids";
    /** The kind of the memories that remember a conversation's messages. */
    public static final String CONVERSATION_TURN = "conversation_turn";

    /** Spring's own logging, so that the advisor needs nothing beyond memfas-api and Spring AI. */
    private static final Log LOG = LogFactory.getLog(MemfasAdvisor.class);
    private static final String USER_TEXT = "memfas.user_text";
    /** The recent messages passed to the curator: enough to read a follow-up ("and the other one?") in context. */
    private static final int RECENT_MESSAGES = 6;

    private final ContextCurator curator;
    private final Integer tokenBudget;
    private final String namespace;
    private final boolean rememberExchanges;
    private final boolean reportUsage;
    private final int order;
    private final ObservationRegistry observations;
    private final Scheduler scheduler;

    private MemfasAdvisor(Builder b) {
        this.curator = b.curator;
        this.tokenBudget = b.tokenBudget;
        this.namespace = b.namespace;
        this.rememberExchanges = b.rememberExchanges;
        this.reportUsage = b.reportUsage;
        this.order = b.order;
        this.observations = b.observations;
        this.scheduler = b.scheduler;
    }

    /** An advisor with the curator's defaults: its budget, the default namespace, remembering every exchange. */
    public static MemfasAdvisor of(ContextCurator curator) {
        return builder(curator).build();
    }

    /** Starts an advisor with options. */
    public static Builder builder(ContextCurator curator) {
        return new Builder(curator);
    }

    @Override
    public ChatClientRequest before(ChatClientRequest request, AdvisorChain chain) {
        UserMessage user = request.prompt().getUserMessage();
        String query = user == null ? null : user.getText();
        if (query == null || query.isBlank()) {
            return request;
        }
        String conversation = conversationId(request.context());
        ContextRequest.Builder ask = ContextRequest.builder(query).sessionId(conversation).namespace(namespace)
                .recentHistory(recentHistory(request.prompt().getInstructions()));
        if (tokenBudget != null) {
            ask.tokenBudget(tokenBudget);
        }
        ContextResponse curated = observed("memfas.curate", () -> curator.getContext(ask.build()));
        ChatClientRequest.Builder advised = request.mutate().context(USER_TEXT, query);
        if (curated == null || curated.memoryIds().isEmpty()) {
            return advised.context(MEMORY_IDS, List.of()).build();
        }
        String block = curated.context();
        return advised.context(MEMORY_IDS, curated.memoryIds())
                .prompt(request.prompt().augmentSystemMessage(system -> {
                    String text = system.getText();
                    return system.mutate().text(text == null || text.isBlank() ? block : text + "\n\n" + block)
                            .build();
                }))
                .build();
    }

    @Override
    public ChatClientResponse after(ChatClientResponse response, AdvisorChain chain) {
        Object query = response.context().get(USER_TEXT);
        String answer = answerOf(response.chatResponse());
        if (!(query instanceof String userText) || answer == null) {
            return response;
        }
        String conversation = conversationId(response.context());
        observed("memfas.remember", () -> {
            if (reportUsage) {
                List<String> cited = new ArrayList<>();
                Object ids = response.context().get(MEMORY_IDS);
                if (ids instanceof List<?> curated) {
                    for (Object id : curated) {
                        if (id instanceof String s && answer.contains(s)) {
                            cited.add(s);
                        }
                    }
                }
                if (!cited.isEmpty()) {
                    curator.upkeep().reportUsage(namespace, conversation, cited, true);
                }
            }
            if (rememberExchanges) {
                String source = "conversation:" + conversation;
                curator.rememberAll(List.of(
                        Memory.builder("User: " + userText).namespace(namespace).kind(CONVERSATION_TURN)
                                .source(source).build(),
                        Memory.builder("Assistant: " + answer).namespace(namespace).kind(CONVERSATION_TURN)
                                .source(source).build()));
            }
            return Boolean.TRUE;
        });
        return response;
    }

    /** Streams as Spring AI's own memory advisors do: the answer is remembered once, whole, when the stream ends. */
    @Override
    public Flux<ChatClientResponse> adviseStream(ChatClientRequest request, StreamAdvisorChain chain) {
        return Mono.just(request).publishOn(scheduler).map(r -> before(r, chain)).flatMapMany(chain::nextStream)
                .transform(flux -> new ChatClientMessageAggregator().aggregateChatClientResponse(flux,
                        response -> after(response, chain)));
    }

    @Override
    public Scheduler getScheduler() {
        return scheduler;
    }

    @Override
    public int getOrder() {
        return order;
    }

    @Override
    public String getName() {
        return "memfas";
    }

    private static String conversationId(Map<String, Object> context) {
        Object id = context.get(ChatMemory.CONVERSATION_ID);
        return id == null || id.toString().isBlank() ? DEFAULT_CONVERSATION : id.toString();
    }

    /** The user and assistant messages before the last user message, the last {@value #RECENT_MESSAGES} of them. */
    private static List<String> recentHistory(List<Message> messages) {
        List<String> history = new ArrayList<>();
        int last = messages.size() - 1;
        while (last >= 0 && messages.get(last).getMessageType() != MessageType.USER) {
            last--;
        }
        for (int i = 0; i < last; i++) {
            Message m = messages.get(i);
            String text = m.getText();
            if ((m.getMessageType() == MessageType.USER || m.getMessageType() == MessageType.ASSISTANT)
                    && text != null && !text.isBlank()) {
                history.add(text);
            }
        }
        return history.size() <= RECENT_MESSAGES ? history : history.subList(history.size() - RECENT_MESSAGES,
                history.size());
    }

    private static String answerOf(ChatResponse response) {
        if (response == null || response.getResult() == null) {
            return null;
        }
        AssistantMessage output = response.getResult().getOutput();
        String text = output == null ? null : output.getText();
        return text == null || text.isBlank() ? null : text;
    }

    /** Runs one memfas step as an observation; a failure is recorded and logged, and gives null. */
    private <T> T observed(String name, Supplier<T> step) {
        Observation observation = Observation.createNotStarted(name, observations)
                .lowCardinalityKeyValue("namespace", namespace).start();
        try (Observation.Scope scope = observation.openScope()) {
            return step.get();
        } catch (RuntimeException e) {
            observation.error(e);
            LOG.warn(name + " failed; the chat goes on without it: " + e);
            return null;
        } finally {
            observation.stop();
        }
    }

    /** Options of a {@link MemfasAdvisor}. Not thread-safe. */
    public static final class Builder {
        private final ContextCurator curator;
        private Integer tokenBudget;
        private String namespace = Memory.DEFAULT_NAMESPACE;
        private boolean rememberExchanges = true;
        private boolean reportUsage = true;
        private int order = DEFAULT_ORDER;
        private ObservationRegistry observations = ObservationRegistry.NOOP;
        private Scheduler scheduler = BaseAdvisor.DEFAULT_SCHEDULER;

        private Builder(ContextCurator curator) {
            this.curator = Objects.requireNonNull(curator, "curator");
        }

        /**
         * The budget of the memories added to the system message; the curator's default when not set.
         *
         * @throws IllegalArgumentException if not positive
         */
        public Builder tokenBudget(int tokens) {
            if (tokens <= 0) {
                throw new IllegalArgumentException("token budget must be positive: " + tokens);
            }
            this.tokenBudget = tokens;
            return this;
        }

        /**
         * The namespace (tenant) the advisor curates from and remembers into; {@code default} when not set.
         *
         * @throws IllegalArgumentException if the name is blank, too long or holds control characters
         */
        public Builder namespace(String namespace) {
            this.namespace = ContextRequest.builder("check").namespace(Objects.requireNonNull(namespace, "namespace"))
                    .build().namespace();
            return this;
        }

        /** Whether each exchange is remembered after the call (default true). */
        public Builder rememberExchanges(boolean remember) {
            this.rememberExchanges = remember;
            return this;
        }

        /**
         * Whether the curated memories an answer cites by id are reported as helpful (default true). Ask the model to
         * cite the {@code id} of each memory it uses for this to learn anything.
         */
        public Builder reportUsage(boolean report) {
            this.reportUsage = report;
            return this;
        }

        /** The advisor's place in the chain; {@link #DEFAULT_ORDER} when not set. */
        public Builder order(int order) {
            this.order = order;
            return this;
        }

        /** Where the {@code memfas.curate} and {@code memfas.remember} observations go; none when not set. */
        public Builder observationRegistry(ObservationRegistry registry) {
            this.observations = Objects.requireNonNull(registry, "registry");
            return this;
        }

        /** The scheduler that runs curation for streaming calls; Spring AI's advisors' default when not set. */
        public Builder scheduler(Scheduler scheduler) {
            this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
            return this;
        }

        public MemfasAdvisor build() {
            return new MemfasAdvisor(this);
        }
    }
}
