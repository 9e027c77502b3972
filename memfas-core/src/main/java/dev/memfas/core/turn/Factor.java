package dev.memfas.core.turn;

/**
 * The factors of a memory's score, in the order of {@link dev.memfas.ScoreBreakdown}: the columns of a
 * {@link CandidateSet} are indexed by them.
 */
enum Factor {
    SEMANTIC, LEXICAL, RECENCY, FREQUENCY, TOPIC, SCOPE, PRIORITY, HOT, NEIGHBOR;

    static final int COUNT = values().length;
}
