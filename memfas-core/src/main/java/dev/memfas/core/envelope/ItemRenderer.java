package dev.memfas.core.envelope;

import dev.memfas.Memory;
import dev.memfas.core.envelope.EnvelopeLayout.Piece;
import dev.memfas.core.turn.CandidateSet;
import dev.memfas.spi.Tokenizer;

/**
 * A candidate as an envelope item of at most an item cap: whole, or cut to the cap, back to the last sentence end or
 * word break, and marked. A cut keeps the memory's beginning, or, when the sentence that best matches the turn's query
 * lies past that, is made around that sentence ({@link MatchingPassage}). Where a memory was cut from its beginning is
 * kept with its cached token count ({@link TokenCountCache.Cut}), so a memory that is a candidate turn after turn is
 * cut once per cap ({@link #cutMayFit} says when not to cut at all); a cut around a passage depends on the query and
 * is made anew.
 *
 * <p>Immutable and thread-safe.
 */
public final class ItemRenderer {
    private final Tokenizer tokenizer;
    private final TokenCountCache counts;
    private final HeadingCosts headings;
    private final int markerTokens;
    private final int leadingTokens;
    /**
     * More characters than a token of text takes (about 4 in English prose; digits and spaces run longer), so that the
     * part of a memory a cut around a passage may hold is handed to the tokenizer, not the rest; a cut that would
     * have held more than this allows is only shorter.
     */
    private static final int MOST_CHARS_PER_TOKEN = 16;

    ItemRenderer(Tokenizer tokenizer, TokenCountCache counts, HeadingCosts headings) {
        this.tokenizer = tokenizer;
        this.counts = counts;
        this.headings = headings;
        this.markerTokens = tokenizer.count(ContextEnvelope.TRUNCATION_MARKER);
        this.leadingTokens = tokenizer.count(ContextEnvelope.LEADING_MARKER);
    }

    /**
     * The memory as an envelope item of at most {@code cap} tokens, cut if need be; null if it can't be made to fit.
     * A cut keeps the memory's beginning unless {@code passage} finds the part on the turn's query further on: then
     * it is made around that part, and marked in front too. With a {@code layout} by day, the piece also knows what it
     * saves under its day's heading ({@link Piece#saving}); {@code layout} is null for items outside the relevant
     * section.
     */
    Piece render(CandidateSet candidates, int c, int cap, EnvelopeLayout layout, MatchingPassage passage) {
        boolean underDay = layout != null && layout.byDay();
        Memory m = candidates.memory(c);
        String age = candidates.age(c);
        int tokens = candidates.tokens(c);
        if (tokens < 0) {
            // Only memories the token counter has not seen, which says no age: it sets ages as it counts.
            String full = candidates.rendered(c) != null ? candidates.rendered(c) : ContextEnvelope.memory(m, m.text());
            tokens = counts.count(m, full);
        }
        if (tokens <= cap) {
            return Piece.whole(tokens, c, underDay ? headings.savedUnderDay(candidates, c, layout, tokens) : 0);
        }
        TokenCountCache.Cut known = counts.cut(m, cap, age);
        if (known == null) {
            known = cut(m, cap, age);
            counts.putCut(m, known);
        }
        if (known.end() < 0) {
            return null;
        }
        MatchingPassage.Span span = passage == null ? null : passage.find(m.text(), known.end());
        String kept;
        String marked;
        int keptTokens;
        Window window = span == null ? null : window(m, cap, age, span, tokens);
        if (window != null) {
            kept = m.text().substring(window.start(), window.end());
            marked = marked(m.text(), window.start(), window.end());
            keptTokens = window.tokens();
        } else {
            kept = m.text().substring(0, known.end());
            marked = kept + ContextEnvelope.TRUNCATION_MARKER;
            keptTokens = known.tokens();
        }
        int saving = !underDay ? 0 : headings.savedUnderDay(candidates, c, layout, keptTokens, marked);
        return new Piece(ContextEnvelope.memory(m, marked, age), keptTokens, c, true, kept, marked, saving);
    }

    /**
     * Whether a memory too long for {@code cap} may fit in {@code room} once cut: a cut keeps at least half of its
     * characters ({@link #cutAtBoundary}), about half the cap, so in less room it is not cut to learn that it does
     * not fit. Cutting every long candidate ranked after a full budget, in every turn, had been half of a LongMemEval
     * turn's time outside the query's embedding; with this and the kept cuts, its p95 went from 16.5-23.7 ms to
     * 14.1-16.8 ms (docs/experiments.md).
     */
    static boolean cutMayFit(int cap, int room) {
        return room >= cap / 2;
    }

    /** Where to cut the memory's text so that its item, marker included, takes at most {@code cap} tokens. */
    private TokenCountCache.Cut cut(Memory m, int cap, String age) {
        int label = tokenizer.count(ContextEnvelope.memory(m, "", age));
        int allowed = cap - label - markerTokens;
        for (int attempt = 0; attempt < 4 && allowed >= 4; attempt++) {
            String cut = cutAtBoundary(tokenizer.truncate(m.text(), allowed));
            if (cut.isBlank()) {
                break;
            }
            if (!m.text().startsWith(cut)) {
                throw new IllegalStateException("tokenizer '" + tokenizer.id() + "' truncated memory '" + m.id()
                        + "' to a text that is not its prefix (" + cut.length() + " of " + m.text().length()
                        + " characters); Tokenizer.truncate must return a prefix");
            }
            int n = tokenizer.count(ContextEnvelope.memory(m, cut + ContextEnvelope.TRUNCATION_MARKER, age));
            if (n <= cap) {
                return new TokenCountCache.Cut(cap, age, cut.length(), n);
            }
            allowed -= n - cap;
        }
        return new TokenCountCache.Cut(cap, age, -1, -1);
    }

    /**
     * The memory cut around its passage on the query: as much of what comes before the passage as the cap leaves
     * room for, from a sentence start, then the passage and what follows it, to where the item, marks included,
     * takes at most {@code cap} tokens (back to a sentence end or word break, as a cut from the start is). Null if
     * none fits, or if the cut would begin at the start (the cut from the start is then the one to take). Not kept
     * with the count: it depends on the query.
     *
     * @param tokens the whole item's tokens, for the characters a token takes in this memory
     */
    private Window window(Memory m, int cap, String age, MatchingPassage.Span span, int tokens) {
        String text = m.text();
        int label = tokenizer.count(ContextEnvelope.memory(m, "", age));
        int allowed = cap - label - leadingTokens - markerTokens;
        double charsPerToken = text.length() / (double) Math.max(1, tokens - label);
        int from = MatchingPassage.sentenceStartFrom(text,
                Math.min(span.start(), Math.max(0, span.end() - (int) (allowed * charsPerToken))));
        for (int attempt = 0; attempt < 6 && allowed >= 4 && from > 0; attempt++) {
            // Only what the cap could hold is handed to the tokenizer: a memory may hold a million characters.
            int bound = (int) Math.min(text.length(), from + (long) allowed * MOST_CHARS_PER_TOKEN);
            String rest = text.substring(from, bound);
            String truncated = tokenizer.truncate(rest, allowed);
            String cut = truncated.length() == rest.length() && bound == text.length() ? rest
                    : cutAtBoundary(truncated);
            if (!rest.startsWith(cut)) {
                throw new IllegalStateException("tokenizer '" + tokenizer.id() + "' truncated part of memory '"
                        + m.id() + "' to a text that is not its prefix (" + cut.length() + " of " + rest.length()
                        + " characters); Tokenizer.truncate must return a prefix");
            }
            int end = from + cut.length();
            if (end < span.end() && from < span.start()) {
                // Too much before the passage for the passage to fit: begin a sentence later.
                from = MatchingPassage.sentenceStartFrom(text, from + 1);
                continue;
            }
            if (cut.isBlank()) {
                break;
            }
            int n = tokenizer.count(ContextEnvelope.memory(m, marked(text, from, end), age));
            if (n <= cap) {
                return new Window(from, end, n);
            }
            allowed -= n - cap;
        }
        return null;
    }

    /** A cut at a passage: where it begins and ends in the memory's text, and the tokens of its item. */
    private record Window(int start, int end, int tokens) {}

    /** The part of {@code text} from {@code from} to {@code end}, marked where it was cut. */
    static String marked(String text, int from, int end) {
        String kept = text.substring(from, end);
        return (from > 0 ? ContextEnvelope.LEADING_MARKER : "") + kept
                + (end < text.length() ? ContextEnvelope.TRUNCATION_MARKER : "");
    }

    /** Cuts back to the last sentence end, else the last word break, if that keeps at least half the text. */
    public static String cutAtBoundary(String prefix) {
        int half = prefix.length() / 2;
        for (int i = prefix.length() - 1; i >= half; i--) {
            char c = prefix.charAt(i);
            if ((c == '.' || c == '!' || c == '?' || c == '\u3002' || c == '\n')
                    && (i + 1 == prefix.length() || Character.isWhitespace(prefix.charAt(i + 1)))) {
                return prefix.substring(0, i + 1).stripTrailing();
            }
        }
        for (int i = prefix.length() - 1; i >= half; i--) {
            if (Character.isWhitespace(prefix.charAt(i))) {
                return prefix.substring(0, i).stripTrailing();
            }
        }
        return prefix;
    }
}
