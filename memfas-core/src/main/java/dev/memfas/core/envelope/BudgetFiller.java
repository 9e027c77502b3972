package dev.memfas.core.envelope;

import dev.memfas.ContextItem;
import dev.memfas.Memory;
import dev.memfas.Trigger;
import dev.memfas.core.curator.StateSelection;
import dev.memfas.core.envelope.EnvelopeLayout.Piece;
import dev.memfas.core.text.JTokkitTokenizer;
import dev.memfas.core.turn.Admission;
import dev.memfas.core.turn.CandidateSet;
import dev.memfas.core.turn.FillPlan;
import dev.memfas.core.turn.Ranking;
import dev.memfas.core.turn.RelevanceEnd;
import dev.memfas.core.turn.RelevanceGate;
import dev.memfas.core.turn.TurnWorkspace;
import dev.memfas.spi.Tokenizer;
import java.util.Arrays;
import java.util.List;

/**
 * Fills a token budget with the envelope, fired triggers and ranked candidates, and renders the context.
 *
 * <p>Triggered hints and their linked memories come first, within a reserve of the budget. Then the turn's best
 * retrieved memory, with a larger cap ({@link #bestItemCap}), then pinned candidates, best first, each one that fits
 * whatever it scores. Then the other candidates are walked in score order and each one that
 * fits is added (first fit: what does not fit is skipped, smaller ones after it may still fit), stopping at the
 * minimum score or the most items the turn allows ({@link FillPlan}), passing over those past where the turn's
 * relevance ends ({@link RelevanceEnd}: the budget is a ceiling), and taking only those the turn's {@link Admission}
 * lets it take ({@link RelevanceGate}). When the turn keeps shares of its budget by scope ({@link ScopeShares}), that
 * walk is made twice: first taking only what fits whole in what is left of its scope's share, then, with what is left
 * of the whole budget, the best of the rest. A memory longer than the per-item cap is
 * cut at a sentence or word boundary and marked ({@link ItemRenderer}). Near-duplicates (the same normalized text, or
 * cosine at or above the threshold with an item already in) are left out. The result's token count is verified on the
 * final string.
 *
 * <p>Immutable and thread-safe.
 */
public final class BudgetFiller {
    /** No item is smaller than its label; below this many free tokens the walk stops. */
    private static final int SMALLEST_ITEM_TOKENS = 12;
    /**
     * One item takes at most this fraction of the budget, so a context holds at least five memories: on LongMemEval,
     * where chat replies run to hundreds of tokens, a fifth found 0.80 of the evidence at 512 tokens and 0.85 at 1,024
     * where half found 0.71 and 0.81 (LoCoMo's short turns were not affected).
     */
    private static final int MAX_ITEM_SHARE_DIVISOR = 5;
    /** An ordinary short memory with its label; small budgets let an item take up to half of them, to this size. */
    private static final int SHORT_ITEM_TOKENS = 64;
    /** The default share of a turn's best score below which its relevance ends ({@link RelevanceEnd}). */
    public static final double RELATIVE_FLOOR = 0.55;

    private final Tokenizer tokenizer;
    private final int maxItemTokens;
    private final double triggerReserve;
    private final double duplicateCosine;
    private final int envelopeTokens;
    /**
     * The tokens the opening tag gains by naming the turn's day ({@link ContextEnvelope#open}). The day is written as
     * {@code yyyy-MM-dd} between quotes, so it is measured once, on one day, for all: a date of ten characters takes
     * the same tokens whatever the day (4 digits, 2 and 2, which BPE vocabularies hold whole), and a tokenizer for
     * which it does not is checked on the final string (see {@link #piecesAddUp}).
     */
    private final int todayTokens;
    private final int triggeredSectionTokens;
    private final int relevantSectionTokens;
    private final int markerTokens;
    private final int stateSectionTokens;
    /**
     * Whether the count of the whole context is the sum of its pieces' counts. True for the built-in BPE tokenizers:
     * every piece ends in {@code ">\n"} and the next begins with {@code "<"}, a boundary none of their pre-tokenizing
     * patterns crosses, and BPE merges only within a pre-token.
     */
    private final boolean piecesAddUp;
    /** What scope and day headings cost, and what an item saves under its day's. */
    private final HeadingCosts headings;
    /** Each candidate as an item within the cap, whole or cut. */
    private final ItemRenderer items;

    public BudgetFiller(Tokenizer tokenizer, TokenCountCache counts, int maxItemTokens, double triggerReserve,
            double duplicateCosine) {
        this.tokenizer = tokenizer;
        this.maxItemTokens = maxItemTokens;
        this.triggerReserve = triggerReserve;
        this.duplicateCosine = duplicateCosine;
        this.envelopeTokens = tokenizer.count(ContextEnvelope.OPEN) + tokenizer.count(ContextEnvelope.CLOSE);
        this.todayTokens = tokenizer.count(ContextEnvelope.open("2026-01-15")) - tokenizer.count(ContextEnvelope.OPEN);
        this.triggeredSectionTokens = tokenizer.count(ContextEnvelope.TRIGGERED_OPEN)
                + tokenizer.count(ContextEnvelope.TRIGGERED_CLOSE);
        this.relevantSectionTokens = tokenizer.count(ContextEnvelope.RELEVANT_OPEN)
                + tokenizer.count(ContextEnvelope.RELEVANT_CLOSE);
        this.markerTokens = tokenizer.count(ContextEnvelope.TRUNCATION_MARKER);
        this.stateSectionTokens = tokenizer.count(ContextEnvelope.STATE_OPEN)
                + tokenizer.count(ContextEnvelope.STATE_CLOSE);
        this.piecesAddUp = tokenizer instanceof JTokkitTokenizer;
        this.headings = new HeadingCosts(tokenizer, counts);
        this.items = new ItemRenderer(tokenizer, counts, headings);
    }

    /**
     * The most tokens one item may take in a budget: a fifth of it, but at least half of a small budget up to
     * {@value #SHORT_ITEM_TOKENS} tokens (so a short memory is not cut in a budget of 120), and at most
     * {@code maxItemTokens}.
     */
    public static int itemCap(int budget, int maxItemTokens) {
        int smallBudgetCap = Math.max(SMALLEST_ITEM_TOKENS * 2, Math.min(budget / 2, SHORT_ITEM_TOKENS));
        return Math.min(maxItemTokens, Math.max(smallBudgetCap, budget / MAX_ITEM_SHARE_DIVISOR));
    }

    /**
     * The most tokens the turn's best retrieved memory may take: a third of the budget, at most {@code maxItemTokens},
     * and never less than any other item's cap. A fifth for every item cut the best hit of a 400-token turn to 80
     * tokens while weaker short memories went in whole; the best is the memory the reader most needs whole. On the dev
     * splits a third raised the share of the answer's words shown on LongMemEval from .896 to .922 at 512 tokens and
     * from .958 to .984 at 1,024, with the same evidence at 512 and .009 less at 1,024 (one multi-session and one
     * temporal question gave way); half the budget showed .948 at 512 but lost .012 of the evidence there. LoCoMo's
     * short turns gained .003 at 512 either way.
     */
    public static int bestItemCap(int budget, int maxItemTokens) {
        return Math.max(itemCap(budget, maxItemTokens), Math.min(maxItemTokens, budget / 3));
    }

    /**
     * The filled context.
     *
     * @param included the positions of the included candidates, in context order
     */
    public record Filled(String context, int tokens, List<ContextItem> items, List<String> includedIds, int[] included,
            int dropped, List<String> stateKeys) {
        static Filled empty(int considered) {
            return new Filled("", 0, List.of(), List.of(), new int[0], considered, List.of());
        }
    }

    /** What a fill works in, kept by a {@link TurnWorkspace} for the next turn. Not thread-safe. */
    public static final class Scratch {
        final TakenVectors taken = new TakenVectors();
        final SeenTexts seen = new SeenTexts();
        final StringBuilder context = new StringBuilder(4096);
        final EnvelopeLayout layout = new EnvelopeLayout();
        final ScopeShares shares = new ScopeShares();
        final MatchingPassage passage = new MatchingPassage();
        /** Whether candidate {@code i} was placed by the walk of scope shares. */
        boolean[] placed = new boolean[256];

        void reset(CandidateSet candidates, boolean groupByScope) {
            taken.reset(candidates.dimension() == 0 ? null : candidates.matrix(), candidates.dimension());
            seen.reset();
            layout.reset(groupByScope, candidates.size());
            if (placed.length < candidates.size()) {
                placed = new boolean[Math.max(candidates.size(), 2 * placed.length)];
            } else {
                Arrays.fill(placed, 0, candidates.size(), false);
            }
        }
    }

    /**
     * Fills the budget.
     *
     * @param plan the budget, its shares by scope, the minimum score and the most items
     * @param work the turn's workspace: its candidates, ranked best first ({@link TurnWorkspace#ranking()}), the
     *     positions of those linked from the fired triggers, in trigger order, and this step's scratch space
     * @param admission which retrieved memories the turn may take ({@link RelevanceGate}); with none, only pinned and
     *     linked candidates are taken
     * @param state the state chosen for the context ({@link StateSelection}), in order; empty for none
     * @param fired the triggers that fired, in order
     */
    public Filled fill(FillPlan plan, TurnWorkspace work, Admission admission, List<StateSelection.Chosen> state,
            List<Trigger> fired) {
        CandidateSet candidates = work.candidates();
        int[] linked = work.linked();
        int linkedCount = work.linkedCount();
        Ranking ranked = work.ranking();
        Scratch scratch = work.fill();
        int budget = plan.budget();
        RelevanceEnd end = RelevanceEnd.of(plan, candidates, ranked, admission);
        int maxItems = plan.maxItems();
        int considered = linkedCount + ranked.size();
        int envelopeTokens = this.envelopeTokens + (candidates.today() == null ? 0 : todayTokens);
        if (envelopeTokens + Math.min(triggeredSectionTokens, relevantSectionTokens) >= budget) {
            return Filled.empty(considered);
        }
        int cap = itemCap(budget, maxItemTokens);
        int bestCap = bestItemCap(budget, maxItemTokens);
        scratch.reset(candidates, plan.groupByScope());
        scratch.shares.reset(plan.scopeBudgets(), budget);
        scratch.passage.reset(plan.searchText());
        EnvelopeLayout layout = scratch.layout;
        SeenTexts seenTexts = scratch.seen;
        TakenVectors included = scratch.taken;

        int stateTokens = state.isEmpty() ? 0 : fillState(state, Math.min(plan.stateTokens(), budget - envelopeTokens),
                layout);
        envelopeTokens += stateTokens;

        List<Piece> triggered = layout.triggered;
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
                    triggered.add(new Piece(text, tokens, -1, false));
                    used += tokens;
                }
            }
            for (int k = 0; k < linkedCount && layout.items() < maxItems; k++) {
                int c = linked[k];
                if (isDuplicate(candidates, c, included, seenTexts)) {
                    continue;
                }
                Piece p = items.render(candidates, c, Math.min(cap, reserve - used), null, scratch.passage);
                if (p != null && used + p.tokens() <= reserve) {
                    triggered.add(p);
                    used += p.tokens();
                    accept(candidates, c, included, seenTexts);
                }
            }
            triggeredTokens = triggered.isEmpty() ? 0 : used;
        }

        int used = envelopeTokens + triggeredTokens;
        if (admission.any() && !scratch.shares.active()) {
            // The turn's best retrieved memory comes before the pinned ones, with a larger cap: it is the one the
            // reader most needs whole, and a pinned note that does not bear on the query must not take its room.
            int best = bestRetrieved(candidates, ranked, admission);
            if (best >= 0 && !end.belowMinScore(candidates, best) && layout.items() < maxItems) {
                used = place(best, bestCap, used, budget, candidates, scratch);
                scratch.placed[best] = true;
            }
        }
        for (int r = 0; r < ranked.size(); r++) {
            int c = ranked.at(r);
            if (!candidates.memory(c).pinned() || budget - used < SMALLEST_ITEM_TOKENS || layout.items() >= maxItems) {
                continue;
            }
            if (isDuplicate(candidates, c, included, seenTexts)) {
                continue;
            }
            Piece p = items.render(candidates, c, cap, layout, scratch.passage);
            int sectionCost = p == null ? 0 : layout.openingCost(candidates, c, relevantSectionTokens, headings,
                    p.saving());
            if (p != null && used + sectionCost + p.tokens() <= budget) {
                layout.addRelevant(p, candidates);
                used += sectionCost + p.tokens();
                accept(candidates, c, included, seenTexts);
                scratch.shares.take(candidates.memory(c).scope(), p.tokens());
            }
        }
        if (admission.any() && scratch.shares.active()) {
            used = fillScopeShares(budget, end, maxItems, used, cap, candidates, ranked, admission, scratch);
        }
        for (int r = 0; admission.any() && r < ranked.size(); r++) {
            int c = ranked.at(r);
            if (candidates.memory(c).pinned() || scratch.placed[c] || !admission.admits(candidates, c)) {
                continue; // placed above, or tried first as the best, or the turn may not take it
            }
            if (end.belowMinScore(candidates, c) || budget - used < SMALLEST_ITEM_TOKENS
                    || layout.items() >= maxItems) {
                break;
            }
            if (end.past(candidates, c)) {
                continue; // past where the turn's relevance ends; one near the best in meaning may still follow
            }
            used = place(c, cap, used, budget, candidates, scratch);
        }

        if (piecesAddUp && !layout.isEmpty()) {
            return layout.result(layout.render(candidates, scratch.context), used, candidates, considered);
        }
        // Another tokenizer might merge across a piece boundary: verify on the final string, and give back the
        // lowest-ranked pieces until it fits.
        while (true) {
            if (layout.isEmpty()) {
                return Filled.empty(considered);
            }
            String context = layout.render(candidates, scratch.context);
            int tokens = tokenizer.count(context);
            if (tokens <= budget) {
                return layout.result(context, tokens, candidates, considered);
            }
            layout.removeLast(candidates);
        }
    }

    /**
     * Places the chosen state, in order, within its share: each value whole if it fits, else cut to what is left (and
     * marked), else left out.
     *
     * @return the tokens the state section takes, its tags included; 0 if nothing fit
     */
    private int fillState(List<StateSelection.Chosen> state, int share, EnvelopeLayout layout) {
        int used = stateSectionTokens;
        for (StateSelection.Chosen s : state) {
            int room = share - used;
            if (room < SMALLEST_ITEM_TOKENS) {
                break;
            }
            String whole = ContextEnvelope.state(s.key(), s.value());
            int tokens = tokenizer.count(whole);
            String text = whole;
            boolean cut = false;
            if (tokens > room) {
                int label = tokenizer.count(ContextEnvelope.state(s.key(), "")) + markerTokens;
                if (room - label < 4) {
                    continue;
                }
                text = ContextEnvelope.state(s.key(), tokenizer.truncate(s.value(), room - label)
                        + ContextEnvelope.TRUNCATION_MARKER);
                tokens = tokenizer.count(text);
                cut = true;
                if (tokens > room) {
                    continue;
                }
            }
            layout.state.add(new Piece(text, tokens, -1, cut));
            layout.stateKeys.add(s.key());
            used += tokens;
        }
        return layout.state.isEmpty() ? 0 : used;
    }

    /**
     * The first walk of a turn with scope shares: each candidate, best first down to the minimum score, that fits
     * whole in what is left of its scope's share and of the budget, and is no duplicate.
     *
     * @return the tokens used after it
     */
    private int fillScopeShares(int budget, RelevanceEnd end, int maxItems, int used, int cap, CandidateSet candidates,
            Ranking ranked, Admission admission, Scratch scratch) {
        EnvelopeLayout layout = scratch.layout;
        for (int r = 0; r < ranked.size(); r++) {
            int c = ranked.at(r);
            Memory m = candidates.memory(c);
            if (m.pinned() || !admission.admits(candidates, c) || end.past(candidates, c)) {
                continue;
            }
            if (end.belowMinScore(candidates, c) || budget - used < SMALLEST_ITEM_TOKENS
                    || layout.items() >= maxItems) {
                break;
            }
            int tokens = candidates.tokens(c);
            int saving = tokens < 0 || !layout.byDay() ? 0 : headings.savedUnderDay(candidates, c, layout, tokens);
            int sectionCost = layout.openingCost(candidates, c, relevantSectionTokens, headings, saving);
            if (tokens < 0 || tokens > cap || used + sectionCost + tokens > budget
                    || !scratch.shares.fits(m.scope(), tokens)
                    || isDuplicate(candidates, c, scratch.taken, scratch.seen)) {
                continue;
            }
            layout.addRelevant(Piece.whole(tokens, c, saving), candidates);
            used += sectionCost + tokens;
            accept(candidates, c, scratch.taken, scratch.seen);
            scratch.shares.take(m.scope(), tokens);
            scratch.placed[c] = true;
        }
        return used;
    }

    /** The turn's best retrieved memory: the first ranked candidate that is not pinned and that it may take; -1. */
    private static int bestRetrieved(CandidateSet candidates, Ranking ranked, Admission admission) {
        for (int r = 0; r < ranked.size(); r++) {
            int c = ranked.at(r);
            if (!candidates.memory(c).pinned() && admission.admits(candidates, c)) {
                return c;
            }
        }
        return -1;
    }

    /**
     * Adds retrieved candidate {@code c} to the relevant section, whole or cut to {@code itemCap}, if it fits what is
     * left of the budget and is no duplicate of an item already in.
     *
     * @return the tokens used after it
     */
    private int place(int c, int itemCap, int used, int budget, CandidateSet candidates, Scratch scratch) {
        EnvelopeLayout layout = scratch.layout;
        int tokens = candidates.tokens(c);
        // What it saves under a heading matters only if its day has an item already (it would open the heading).
        int saving = tokens < 0 || !layout.sharesDay(candidates, c) ? 0
                : headings.savedUnderDay(candidates, c, layout, tokens);
        int sectionCost = layout.openingCost(candidates, c, relevantSectionTokens, headings, saving);
        if (tokens >= 0 && tokens <= itemCap && used + sectionCost + tokens > budget) {
            // It would be taken whole, and whole it does not fit: neither the duplicate checks nor rendering can
            // change that.
            return used;
        }
        if (tokens > itemCap && !ItemRenderer.cutMayFit(itemCap, budget - used - sectionCost)) {
            return used;
        }
        if (isDuplicate(candidates, c, scratch.taken, scratch.seen)) {
            return used;
        }
        Piece p = items.render(candidates, c, itemCap, layout, scratch.passage);
        if (p != null && p.saving() != saving) {
            sectionCost = layout.openingCost(candidates, c, relevantSectionTokens, headings, p.saving());
        }
        if (p == null || used + sectionCost + p.tokens() > budget) {
            return used;
        }
        layout.addRelevant(p, candidates);
        accept(candidates, c, scratch.taken, scratch.seen);
        return used + sectionCost + p.tokens();
    }

    private boolean isDuplicate(CandidateSet candidates, int c, TakenVectors included, SeenTexts seenTexts) {
        return seenTexts.contains(candidates, c) || seenTexts.holdsTurnsOf(candidates, c)
                || included.anyAtLeast(candidates.row(c), duplicateCosine);
    }

    private static void accept(CandidateSet candidates, int c, TakenVectors included, SeenTexts seenTexts) {
        included.add(candidates.row(c));
        seenTexts.add(candidates, c);
    }

}
