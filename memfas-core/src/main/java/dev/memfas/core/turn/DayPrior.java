package dev.memfas.core.turn;

import dev.memfas.Memory;
import dev.memfas.core.envelope.ContextEnvelope;

/**
 * Reads a candidate's cosine with the query together with its day's: each cosine is raised by {@value #WEIGHT} of the
 * mean cosine of its day's best {@value #BEST} candidates (all of them if fewer) before the semantic factor is
 * min-max scaled. A day is what the envelope's headings call one: the memories of one stated
 * source created on one UTC day, a conversation's session mostly. A memory of the default source, or a pinned one, is a
 * day of its own, raised by a tenth of its own cosine: in a store without sources every cosine is raised by the same
 * tenth of itself, which min-max scaling takes back out, so the ranking is what it was.
 *
 * <p>Why: a session holding several turns on the question is likelier to hold its answer than one whose single turn
 * only resembles it, and the answer is often the session's turn that resembles the question least (LoCoMo: "What
 * activities does Melanie partake in?" and "I'm off to go swimming with the kids"). On the dev splits, one run per
 * weight (docs/experiments.md): LoCoMo evidence recall .757 / .844 / .880 / .927 at 512 / 1,024 / 2,048 / 4,096 tokens
 * became .766 / .847 / .880 / .930 at 0.1 (multi-hop at 1,024 .552 → .573) and .769 / .855 / .884 / .931 at 0.2;
 * LongMemEval does not move at 0.1, and from 0.15 its multi-session questions, whose evidence is one turn in each of
 * several sessions, lose it to sessions of several matches (.975 → .972 at 4,096 tokens; .966 at 0.2).
 *
 * <p>Stateless; the table of a turn's days is its candidate set's ({@link Table}). Over candidates none of which has a
 * day it changes nothing.
 */
final class DayPrior {
    /** How much of its day's cosine a candidate's cosine is raised by. */
    static final double WEIGHT = 0.1;
    /** How many of a day's best cosines its cosine is the mean of. */
    static final int BEST = 3;

    private DayPrior() {}

    /** Whether a memory counts towards its day: not a pinned one, and not one of the default source (no day). */
    static boolean grouped(Memory m) {
        return !m.pinned() && !Memory.DEFAULT_SOURCE.equals(m.source());
    }

    /**
     * Raises each of the first {@code n} cosines ({@code NaN}: the candidate has no vector, and stays so) by
     * {@link #WEIGHT} of its day's cosine.
     */
    static void raise(CandidateSet candidates, double[] cosines, int n) {
        if (!anyDay(candidates, n)) {
            return; // each would be raised by a tenth of itself, which min-max scaling takes back out
        }
        Table days = candidates.days();
        days.reset(n);
        for (int i = 0; i < n; i++) {
            Memory m = candidates.memory(i);
            if (Double.isNaN(cosines[i]) || !grouped(m)) {
                days.dayOf[i] = -1;
                continue;
            }
            int slot = days.slot(m.source(), ContextEnvelope.utcDay(m.createdAt()));
            days.dayOf[i] = slot;
            keepBest(days.best, slot * BEST, Math.min(days.counts[slot], BEST), cosines[i]);
            days.counts[slot]++;
        }
        for (int i = 0; i < n; i++) {
            if (Double.isNaN(cosines[i])) {
                continue;
            }
            int slot = days.dayOf[i];
            double day = cosines[i];
            if (slot >= 0) {
                int kept = Math.min(days.counts[slot], BEST);
                double sum = 0;
                for (int k = 0; k < kept; k++) {
                    sum += days.best[slot * BEST + k];
                }
                day = sum / kept;
            }
            cosines[i] += WEIGHT * day;
        }
    }

    private static boolean anyDay(CandidateSet candidates, int n) {
        for (int i = 0; i < n; i++) {
            if (grouped(candidates.memory(i))) {
                return true;
            }
        }
        return false;
    }

    /** Puts {@code value} among the {@code kept} best at {@code from}, highest first, keeping at most {@link #BEST}. */
    private static void keepBest(double[] best, int from, int kept, double value) {
        int at = kept < BEST ? kept : BEST - 1;
        if (kept == BEST && value <= best[from + at]) {
            return;
        }
        while (at > 0 && best[from + at - 1] < value) {
            best[from + at] = best[from + at - 1];
            at--;
        }
        best[from + at] = value;
    }

    /**
     * The candidates' days, kept by a {@link CandidateSet} for the next turn: each day's slot ({@link DaySlots}) with
     * its count and best cosines, and each candidate's slot. Not thread-safe.
     */
    static final class Table {
        private final DaySlots slots = new DaySlots();
        private int[] counts = new int[64];
        private double[] best = new double[64 * BEST];
        private int[] dayOf = new int[256];

        private void reset(int candidates) {
            int capacity = slots.reset(candidates);
            if (counts.length < capacity) {
                counts = new int[capacity];
                best = new double[capacity * BEST];
            }
            if (dayOf.length < candidates) {
                dayOf = new int[Math.max(candidates, 2 * dayOf.length)];
            }
        }

        /** The slot of a day, its count zeroed if the day is new. */
        private int slot(String source, long day) {
            int i = slots.slot(source, day);
            if (slots.taken()) {
                counts[i] = 0;
            }
            return i;
        }
    }
}
