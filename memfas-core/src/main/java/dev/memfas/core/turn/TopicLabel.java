package dev.memfas.core.turn;

import dev.memfas.core.text.TextAnalyzer;
import dev.memfas.internal.StopWords;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A topic's label, made of the phrases its turns used: the heaviest phrase, then the heaviest that shares no word with
 * it if it weighs at least half as much ("kafka consumer lag, dashboards"), where a bag of words read "consumer,
 * kafka, lag".
 *
 * <p>A phrase is one to three words in a row of a run of words between stop words and punctuation ("kafka consumer
 * lag" gives itself, "kafka consumer", "consumer lag" and each word). A phrase weighs the sum of its words' weights in
 * the topic (the words of its turns, fading turn by turn: {@link SessionState}) over the square root of its length,
 * so a pair outweighs either of its words when both are as heavy, but not a word twice as heavy; among equal weights
 * the longer phrase wins, then the one seen first. Plain numbers are never part of a phrase. Stateless.
 */
public final class TopicLabel {
    /** The most candidate phrases a topic keeps, the latest ones. */
    static final int MAX_PHRASES = 64;
    private static final Pattern PUNCTUATION = Pattern.compile("[\\p{P}&&[^'\\-_]]+");

    private TopicLabel() {}

    /** The candidate phrases of a text, in the order they appear, each once. */
    public static List<String> phrases(String text) {
        List<String> out = new ArrayList<>();
        for (String piece : PUNCTUATION.split(text)) {
            List<String> run = new ArrayList<>();
            TextAnalyzer.scan(piece, (chars, length, ascii) -> {
                String w = new String(chars, 0, length).toLowerCase(Locale.ROOT);
                if (StopWords.isStopWord(w) || w.chars().allMatch(Character::isDigit)) {
                    addRunEnd(run, out);
                    run.clear();
                } else {
                    run.add(w);
                }
            });
            addRunEnd(run, out);
        }
        return out;
    }

    private static void addRunEnd(List<String> run, List<String> out) {
        for (int i = 0; i < run.size(); i++) {
            if (i + 2 < run.size()) {
                addOnce(out, run.get(i) + " " + run.get(i + 1) + " " + run.get(i + 2));
            }
            if (i + 1 < run.size()) {
                addOnce(out, run.get(i) + " " + run.get(i + 1));
            }
            addOnce(out, run.get(i));
        }
    }

    private static void addOnce(List<String> out, String phrase) {
        if (!out.contains(phrase)) {
            out.add(phrase);
        }
    }

    /** The label of a topic whose words weigh {@code terms} and whose turns used {@code phrases}; empty if none. */
    public static String of(Map<String, Double> terms, Collection<String> phrases) {
        String best = null;
        double bestWeight = 0;
        for (String p : phrases) {
            double w = weight(p, terms);
            if (w > bestWeight || w == bestWeight && best != null && w > 0 && p.length() > best.length()) {
                best = p;
                bestWeight = w;
            }
        }
        if (best == null) {
            return "";
        }
        List<String> bestWords = List.of(best.split(" "));
        String second = null;
        double secondWeight = bestWeight / 2;
        for (String p : phrases) {
            double w = weight(p, terms);
            boolean disjoint = true;
            for (String word : p.split(" ")) {
                disjoint &= !bestWords.contains(word);
            }
            if (disjoint && (w > secondWeight || w == secondWeight && second != null && p.length() > second.length()
                    || second == null && w >= secondWeight && w > 0)) {
                second = p;
                secondWeight = w;
            }
        }
        return second == null ? best : best + ", " + second;
    }

    private static double weight(String phrase, Map<String, Double> terms) {
        String[] words = phrase.split(" ");
        double sum = 0;
        for (String w : words) {
            sum += terms.getOrDefault(w, 0.0);
        }
        return sum / Math.sqrt(words.length);
    }
}
