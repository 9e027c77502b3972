package dev.memfas.llm;

import dev.memfas.policy.RelevanceJudge;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import tools.jackson.databind.JsonNode;

/**
 * A {@link RelevanceJudge} that asks a chat model which of a goal's state keys or memories are relevant, each shown by
 * its key and the start of its value or text (not by names alone, as the Memory Overseer design did), and reads its
 * answer strictly:
 * {@code {"relevant_keys": ["key", ...]}}. An answer of any other shape is an error, which the curator meets by
 * choosing by words. Plug it in with {@code Memfas.newBuilder().relevanceJudge(new LlmRelevanceJudge(endpoint),
 * Duration.ofSeconds(2))}. Thread-safe.
 */
public final class LlmRelevanceJudge implements RelevanceJudge {
    /** What the model is told it is for. */
    static final String SYSTEM = "You choose which saved state or memories are relevant to an agent's goal. Answer"
            + " with one JSON object and nothing else: {\"relevant_keys\": [\"key\", ...]}, the keys of the relevant items, or []"
            + " when none is. Use only keys from the list.";

    private final ChatEndpoint endpoint;

    public LlmRelevanceJudge(ChatEndpoint endpoint) {
        this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
    }

    @Override
    public List<String> relevant(String goal, List<Candidate> candidates) throws IOException, InterruptedException {
        StringBuilder user = new StringBuilder("Goal: ").append(goal);
        list(user, "Saved state (key: start of value)", candidates, Kind.STATE);
        list(user, "Memories found (key: start of text)", candidates, Kind.MEMORY);
        String answer = endpoint.complete(SYSTEM, user.toString());
        JsonNode keys = JsonAnswer.object(answer).get("relevant_keys");
        if (keys == null || !keys.isArray()) {
            throw new IOException("the model's answer has no relevant_keys list: " + JsonAnswer.shown(answer));
        }
        List<String> out = new ArrayList<>();
        for (JsonNode k : keys) {
            if (!k.isString()) {
                throw new IOException("the model's answer lists something that is not a key: "
                        + JsonAnswer.shown(answer));
            }
            out.add(k.asString());
        }
        return out;
    }

    /** One section of the prompt: the candidates of one kind, if there are any. */
    private static void list(StringBuilder user, String heading, List<Candidate> candidates, Kind kind) {
        if (candidates.stream().noneMatch(c -> c.kind() == kind)) {
            return;
        }
        user.append("\n\n").append(heading).append(":\n");
        for (Candidate c : candidates) {
            if (c.kind() == kind) {
                user.append("- ").append(c.id()).append(": ").append(c.preview().replace('\n', ' ')).append('\n');
            }
        }
    }
}
