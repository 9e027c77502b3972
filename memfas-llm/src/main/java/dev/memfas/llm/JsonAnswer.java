package dev.memfas.llm;

import java.io.IOException;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A model's answer read strictly as one JSON object: the whole answer, or the whole inside of one Markdown code fence
 * around it (models add them however they are asked), and nothing else; no searching the text for something that
 * looks like JSON.
 */
final class JsonAnswer {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private JsonAnswer() {}

    static JsonNode object(String answer) throws IOException {
        String text = answer.strip();
        if (text.startsWith("```") && text.endsWith("```") && text.length() >= 6) {
            int firstLineEnd = text.indexOf('\n');
            if (firstLineEnd < 0) {
                throw new IOException("the model's answer is an empty code fence");
            }
            text = text.substring(firstLineEnd + 1, text.length() - 3).strip();
        }
        try {
            JsonNode node = JSON.readTree(text);
            if (node == null || !node.isObject()) {
                throw new IOException("the model's answer is not a JSON object: " + shown(answer));
            }
            return node;
        } catch (JacksonException e) {
            throw new IOException("the model's answer is not JSON: " + shown(answer));
        }
    }

    static String shown(String answer) {
        String oneLine = answer.replaceAll("\\s+", " ").strip();
        return oneLine.length() <= 120 ? oneLine : oneLine.substring(0, 120) + "...";
    }
}
