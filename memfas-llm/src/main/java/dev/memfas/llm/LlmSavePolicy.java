package dev.memfas.llm;

import dev.memfas.policy.SavePolicy;
import java.io.IOException;
import java.util.Objects;
import tools.jackson.databind.JsonNode;

/**
 * A {@link SavePolicy} that asks a chat model whether a tool's result is worth keeping across sessions, shown the tool,
 * the goal and the first {@value #PREVIEW_CHARS} characters of the result, and reads its answer strictly:
 * {@code {"save": true|false, "key": "...", "reason": "..."}} (a key is required when saving). An answer of any other
 * shape is an error, which the curator meets by deciding with its rules; the curator also never lets it overwrite a
 * key. Plug it in with {@code Memfas.newBuilder().savePolicy(new LlmSavePolicy(endpoint), Duration.ofSeconds(10))}.
 * Thread-safe.
 */
public final class LlmSavePolicy implements SavePolicy {
    static final int PREVIEW_CHARS = 500;
    /** What the model is told it is for. */
    static final String SYSTEM = "You decide whether a tool's result is worth keeping for later sessions: lasting"
            + " facts such as preferences, people and patterns are; one-off answers, errors and the time are not."
            + " Answer with one JSON object and nothing else: {\"save\": true or false, \"key\": \"a short descriptive"
            + " key such as people/team-leads\", \"reason\": \"a few words\"}.";

    private final ChatEndpoint endpoint;

    public LlmSavePolicy(ChatEndpoint endpoint) {
        this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
    }

    @Override
    public Decision decide(Offer offer) throws IOException, InterruptedException {
        String result = offer.result();
        String preview = result.length() <= PREVIEW_CHARS ? result : result.substring(0, PREVIEW_CHARS) + "...";
        String user = "Tool: " + offer.toolName() + "\nGoal: " + offer.goal() + "\nResult: " + preview;
        String answer = endpoint.complete(SYSTEM, user);
        JsonNode d = JsonAnswer.object(answer);
        JsonNode save = d.get("save");
        JsonNode reason = d.get("reason");
        if (save == null || !save.isBoolean() || reason == null || !reason.isString()) {
            throw new IOException("the model's answer needs save (true or false) and reason: "
                    + JsonAnswer.shown(answer));
        }
        if (!save.asBoolean()) {
            return Decision.skip(reason.asString());
        }
        JsonNode key = d.get("key");
        if (key == null || !key.isString() || key.asString().isBlank()) {
            throw new IOException("the model's answer saves without a key: " + JsonAnswer.shown(answer));
        }
        return Decision.save(key.asString(), reason.asString());
    }
}
