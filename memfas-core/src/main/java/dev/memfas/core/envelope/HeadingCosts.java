package dev.memfas.core.envelope;

import dev.memfas.Memory;
import dev.memfas.Scope;
import dev.memfas.core.turn.CandidateSet;
import dev.memfas.spi.Tokenizer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the relevant section's headings cost, and what an item saves under a day's: a scope's heading, a day's heading,
 * and the source and date attributes an item leaves to its day's heading (and its tag, as a line). Headings are
 * counted once per scope and per day, and kept (at most {@value #MOST_KEPT} of each). Thread-safe.
 */
final class HeadingCosts {
    private static final int MOST_KEPT = 10_000;

    private final Tokenizer tokenizer;
    /** Where a memory's count as a line is kept. */
    private final TokenCountCache counts;
    private final Map<Scope, Integer> scopes = new ConcurrentHashMap<>();
    /** By day: its heading's tokens, opening and closing tag, and what an item saves under it. */
    private final Map<EnvelopeLayout.Day, int[]> days = new ConcurrentHashMap<>();

    HeadingCosts(Tokenizer tokenizer, TokenCountCache counts) {
        this.tokenizer = tokenizer;
        this.counts = counts;
    }

    /** The tokens of a scope's heading, opening and closing tag. */
    int scope(Scope scope) {
        Integer known = scopes.get(scope);
        if (known != null) {
            return known;
        }
        int tokens = tokenizer.count(ContextEnvelope.scopeOpen(scope)) + tokenizer.count(ContextEnvelope.SCOPE_CLOSE);
        if (scopes.size() < MOST_KEPT) {
            scopes.put(scope, tokens);
        }
        return tokens;
    }

    /** The tokens of a day's heading, opening and closing tag. */
    int day(EnvelopeLayout.Day day) {
        return dayCost(day)[0];
    }

    /**
     * What a candidate's whole item, of {@code tokens} tokens, saves under its day's heading. As a line
     * ({@link ContextEnvelope#asLine}) the item is counted both ways, since the text's first word may be read
     * otherwise after a bracket than after a tag (its line's count is cached with the memory's). As a tag it saves its
     * source and date attributes: they stand between quotes, where pre-tokenizing patterns split, so the difference
     * measured on a reference item of the same source and day holds for every item whose id ends in a letter or digit;
     * an item with another id is counted both ways.
     */
    int savedUnderDay(CandidateSet candidates, int c, EnvelopeLayout layout, int tokens) {
        Memory m = candidates.memory(c);
        int line = counts.lineTokens(m);
        if (line != TokenCountCache.NOT_A_LINE) {
            return tokens - line;
        }
        if (endsInLetterOrDigit(m.id())) {
            return dayCost(layout.day(candidates, c))[1];
        }
        return tokenizer.count(ContextEnvelope.memory(m, m.text(), candidates.age(c)))
                - tokenizer.count(ContextEnvelope.undated(m, m.text()));
    }

    /** What a cut item of {@code tokens} tokens, cut to {@code text} (marker included), saves under its day's heading. */
    int savedUnderDay(CandidateSet candidates, int c, EnvelopeLayout layout, int tokens, String text) {
        Memory m = candidates.memory(c);
        if (!ContextEnvelope.asLine(m, text) && endsInLetterOrDigit(m.id())) {
            return dayCost(layout.day(candidates, c))[1];
        }
        return tokens - tokenizer.count(ContextEnvelope.undated(m, text));
    }

    private static boolean endsInLetterOrDigit(String id) {
        return !id.isEmpty() && Character.isLetterOrDigit(id.charAt(id.length() - 1));
    }

    private int[] dayCost(EnvelopeLayout.Day day) {
        int[] known = days.get(day);
        if (known != null) {
            return known;
        }
        Memory reference = Memory.builder("x").id("x").source(day.source())
                .createdAt(day.start()).build();
        int heading = tokenizer.count(ContextEnvelope.dayOpen(day.source(), day.label()))
                + tokenizer.count(ContextEnvelope.DAY_CLOSE);
        String dated = ContextEnvelope.memory(reference, "x", day.age());
        int[] cost = {heading, tokenizer.count(dated) - tokenizer.count(ContextEnvelope.undatedTag(reference, "x"))};
        if (days.size() < MOST_KEPT) {
            days.put(day, cost);
        }
        return cost;
    }
}
