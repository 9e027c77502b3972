package dev.memfas.core;

import dev.memfas.Memory;
import dev.memfas.ScoreBreakdown;
import dev.memfas.Scope;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;

/**
 * Computes each candidate's factors, normalizes them across the candidate set, and combines them with the weights.
 *
 * <p>Normalization: cosines (semantic, and topic with an embedder) are min-max scaled, since different models put
 * their cosines in different ranges; non-negative signals (BM25, recency, log access count, lexical topic overlap) are
 * divided by the candidates' maximum, keeping their ratios. Scope, priority and hot are absolute.
 *
 * <p>Immutable and thread-safe.
 */
final class CandidateScorer {
    private static final double LN2 = Math.log(2);
    /**
     * {@code Math.log1p(n)} for the access counts most memories have: on recent JDKs {@code log1p} is not an intrinsic,
     * and a turn takes it a few hundred times.
     */
    private static final double[] LOG1P = IntStream.range(0, 4096).mapToDouble(Math::log1p).toArray();

    private final ScoringWeights weights;
    private final double halfLifeMillis;

    CandidateScorer(ScoringWeights weights, Duration recencyHalfLife) {
        this.weights = weights;
        this.halfLifeMillis = recencyHalfLife.toMillis();
    }

    /** What one turn knows besides the candidates. */
    record TurnSignals(
            Instant now,
            boolean semanticAvailable,
            float[] topicVector,
            Map<String, Double> topicTerms,
            float[] matrix,
            Set<String> hotIds,
            boolean hasSession,
            String project,
            String language) {

        /** The same signals over another gathering of the candidates' vectors. */
        TurnSignals withMatrix(float[] other) {
            return new TurnSignals(now, semanticAvailable, topicVector, topicTerms, other, hotIds, hasSession, project,
                    language);
        }
    }

    /**
     * Sets every candidate's factors and score. A candidate's signals are read once, the first time it is scored:
     * scoring it again (when neighbors join) normalizes them anew over the larger set, so it must be within the same
     * turn.
     */
    void score(List<Candidate> candidates, TurnSignals turn) {
        int n = candidates.size();
        if (n == 0) {
            return;
        }
        double[] semantic = new double[n];
        double[] lexical = new double[n];
        double[] recency = new double[n];
        double[] frequency = new double[n];
        double[] topic = new double[n];
        for (int i = 0; i < n; i++) {
            Candidate c = candidates.get(i);
            if (!c.hasSignals) {
                signals(c, turn);
            }
            semantic[i] = Float.isNaN(c.cosine) ? Double.NaN : c.cosine;
            lexical[i] = c.bm25;
            recency[i] = c.recency;
            frequency[i] = c.frequency;
            topic[i] = c.topic;
        }
        minMax(semantic);
        divideByMax(lexical);
        divideByMax(recency);
        divideByMax(frequency);
        if (turn.topicVector() != null) {
            minMax(topic);
        } else {
            divideByMax(topic);
        }

        double wSemantic = turn.semanticAvailable() ? weights.semantic() : 0;
        double wHot = turn.hasSession() ? weights.hot() : 0;
        double total = wSemantic + weights.lexical() + weights.recency() + weights.frequency() + weights.topic()
                + weights.scope() + weights.priority() + wHot;
        for (int i = 0; i < n; i++) {
            Candidate c = candidates.get(i);
            ScoreBreakdown f = new ScoreBreakdown(semantic[i], lexical[i], recency[i], frequency[i], topic[i], c.scope,
                    c.priority, c.hot, 0);
            c.factors = f;
            c.score = (wSemantic * f.semantic() + weights.lexical() * f.lexical() + weights.recency() * f.recency()
                    + weights.frequency() * f.frequency() + weights.topic() * f.topic() + weights.scope() * f.scope()
                    + weights.priority() * f.priority() + wHot * f.hot()) / total;
        }
    }

    /** Reads the candidate's signals, before normalizing, from its memory and the turn. */
    private void signals(Candidate c, TurnSignals turn) {
        Memory m = c.stored.memory();
        c.recency = recency(m, turn.now());
        c.frequency = log1p(c.stored.accessCount());
        if (turn.topicVector() != null) {
            c.topic = c.row >= 0 ? Vectors.dotRow(turn.matrix(), c.row, turn.topicVector()) : Double.NaN;
        } else {
            c.topic = termOverlap(m.text(), turn.topicTerms());
        }
        c.scope = scopeMatch(m.scope(), turn.project(), turn.language());
        c.priority = m.pinned() ? 1.0 : m.importance();
        c.hot = turn.hotIds().contains(c.id()) ? 1.0 : 0.0;
        c.hasSignals = true;
    }

    private static double log1p(long count) {
        return count >= 0 && count < LOG1P.length ? LOG1P[(int) count] : Math.log1p(count);
    }

    private double recency(Memory m, Instant now) {
        Instant t = m.updatedAt().isAfter(m.createdAt()) ? m.updatedAt() : m.createdAt();
        double age = Math.max(0, now.toEpochMilli() - t.toEpochMilli());
        return Math.exp(-LN2 * age / halfLifeMillis);
    }

    static double scopeMatch(Scope scope, String project, String language) {
        return switch (scope.type()) {
            case UNIVERSAL -> 0.4;
            case PROJECT -> project == null ? 0.4 : project.equals(scope.name()) ? 1.0 : 0.0;
            case LANGUAGE -> language == null ? 0.4 : language.equals(scope.name()) ? 0.7 : 0.0;
        };
    }

    private static double termOverlap(String text, Map<String, Double> topicTerms) {
        if (topicTerms.isEmpty()) {
            return 0;
        }
        double sum = 0;
        for (String t : new java.util.HashSet<>(TextAnalyzer.words(text))) {
            Double w = topicTerms.get(t);
            if (w != null) {
                sum += w;
            }
        }
        return sum;
    }

    /** Scales to [0, 1] by min and max; NaN (no signal) becomes 0; all-equal values become 1 if positive. */
    private static void minMax(double[] x) {
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (double v : x) {
            if (!Double.isNaN(v)) {
                min = Math.min(min, v);
                max = Math.max(max, v);
            }
        }
        double range = max - min;
        for (int i = 0; i < x.length; i++) {
            if (Double.isNaN(x[i])) {
                x[i] = 0;
            } else if (range > 1e-9) {
                x[i] = (x[i] - min) / range;
            } else {
                x[i] = max > 0 ? 1 : 0;
            }
        }
    }

    private static void divideByMax(double[] x) {
        double max = 0;
        for (double v : x) {
            max = Math.max(max, v);
        }
        for (int i = 0; i < x.length; i++) {
            x[i] = max > 0 ? x[i] / max : 0;
        }
    }
}
