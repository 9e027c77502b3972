package dev.memfas.core;

import dev.memfas.ContextItem;
import dev.memfas.Memory;
import dev.memfas.Tokenizer;
import dev.memfas.Trigger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Fills a token budget with the envelope, fired triggers and ranked candidates, and renders the context.
 *
 * <p>Triggered hints and their linked memories come first, within a reserve of the budget. Then pinned candidates, best
 * first, each one that fits whatever it scores. Then the other candidates are walked in score order and each one that
 * fits is added (first fit: what does not fit is skipped, smaller ones after it may still fit), stopping at the
 * minimum score. A memory longer than the per-item cap is cut at a sentence or word
 * boundary and marked. Near-duplicates (the same normalized text, or cosine at or above the threshold with an item
 * already in) are left out. The result's token count is verified on the final string.
 *
 * <p>Immutable and thread-safe.
 */
final class BudgetFiller {
    /** No item is smaller than its label; below this many free tokens the walk stops. */
    private static final int SMALLEST_ITEM_TOKENS = 12;

    private final Tokenizer tokenizer;
    private final TokenCountCache counts;
    private final int maxItemTokens;
    private final double triggerReserve;
    private final double minScore;
    private final double duplicateCosine;
    private final int envelopeTokens;
    private final int triggeredSectionTokens;
    private final int relevantSectionTokens;
    private final int markerTokens;
    /**
     * Whether the count of the whole context is the sum of its pieces' counts. True for the built-in BPE tokenizers:
     * every piece ends in {@code ">\n"} and the next begins with {@code "<"}, a boundary none of their pre-tokenizing
     * patterns crosses, and BPE merges only within a pre-token.
     */
    private final boolean piecesAddUp;

    BudgetFiller(Tokenizer tokenizer, TokenCountCache counts, int maxItemTokens, double triggerReserve,
            double minScore, double duplicateCosine) {
        this.tokenizer = tokenizer;
        this.counts = counts;
        this.maxItemTokens = maxItemTokens;
        this.triggerReserve = triggerReserve;
        this.minScore = minScore;
        this.duplicateCosine = duplicateCosine;
        this.envelopeTokens = tokenizer.count(ContextEnvelope.OPEN) + tokenizer.count(ContextEnvelope.CLOSE);
        this.triggeredSectionTokens = tokenizer.count(ContextEnvelope.TRIGGERED_OPEN)
                + tokenizer.count(ContextEnvelope.TRIGGERED_CLOSE);
        this.relevantSectionTokens = tokenizer.count(ContextEnvelope.RELEVANT_OPEN)
                + tokenizer.count(ContextEnvelope.RELEVANT_CLOSE);
        this.markerTokens = tokenizer.count(ContextEnvelope.TRUNCATION_MARKER);
        this.piecesAddUp = tokenizer instanceof JTokkitTokenizer;
    }

    /** The filled context. */
    record Filled(String context, int tokens, List<ContextItem> items, List<String> includedIds, int dropped) {}

    private record Piece(String text, int tokens, Candidate candidate, boolean truncated) {}

    /**
     * Fills the budget.
     *
     * @param fired the triggers that fired, in order
     * @param linked candidates linked from the fired triggers, in trigger order
     * @param ranked the other candidates, by descending score
     * @param matrix the turn's gathered vectors (rows indexed by {@link Candidate#row}), or null
     */
    Filled fill(int budget, List<Trigger> fired, List<Candidate> linked, List<Candidate> ranked, float[] matrix,
            int dimension) {
        int considered = linked.size() + ranked.size();
        if (envelopeTokens + Math.min(triggeredSectionTokens, relevantSectionTokens) >= budget) {
            return new Filled("", 0, List.of(), List.of(), considered);
        }
        int cap = Math.min(maxItemTokens, Math.max(SMALLEST_ITEM_TOKENS * 2, budget / 2));
        SeenTexts seenTexts = new SeenTexts();
        TakenVectors included = new TakenVectors(matrix, dimension);

        List<Piece> triggered = new ArrayList<>();
        int triggeredTokens = 0;
        if (!fired.isEmpty()) {
            int reserve = Math.min((int) Math.floor(budget * triggerReserve), budget - envelopeTokens);
            int used = triggeredSectionTokens;
            for (Trigger t : fired) {
                if (t.hint().isEmpty()) {
                    continue;
                }
                String text = ContextEnvelope.hint(t);
                int tokens = tokenizer.count(text);
                if (used + tokens <= reserve) {
                    triggered.add(new Piece(text, tokens, null, false));
                    used += tokens;
                }
            }
            for (Candidate c : linked) {
                if (isDuplicate(c, included, seenTexts)) {
                    continue;
                }
                Piece p = render(c, Math.min(cap, reserve - used));
                if (p != null && used + p.tokens() <= reserve) {
                    triggered.add(p);
                    used += p.tokens();
                    accept(c, included, seenTexts);
                }
            }
            triggeredTokens = triggered.isEmpty() ? 0 : used;
        }

        List<Piece> relevant = new ArrayList<>();
        int used = envelopeTokens + triggeredTokens;
        for (Candidate c : ranked) {
            if (!c.stored.memory().pinned() || budget - used < SMALLEST_ITEM_TOKENS) {
                continue;
            }
            int sectionCost = relevant.isEmpty() ? relevantSectionTokens : 0;
            if (isDuplicate(c, included, seenTexts)) {
                continue;
            }
            Piece p = render(c, cap);
            if (p != null && used + sectionCost + p.tokens() <= budget) {
                relevant.add(p);
                used += sectionCost + p.tokens();
                accept(c, included, seenTexts);
            }
        }
        for (Candidate c : ranked) {
            if (c.stored.memory().pinned()) {
                continue; // placed above, or it did not fit
            }
            if (c.score < minScore || budget - used < SMALLEST_ITEM_TOKENS) {
                break;
            }
            int sectionCost = relevant.isEmpty() ? relevantSectionTokens : 0;
            if (c.tokens >= 0 && c.tokens <= cap && used + sectionCost + c.tokens > budget) {
                // It would be taken whole, and whole it does not fit: neither the duplicate checks nor rendering can
                // change that.
                continue;
            }
            if (isDuplicate(c, included, seenTexts)) {
                continue;
            }
            Piece p = render(c, cap);
            if (p != null && used + sectionCost + p.tokens() <= budget) {
                relevant.add(p);
                used += sectionCost + p.tokens();
                accept(c, included, seenTexts);
            }
        }

        if (piecesAddUp && (!triggered.isEmpty() || !relevant.isEmpty())) {
            return result(render(triggered, relevant), used, triggered, relevant, considered);
        }
        // Another tokenizer might merge across a piece boundary: verify on the final string, and give back the
        // lowest-ranked pieces until it fits.
        while (true) {
            if (triggered.isEmpty() && relevant.isEmpty()) {
                return new Filled("", 0, List.of(), List.of(), considered);
            }
            String context = render(triggered, relevant);
            int tokens = tokenizer.count(context);
            if (tokens <= budget) {
                return result(context, tokens, triggered, relevant, considered);
            }
            if (!relevant.isEmpty()) {
                relevant.remove(relevant.size() - 1);
            } else {
                triggered.remove(triggered.size() - 1);
            }
        }
    }

    private Filled result(String context, int tokens, List<Piece> triggered, List<Piece> relevant, int considered) {
        List<ContextItem> items = new ArrayList<>();
        List<String> ids = new ArrayList<>();
        for (Piece p : triggered) {
            if (p.candidate() != null) {
                items.add(item(p, ContextItem.Section.TRIGGERED));
                ids.add(p.candidate().id());
            }
        }
        for (Piece p : relevant) {
            items.add(item(p, ContextItem.Section.RELEVANT));
            ids.add(p.candidate().id());
        }
        return new Filled(context, tokens, items, ids, considered - ids.size());
    }

    private static ContextItem item(Piece p, ContextItem.Section section) {
        Candidate c = p.candidate();
        Memory m = c.stored.memory();
        return new ContextItem(m.id(), m.source(), section, c.score, c.factors, p.tokens(), p.truncated());
    }

    private static String render(List<Piece> triggered, List<Piece> relevant) {
        StringBuilder sb = new StringBuilder(ContextEnvelope.OPEN);
        if (!triggered.isEmpty()) {
            sb.append(ContextEnvelope.TRIGGERED_OPEN);
            triggered.forEach(p -> sb.append(p.text()));
            sb.append(ContextEnvelope.TRIGGERED_CLOSE);
        }
        if (!relevant.isEmpty()) {
            sb.append(ContextEnvelope.RELEVANT_OPEN);
            relevant.forEach(p -> sb.append(p.text()));
            sb.append(ContextEnvelope.RELEVANT_CLOSE);
        }
        return sb.append(ContextEnvelope.CLOSE).toString();
    }

    /** The memory as an envelope item of at most {@code cap} tokens, cut if need be; null if it can't be made to fit. */
    private Piece render(Candidate c, int cap) {
        Memory m = c.stored.memory();
        String full = c.rendered != null ? c.rendered : ContextEnvelope.memory(m, m.text());
        int tokens = c.tokens >= 0 ? c.tokens : counts.count(m, full);
        if (tokens <= cap) {
            return new Piece(full, tokens, c, false);
        }
        int label = tokenizer.count(ContextEnvelope.memory(m, ""));
        int allowed = cap - label - markerTokens;
        for (int attempt = 0; attempt < 4 && allowed >= 4; attempt++) {
            String cut = cutAtBoundary(tokenizer.truncate(m.text(), allowed));
            if (cut.isBlank()) {
                return null;
            }
            String text = ContextEnvelope.memory(m, cut + ContextEnvelope.TRUNCATION_MARKER);
            int n = tokenizer.count(text);
            if (n <= cap) {
                return new Piece(text, n, c, true);
            }
            allowed -= n - cap;
        }
        return null;
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

    private boolean isDuplicate(Candidate c, TakenVectors included, SeenTexts seenTexts) {
        return seenTexts.contains(c) || included.anyAtLeast(c.row, duplicateCosine);
    }

    private static void accept(Candidate c, TakenVectors included, SeenTexts seenTexts) {
        included.add(c.row);
        seenTexts.add(c);
    }

    /**
     * The texts taken so far, by a hash of their {@link #normalize normalized} form computed without building it; a
     * hash match is confirmed on the normalized texts, so equal hashes of different texts never drop a memory.
     */
    private static final class SeenTexts {
        private final Map<Long, List<String>> byHash = new HashMap<>();

        boolean contains(Candidate c) {
            List<String> same = byHash.get(key(c));
            if (same == null) {
                return false;
            }
            String normalized = normalize(c.stored.memory().text());
            for (String other : same) {
                if (normalize(other).equals(normalized)) {
                    return true;
                }
            }
            return false;
        }

        void add(Candidate c) {
            byHash.computeIfAbsent(key(c), k -> new ArrayList<>(1)).add(c.stored.memory().text());
        }

        private static long key(Candidate c) {
            if (!c.hasTextHash) {
                c.textHash = normalizedHash(c.stored.memory().text());
                c.hasTextHash = true;
            }
            return c.textHash;
        }
    }

    /**
     * A 64-bit FNV-1a hash of {@link #normalize(String)}'s result, computed without building it. ASCII characters are
     * folded by table (a fill hashes every candidate it considers, thousands of characters a turn); others as
     * {@code normalize} does.
     */
    static long normalizedHash(String text) {
        long h = 0xcbf29ce484222325L;
        boolean gap = false;
        boolean any = false;
        int length = text.length();
        for (int i = 0; i < length; ) {
            char ch = text.charAt(i);
            int folded;
            if (ch < ASCII_FOLD.length) {
                i++;
                folded = ASCII_FOLD[ch];
            } else {
                int cp = text.codePointAt(i);
                i += Character.charCount(cp);
                folded = Character.isLetterOrDigit(cp) ? Character.toLowerCase(cp) : 0;
            }
            if (folded == 0) {
                gap = true;
                continue;
            }
            if (gap && any) {
                h = (h ^ ' ') * 0x100000001b3L;
            }
            gap = false;
            any = true;
            h = (h ^ folded) * 0x100000001b3L;
        }
        return h;
    }

    /** For each ASCII character: its lower case if it is a letter or digit, else 0. */
    private static final char[] ASCII_FOLD = new char[128];

    static {
        for (char c = 0; c < ASCII_FOLD.length; c++) {
            ASCII_FOLD[c] = Character.isLetterOrDigit(c) ? Character.toLowerCase(c) : 0;
        }
    }

    /**
     * The vectors of the items taken so far, and whether a candidate comes close to one of them. A fill checks every
     * candidate it considers against every item taken, so most pairs are far apart and should cost little. The first
     * {@value #PREFIX} dimensions of the taken vectors are kept one column per dimension, so a candidate's partial dot
     * products with all of them are one loop of {@code acc[j] += x[d] * column[j]} the JIT vectorizes; the rest of a
     * dot product is at most the product of the two vectors' remaining lengths (Cauchy–Schwarz), and only a pair whose
     * partial sum plus that bound reaches the threshold is scored in full.
     */
    static final class TakenVectors {
        /** How many leading dimensions are scored for every pair. */
        static final int PREFIX = 64;
        /** Room for float rounding between the bound and the full dot product. */
        static final float SLACK = 1e-4f;

        private final float[] matrix;
        private final int dimension;
        private final int prefix;
        private int[] rows = new int[16];
        private float[] restLengths = new float[16];
        private float[][] columns;
        private float[] acc = new float[16];
        private int size;

        TakenVectors(float[] matrix, int dimension) {
            this.matrix = matrix;
            this.dimension = dimension;
            this.prefix = matrix == null ? 0 : Math.min(PREFIX, dimension);
            this.columns = new float[prefix][16];
        }

        /** Takes the vector of matrix row {@code row}; nothing for a candidate without one (row -1). */
        void add(int row) {
            if (matrix == null || row < 0) {
                return;
            }
            if (size == rows.length) {
                int grown = size * 2;
                rows = Arrays.copyOf(rows, grown);
                restLengths = Arrays.copyOf(restLengths, grown);
                for (int d = 0; d < prefix; d++) {
                    columns[d] = Arrays.copyOf(columns[d], grown);
                }
                acc = new float[grown];
            }
            rows[size] = row;
            restLengths[size] = restLength(row);
            int base = row * dimension;
            for (int d = 0; d < prefix; d++) {
                columns[d][size] = matrix[base + d];
            }
            size++;
        }

        /** Whether the vector of matrix row {@code row} has a cosine of at least {@code threshold} with one taken. */
        boolean anyAtLeast(int row, double threshold) {
            if (matrix == null || row < 0 || size == 0) {
                return false;
            }
            int base = row * dimension;
            int n = size;
            float[] sums = acc;
            Arrays.fill(sums, 0, n, 0f);
            for (int d = 0; d < prefix; d++) {
                float x = matrix[base + d];
                float[] column = columns[d];
                for (int j = 0; j < n; j++) {
                    sums[j] += x * column[j];
                }
            }
            float rest = restLength(row);
            for (int j = 0; j < n; j++) {
                if (sums[j] + rest * restLengths[j] + SLACK >= threshold
                        && Vectors.dot(matrix, base, matrix, rows[j] * dimension, dimension) >= threshold) {
                    return true;
                }
            }
            return false;
        }

        /** The length of the part of row {@code row} after the first {@link #prefix} dimensions. */
        private float restLength(int row) {
            int from = row * dimension + prefix;
            return (float) Math.sqrt(Vectors.dot(matrix, from, matrix, from, dimension - prefix));
        }
    }

    /** Letters and digits, each lower-cased on its own, with every other run collapsed to one space. */
    static String normalize(String text) {
        StringBuilder sb = new StringBuilder(text.length());
        boolean gap = false;
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            i += Character.charCount(cp);
            if (Character.isLetterOrDigit(cp)) {
                if (gap && sb.length() > 0) {
                    sb.append(' ');
                }
                gap = false;
                sb.appendCodePoint(Character.toLowerCase(cp));
            } else {
                gap = true;
            }
        }
        return sb.toString();
    }
}
