package dev.memfas.core;

import dev.memfas.Memory;
import dev.memfas.Tokenizer;
import dev.memfas.core.EnvelopeLayout.Piece;

/**
 * A candidate as an envelope item of at most an item cap: whole, or cut to the cap, back to the last sentence end or
 * word break, and marked. Where a memory was cut is kept with its cached token count ({@link TokenCountCache.Cut}), so
 * a memory that is a candidate turn after turn is cut once per cap ({@link #cutMayFit} says when not to cut at all).
 *
 * <p>Immutable and thread-safe.
 */
final class ItemRenderer {
    private final Tokenizer tokenizer;
    private final TokenCountCache counts;
    private final HeadingCosts headings;
    private final int markerTokens;

    ItemRenderer(Tokenizer tokenizer, TokenCountCache counts, HeadingCosts headings) {
        this.tokenizer = tokenizer;
        this.counts = counts;
        this.headings = headings;
        this.markerTokens = tokenizer.count(ContextEnvelope.TRUNCATION_MARKER);
    }

    /**
     * The memory as an envelope item of at most {@code cap} tokens, cut if need be; null if it can't be made to fit.
     * With a {@code layout} by day, the piece also knows what it saves under its day's heading ({@link Piece#saving});
     * {@code layout} is null for items outside the relevant section.
     */
    Piece render(CandidateSet candidates, int c, int cap, EnvelopeLayout layout) {
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
            return new Piece(null, tokens, c, false, null, underDay ? headings.savedUnderDay(candidates, c, layout) : 0);
        }
        TokenCountCache.Cut known = counts.cut(m, cap, age);
        if (known == null) {
            known = cut(m, cap, age);
            counts.putCut(m, known);
        }
        if (known.end() < 0) {
            return null;
        }
        String cut = m.text().substring(0, known.end());
        String marked = cut + ContextEnvelope.TRUNCATION_MARKER;
        int saving = !underDay ? 0 : headings.savedUnderDay(candidates, c, layout, known.tokens(), marked);
        return new Piece(ContextEnvelope.memory(m, marked, age), known.tokens(), c, true, cut, saving);
    }

    /**
     * Whether a memory too long for {@code cap} may fit in {@code room} once cut: a cut keeps at least half of its
     * characters ({@link #cutAtBoundary}), about half the cap, so in less room it is not cut to learn that it does
     * not fit. Cutting every long candidate ranked after a full budget, in every turn, had been half of a LongMemEval
     * turn's time outside the query's embedding; with this and the kept cuts, its p95 went from 16.5-23.7 ms to
     * 14.1-16.8 ms (docs/benchmarks.md).
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

    /** Cuts back to the last sentence end, else the last word break, if that keeps at least half the text. */
    static String cutAtBoundary(String prefix) {
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
