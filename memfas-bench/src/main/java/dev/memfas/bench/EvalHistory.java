package dev.memfas.bench;

import dev.memfas.ContextRequest;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What each question is asked with ({@code EvalMain --history}), to measure how memfas reads a turn in a
 * conversation: nothing (the default); the conversation's previous question as recent history, as an agent asks a
 * question that stands alone after one on another subject (LongMemEval asks one question of each haystack, which
 * therefore gets none); or as a follow-up that names nothing ("Tell me more about
 * that.") with the question as recent history, whose context should hold the question's evidence all the same (or
 * with the question before it and the question, two messages, the latest the one it follows); or as
 * a follow-up that leans on the turn before it for whom it is about ({@link #rewrite}). The last two are also asked the
 * way an agent that passes no history asks them ({@code follow-up-session}, {@code pronoun-session}): the turn before
 * is asked first, in the same session, and the follow-up after it with no history. The peers rrf and dense read no
 * history: only the memfas systems (and bm25, which is memfas) are asked with it.
 */
enum EvalHistory {
    NONE("none"),
    PREVIOUS("previous"),
    FOLLOW_UP("follow-up"),
    FOLLOW_UP_PREVIOUS("follow-up-previous"),
    PRONOUN("pronoun"),
    FOLLOW_UP_SESSION("follow-up-session"),
    PRONOUN_SESSION("pronoun-session");

    /** The follow-up's own text: it names nothing, so only the history says what it is about. */
    static final String FOLLOW_UP_QUERY = "Tell me more about that.";

    private final String option;

    EvalHistory(String option) {
        this.option = option;
    }

    /** The value of {@code --history}: one of the options above. */
    static EvalHistory parse(String value) {
        for (EvalHistory h : values()) {
            if (h.option.equals(value.strip().toLowerCase(Locale.ROOT))) {
                return h;
            }
        }
        throw new IllegalArgumentException("--history is none, previous, follow-up, follow-up-previous, pronoun,"
                + " follow-up-session or pronoun-session: '" + value + "'");
    }

    /** As {@code --history} names it. */
    String option() {
        return option;
    }

    /** A question rewritten as a follow-up: the turn before it, and the question leaning on it. */
    record FollowUp(String previousTurn, String query) {}

    /**
     * The rule {@code --history pronoun} asks a question by, written down so that anyone gets the same pairs from the
     * same data: a question that names exactly one of the conversation's speakers written with a capital (a name, not
     * LongMemEval's "user" and "assistant"), as a whole word, possessive or not, is
     * asked after the turn "Let's talk about NAME.", with the name replaced by "they" and "NAME's" by "their" ("When
     * did Caroline go to the LGBTQ support group?" becomes "When did they go to the LGBTQ support group?"). Null for a
     * question that names none of them, or more than one: it is asked as it is, without history.
     */
    static FollowUp rewrite(String question, Collection<String> speakers) {
        String named = null;
        for (String speaker : speakers) {
            if (speaker.isBlank() || !Character.isUpperCase(speaker.charAt(0))
                    || !name(speaker).matcher(question).find()) {
                continue;
            }
            if (named != null) {
                return null;
            }
            named = speaker;
        }
        if (named == null) {
            return null;
        }
        Matcher m = name(named).matcher(question);
        StringBuilder query = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(query, m.group(1) != null ? "their" : "they");
        }
        m.appendTail(query);
        return new FollowUp("Let's talk about " + named + ".", query.toString());
    }

    private static Pattern name(String speaker) {
        return Pattern.compile("\\b" + Pattern.quote(speaker) + "('s|\u2019s)?\\b");
    }

    /**
     * The request for a question.
     *
     * @param previous the text of the question asked before it in the same conversation, or null for the first
     * @param speakers who speaks in the conversation
     */
    ContextRequest.Builder request(String question, String previous, Collection<String> speakers) {
        return switch (this) {
            case NONE -> ContextRequest.builder(question);
            case PREVIOUS -> ContextRequest.builder(question)
                    .recentHistory(previous == null ? List.of() : List.of(previous));
            case FOLLOW_UP -> ContextRequest.builder(FOLLOW_UP_QUERY).recentHistory(List.of(question));
            case FOLLOW_UP_PREVIOUS -> ContextRequest.builder(FOLLOW_UP_QUERY)
                    .recentHistory(previous == null ? List.of(question) : List.of(previous, question));
            case PRONOUN -> {
                FollowUp f = rewrite(question, speakers);
                yield f == null ? ContextRequest.builder(question)
                        : ContextRequest.builder(f.query()).recentHistory(List.of(f.previousTurn()));
            }
            case FOLLOW_UP_SESSION -> ContextRequest.builder(FOLLOW_UP_QUERY);
            case PRONOUN_SESSION -> {
                FollowUp f = rewrite(question, speakers);
                yield ContextRequest.builder(f == null ? question : f.query());
            }
        };
    }

    /**
     * What is asked first in the question's session, before {@link #request}: the turn a follow-up leans on, for the
     * modes that ask it without history; null for the others, and for a question asked as it is.
     */
    String askedBefore(String question, Collection<String> speakers) {
        return switch (this) {
            case FOLLOW_UP_SESSION -> question;
            case PRONOUN_SESSION -> {
                FollowUp f = rewrite(question, speakers);
                yield f == null ? null : f.previousTurn();
            }
            default -> null;
        };
    }
}
