package dev.memfas.core.lifecycle;

import dev.memfas.Memory;
import dev.memfas.core.text.TextAnalyzer;
import dev.memfas.policy.Summarizer;
import dev.memfas.spi.Tokenizer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The default {@link Summarizer}: extractive and deterministic. It splits the memories into sentences, scores each by
 * how many of the group's memories share its words (a sentence about what the group keeps coming back to is worth
 * keeping), divided by the square root of its length in words (so long sentences do not win by length alone), and
 * keeps the best that fit the token cap, in the order they were said; a sentence sharing no word with another memory
 * of the group is an aside, and left out. No model, so the same group always gives the
 * same summary, and nothing is invented. Stateless.
 */
public final class ExtractiveSummarizer implements Summarizer {
    private static final Pattern SENTENCE_END = Pattern.compile("(?<=[.!?\u3002])\\s+|\\n+");

    /** One sentence of the group, where it was said. */
    private record Sentence(String text, int order, double score, int tokens) {}

    @Override
    public String summarize(List<Memory> memories, int maxTokens, Tokenizer tokenizer) {
        List<List<String>> sentenceTerms = new ArrayList<>();
        List<String> texts = new ArrayList<>();
        Map<String, Integer> memoriesWith = new HashMap<>();
        for (Memory m : memories) {
            Set<String> seen = new HashSet<>();
            for (String s : SENTENCE_END.split(m.text().strip())) {
                String sentence = s.strip();
                if (sentence.isEmpty()) {
                    continue;
                }
                List<String> terms = TextAnalyzer.terms(sentence);
                texts.add(sentence);
                sentenceTerms.add(terms);
                seen.addAll(terms);
            }
            seen.forEach(t -> memoriesWith.merge(t, 1, Integer::sum));
        }
        List<Sentence> sentences = new ArrayList<>(texts.size());
        List<Sentence> aside = new ArrayList<>();
        for (int i = 0; i < texts.size(); i++) {
            Set<String> distinct = new HashSet<>(sentenceTerms.get(i));
            double shared = 0;
            boolean sharesAWord = false;
            for (String t : distinct) {
                shared += memoriesWith.get(t);
                sharesAWord |= memoriesWith.get(t) > 1;
            }
            double score = distinct.isEmpty() ? 0 : shared / Math.sqrt(distinct.size());
            // A sentence that shares no word with the rest of the group is an aside ("Lunch was late."): left out
            // even when there is room, unless the group has nothing else.
            (sharesAWord ? sentences : aside).add(new Sentence(texts.get(i), i, score, tokenizer.count(texts.get(i))));
        }
        if (sentences.isEmpty()) {
            sentences = aside;
        }
        List<Sentence> best = new ArrayList<>(sentences);
        best.sort(Comparator.comparingDouble(Sentence::score).reversed().thenComparingInt(Sentence::order));
        List<Sentence> kept = new ArrayList<>();
        int used = 0;
        for (Sentence s : best) {
            // A space joins two sentences: one token at most.
            int cost = s.tokens() + (kept.isEmpty() ? 0 : 1);
            if (used + cost <= maxTokens) {
                kept.add(s);
                used += cost;
            }
        }
        if (kept.isEmpty()) {
            // Not even the best sentence fits: its start does.
            return tokenizer.truncate(best.get(0).text(), maxTokens).strip();
        }
        kept.sort(Comparator.comparingInt(Sentence::order));
        StringBuilder out = new StringBuilder();
        for (Sentence s : kept) {
            out.append(out.length() == 0 ? "" : " ").append(s.text());
        }
        String summary = out.toString();
        while (tokenizer.count(summary) > maxTokens && kept.size() > 1) {
            // A tokenizer that merges across the joins: give back the last sentence until it fits.
            kept.remove(kept.size() - 1);
            summary = String.join(" ", kept.stream().map(Sentence::text).toList());
        }
        return tokenizer.count(summary) <= maxTokens ? summary : tokenizer.truncate(summary, maxTokens).strip();
    }
}
