package dev.memfas.llm;

import dev.memfas.Conversation;
import dev.memfas.policy.FactExtractor;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A {@link FactExtractor} that asks a chat model for the facts a conversation states: preferences, decisions, dated
 * events and facts about named people, places and things, each one sentence that stands alone, with the numbers of the
 * messages it came from. The messages are shown as a JSON array (so no message can pass for another, or for the
 * instructions), at most {@value #WINDOW_CHARS} characters of them per call; a longer conversation takes several
 * calls. The answer is read strictly: {@code {"facts": [{"text": "...", "kind": "preference", "from": [2, 3]}]}}; an
 * answer of any other shape, or one naming a message it was not shown, is an error, and the conversation is
 * remembered without facts. The tokens read and written and their price are summed into each
 * {@link FactExtractor.Extraction}, and the curator records them in its telemetry.
 *
 * <p>A model is slow: plug it in to run in the background, with {@code Memfas.newBuilder().factExtractor(new
 * LlmFactExtractor(endpoint), Duration.ofMinutes(2))}. Thread-safe.
 */
public final class LlmFactExtractor implements FactExtractor {
    /**
     * The most characters of messages shown in one call: about 3,000 tokens of English, which leaves room for the
     * answer in the 8,192-token context of the smallest models people run locally.
     */
    static final int WINDOW_CHARS = 12_000;
    /** A fact is a sentence: an answer with a longer one is not what was asked for. */
    static final int MOST_FACT_CHARS = 500;
    /** What the model is told it is for. */
    static final String SYSTEM = "You read a conversation and write down what is worth remembering in later"
            + " conversations: preferences, decisions, dated events, and facts about named people, places and things."
            + " Each fact is one short sentence that stands alone: names instead of pronouns, dates as the messages"
            + " give them. Leave out greetings, questions and small talk. Answer with one JSON object and nothing else:"
            + " {\"facts\": [{\"text\": \"the fact\", \"kind\": \"preference\" or \"decision\" or \"event\" or"
            + " \"fact\", \"from\": [the n of each message it comes from]}]}, or {\"facts\": []} when there are none.";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final ChatEndpoint endpoint;

    public LlmFactExtractor(ChatEndpoint endpoint) {
        this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
    }

    /**
     * The facts of the messages.
     *
     * @throws UncheckedIOException if the endpoint fails or answers with something that is not a list of facts about
     *     the messages shown (an interrupted call: an {@link InterruptedIOException} cause, the thread's interrupt
     *     flag set)
     */
    @Override
    public List<Fact> extract(List<Conversation.Message> messages) {
        return extractWithCost(messages).facts();
    }

    /** As {@link #extract}, with the tokens of every call and their price. */
    @Override
    public Extraction extractWithCost(List<Conversation.Message> messages) {
        List<Fact> facts = new ArrayList<>();
        long read = 0;
        long written = 0;
        double cost = 0;
        int start = 0;
        while (start < messages.size()) {
            int end = windowEnd(messages, start);
            ChatEndpoint.Completion answer;
            try {
                answer = endpoint.completion(SYSTEM, prompt(messages, start, end));
                facts.addAll(facts(answer.content(), start, end));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new UncheckedIOException(new InterruptedIOException("interrupted while asking " + endpoint));
            }
            read += answer.inputTokens();
            written += answer.outputTokens();
            cost += answer.cost();
            start = end;
        }
        return new Extraction(facts, read, written, cost);
    }

    /** The end (exclusive) of the window of messages from {@code start}: at least one message, else to the limit. */
    private static int windowEnd(List<Conversation.Message> messages, int start) {
        int chars = 0;
        int end = start;
        while (end < messages.size()) {
            chars += messages.get(end).text().length();
            if (chars > WINDOW_CHARS && end > start) {
                break;
            }
            end++;
        }
        return end;
    }

    /** The messages from {@code start} to {@code end}, as a JSON array of objects with their numbers. */
    private static String prompt(List<Conversation.Message> messages, int start, int end) {
        ArrayNode shown = JSON.createArrayNode();
        for (int i = start; i < end; i++) {
            Conversation.Message m = messages.get(i);
            ObjectNode o = shown.addObject();
            o.put("n", i);
            o.put("author", m.author());
            if (m.at() != null) {
                o.put("at", m.at().toString());
            }
            o.put("text", m.text());
        }
        return "Messages:\n" + JSON.writeValueAsString(shown);
    }

    /** The facts of one answer, each naming only messages of the window shown. */
    private static List<Fact> facts(String answer, int start, int end) throws IOException {
        JsonNode list = JsonAnswer.object(answer).get("facts");
        if (list == null || !list.isArray()) {
            throw new IOException("the model's answer has no facts list: " + JsonAnswer.shown(answer));
        }
        List<Fact> facts = new ArrayList<>();
        for (JsonNode f : list) {
            JsonNode text = f.get("text");
            JsonNode kind = f.get("kind");
            JsonNode from = f.get("from");
            if (text == null || !text.isString() || text.asString().isBlank() || kind == null || !kind.isString()
                    || from == null || !from.isArray() || from.isEmpty()) {
                throw new IOException("the model's answer has a fact without text, kind or from: "
                        + JsonAnswer.shown(f.toString()));
            }
            if (text.asString().length() > MOST_FACT_CHARS) {
                throw new IOException("the model's answer has a fact longer than " + MOST_FACT_CHARS
                        + " characters: " + JsonAnswer.shown(text.asString()));
            }
            List<Integer> positions = new ArrayList<>();
            for (JsonNode n : from) {
                if (!n.isIntegralNumber() || n.asInt() < start || n.asInt() >= end) {
                    throw new IOException("the model's answer names message " + n + ", not one of the " + start
                            + " to " + (end - 1) + " it was shown");
                }
                positions.add(n.asInt());
            }
            try {
                facts.add(new Fact(text.asString().strip(), kind.asString().strip().toLowerCase(Locale.ROOT),
                        positions));
            } catch (IllegalArgumentException e) {
                throw new IOException("the model's answer has a fact memfas cannot store: " + e.getMessage(), e);
            }
        }
        return facts;
    }

    @Override
    public String toString() {
        return "LlmFactExtractor[" + endpoint + "]";
    }
}
