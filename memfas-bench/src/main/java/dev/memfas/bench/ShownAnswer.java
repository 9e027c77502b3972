package dev.memfas.bench;

import dev.memfas.internal.StopWords;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * How much of a question's answer a context shows: the share of the answer's words that its evidence turns write
 * out and the context holds too. Evidence recall counts a turn as found when the context includes it, cut or whole;
 * a long turn cut to the per-item cap may still leave its answer out, and this is the measure that sees it.
 *
 * <p>Words are runs of letters and digits, lower-cased, English stop words left out ("in my bedroom" is one word,
 * "bedroom"). Only the answer's words that one of its evidence turns holds are looked for: an answer the reader must
 * work out ("3 days", counted over several turns) has none there, and its question is left out of the measure. A
 * word is found in a context wherever it stands, so a context may show an answer's word through another memory.
 */
final class ShownAnswer {
    private ShownAnswer() {}

    /**
     * The answer's words that one of the question's evidence turns holds; null when there are none.
     *
     * @param textOf each turn's text by id
     */
    static Set<String> of(EvalData.Question q, Map<String, String> textOf) {
        Set<String> inEvidence = new LinkedHashSet<>();
        for (String id : q.evidence()) {
            String text = textOf.get(id);
            if (text != null) {
                inEvidence.addAll(words(text));
            }
        }
        Set<String> answer = words(q.answer());
        answer.retainAll(inEvidence);
        return answer.isEmpty() ? null : answer;
    }

    /** The share of {@code answer}'s words that {@code text} holds. */
    static double shown(Set<String> answer, String text) {
        Set<String> there = words(text);
        return answer.stream().filter(there::contains).count() / (double) answer.size();
    }

    /** The words of a text, lower-cased, stop words left out, in order of first appearance. */
    static Set<String> words(String text) {
        Set<String> words = new LinkedHashSet<>();
        StringBuilder word = new StringBuilder();
        for (int i = 0; i <= text.length(); i++) {
            char c = i < text.length() ? text.charAt(i) : ' ';
            if (Character.isLetterOrDigit(c)) {
                word.append(Character.toLowerCase(c));
            } else if (word.length() > 0) {
                String w = word.toString();
                if (!StopWords.isStopWord(w)) {
                    words.add(w);
                }
                word.setLength(0);
            }
        }
        return words;
    }

    /**
     * A context's text as its memories wrote it: the envelope escapes {@code &}, {@code <} and, in attributes,
     * {@code "} and line breaks.
     */
    static String unescape(String context) {
        if (context.indexOf('&') < 0) {
            return context;
        }
        return context.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&#10;", "\n")
                .replace("&#13;", "\r").replace("&amp;", "&");
    }
}
