package dev.memfas.bench;

import dev.memfas.ContextRequest;
import java.util.List;
import java.util.Locale;

/**
 * What each question is asked with ({@code EvalMain --history}), to measure how memfas reads a turn in a
 * conversation: nothing (the default); the conversation's previous question as recent history, as an agent asks a
 * question that stands alone after one on another subject (LongMemEval asks one question of each haystack, which
 * therefore gets none); or as a follow-up that names nothing ("Tell me more about
 * that.") with the question as recent history, whose context should hold the question's evidence all the same. The
 * peers rrf and dense read no history: only the memfas systems (and bm25, which is memfas) are asked with it.
 */
enum EvalHistory {
    NONE("none"),
    PREVIOUS("previous"),
    FOLLOW_UP("follow-up");

    /** The follow-up's own text: it names nothing, so only the history says what it is about. */
    static final String FOLLOW_UP_QUERY = "Tell me more about that.";

    private final String option;

    EvalHistory(String option) {
        this.option = option;
    }

    /** The value of {@code --history}: {@code none}, {@code previous} or {@code follow-up}. */
    static EvalHistory parse(String value) {
        for (EvalHistory h : values()) {
            if (h.option.equals(value.strip().toLowerCase(Locale.ROOT))) {
                return h;
            }
        }
        throw new IllegalArgumentException("--history is none, previous or follow-up: '" + value + "'");
    }

    /** As {@code --history} names it. */
    String option() {
        return option;
    }

    /**
     * The request for a question.
     *
     * @param previous the text of the question asked before it in the same conversation, or null for the first
     */
    ContextRequest.Builder request(String question, String previous) {
        return switch (this) {
            case NONE -> ContextRequest.builder(question);
            case PREVIOUS -> ContextRequest.builder(question)
                    .recentHistory(previous == null ? List.of() : List.of(previous));
            case FOLLOW_UP -> ContextRequest.builder(FOLLOW_UP_QUERY).recentHistory(List.of(question));
        };
    }
}
