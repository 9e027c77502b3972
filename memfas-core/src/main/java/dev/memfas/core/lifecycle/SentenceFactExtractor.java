package dev.memfas.core.lifecycle;

import dev.memfas.Conversation;
import dev.memfas.internal.StopWords;
import dev.memfas.policy.FactExtractor;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * memfas's own {@link FactExtractor}, without a model: the sentences of a conversation that state a preference ("I
 * prefer aisle seats"), a decision ("We decided to ship on Tuesday"), a dated event ("The review is on March 3") or a
 * fact about a named person or thing ("Priya works on the billing team"), each as it was said. A sentence said in the
 * first person is prefixed with its author ("user: I prefer aisle seats."), so that the fact says whose it is when it
 * is read alone. Questions, and sentences under {@value #MIN_WORDS} or over {@value #MAX_WORDS} words, are not facts.
 * The cues are plain English forms (verbs of liking and deciding, month and day names, a capitalized name followed by
 * a verb of being, working or living), not drawn from any data set. Stateless and thread-safe.
 */
public final class SentenceFactExtractor implements FactExtractor {
    static final int MIN_WORDS = 4;
    static final int MAX_WORDS = 40;

    private static final Pattern SENTENCE_END = Pattern.compile("(?<=[.!?])\\s+|\\n+");
    private static final Pattern PREFERENCE = Pattern.compile("\\b(i|we)( really| much| do| don't| do not| would)?"
            + " (prefer|like|love|enjoy|hate|dislike|avoid|can't stand|cannot stand)\\b|\\bmy (favou?rite|go-to)\\b",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern DECISION = Pattern.compile("\\b(we|i|they|the team)( have| had)?"
            + " (decided|agreed|chose|settled on|committed to)\\b|\\b(we|i)('ll| will) go with\\b|\\blet's go with\\b"
            + "|\\bthe decision is\\b", Pattern.CASE_INSENSITIVE);
    private static final Pattern DATE = Pattern.compile("\\b(january|february|march|april|may|june|july|august"
            + "|september|october|november|december)\\s+\\d{1,2}\\b|\\b\\d{1,2}\\s+(january|february|march|april|may"
            + "|june|july|august|september|october|november|december)\\b|\\b\\d{4}-\\d{2}-\\d{2}\\b"
            + "|\\b(on|next|this|last)"
            + " (monday|tuesday|wednesday|thursday|friday|saturday|sunday)\\b|\\b(tomorrow|yesterday)\\b",
            Pattern.CASE_INSENSITIVE);
    /** A capitalized word, then within two words a verb of being, working or living. */
    private static final Pattern NAMED = Pattern.compile("\\b(\\p{Lu}[\\p{L}'-]+)(\\s+\\S+){0,2}?\\s+(is|was|are"
            + "|were|has|had|works|worked|lives|lived|moved|owns|leads|joined|started)\\b");
    private static final Pattern FIRST_PERSON = Pattern.compile("\\b(i|i'm|i've|i'll|my|me|we|we're|our|us)\\b",
            Pattern.CASE_INSENSITIVE);

    @Override
    public List<Fact> extract(List<Conversation.Message> messages) {
        List<Fact> facts = new ArrayList<>();
        for (int i = 0; i < messages.size(); i++) {
            Conversation.Message m = messages.get(i);
            for (String raw : SENTENCE_END.split(m.text())) {
                String sentence = raw.strip();
                int words = sentence.isEmpty() ? 0 : sentence.split("\\s+").length;
                if (words < MIN_WORDS || words > MAX_WORDS || sentence.endsWith("?")) {
                    continue;
                }
                String kind = kind(sentence);
                if (kind != null) {
                    String text = FIRST_PERSON.matcher(sentence).find() && !m.author().isBlank()
                            ? m.author() + ": " + sentence : sentence;
                    facts.add(new Fact(text, kind, List.of(i)));
                }
            }
        }
        return facts;
    }

    /** The sentence's kind of fact, or null if it states none. */
    static String kind(String sentence) {
        if (PREFERENCE.matcher(sentence).find()) {
            return "preference";
        }
        if (DECISION.matcher(sentence).find()) {
            return "decision";
        }
        if (DATE.matcher(sentence).find()) {
            return "event";
        }
        // A name, not a capitalized stop word ("The", "It") as the first word of a sentence is.
        Matcher named = NAMED.matcher(sentence);
        while (named.find()) {
            if (!StopWords.isStopWord(named.group(1).toLowerCase(Locale.ROOT))) {
                return "fact";
            }
        }
        return null;
    }

    @Override
    public String toString() {
        return "SentenceFactExtractor";
    }
}
