package dev.memfas.core.turn;

import dev.memfas.core.vector.Vectors;
import dev.memfas.policy.WorldKnowledgeProbe;

/**
 * Decides what a turn may retrieve ({@link Admission}): everything, only what matched by meaning, or nothing. Memories
 * are ranked against each other, each factor normalized over the turn's candidates, so a ranking alone cannot tell a
 * query with good matches from one with none: without this check a general question ("What is the capital of
 * France?") asked of personal notes gets a full budget of its least unrelated notes.
 *
 * <p>A turn whose best candidate's cosine with the query stays under the model's relevance floor gets nothing retrieved
 * (its context holds only what triggers and pinning put there). One whose best reaches the meaning-alone floor, or
 * reaches the relevance floor and is also a lexical hit (the keyword search found it: the embedding and the words
 * agree), gets everything. Any other gets only its best match, and the other matches (at the relevance floor or above)
 * that share a word with the query, none of the weaker ones that would fill the budget around them. Between the two
 * floors meaning alone is not trusted with the whole budget because a model's best cosine among a few hundred turns on
 * many topics is noisy: on LongMemEval's haystacks 38% of the general questions (none answerable there) reach
 * bge-small's floor of 0.57, most of them through a turn that shares no word with the question ("What is the square
 * root of 144?" and a horoscope, 0.60); yet "Which pet do I have?" and "I adopted a grey cat" are a real match at 0.58
 * with no word in common, and keep it. Asking the word of the best candidate alone, rather than of any of the three
 * nearest, lost no answerable question of either dev set and left general questions 1 to 2 points less of the budget.
 * Such a turn keeps, of the candidates at the relevance floor, its best and those the keyword search found too: below
 * the meaning-alone floor a runner-up on meaning alone is mostly the same noise (a LongMemEval general question between
 * the floors had 2.5 matches on average), and leaving them out left its general questions 0.7 to 1.8 points less of
 * the budget with the same recall on both dev sets. What it costs is a second answer that shares no word either.
 *
 * <p>A query that names an author of the namespace's memories ("What book is Jon reading?") is let through whatever
 * its cosine: it asks about someone the store holds memories of. Its name is read as "someone" in its embedding
 * ({@link AuthorNames}), which lowers its cosines as the name no longer matches the memories that say it (the best
 * by 0.034 on average): on LoCoMo's dev split, 5 of the 370 answerable questions that name a speaker fall under the
 * floor read that way ("What book is someone currently reading?", 0.54), none with the name in. The floors were
 * calibrated on questions that name no one.
 *
 * <p>A query the embedder's {@link WorldKnowledgeProbe} reads as a question about the world (a probability of
 * {@value #WORLD_KNOWLEDGE_PROBABILITY} or more) meets both floors raised by the curator's world-knowledge raise
 * ({@value #WORLD_KNOWLEDGE_RAISE} by default): memories are what the model answering the agent cannot know, and a
 * store of someone's conversations on many topics holds replies on the subject of most such questions without their
 * answer ("How many minutes are in a day?" and tips for a hectic day, 0.69). On LongMemEval's haystacks 18.5% of the
 * general questions the evaluation asks reached the meaning-alone floor, or the relevance floor with a word in common,
 * and were curated in full; read as world knowledge, 2.4% reach the raised ones (measured on the dev cosines). Of
 * the two dev sets' answerable questions none is read as world knowledge with bge-small-en-v1.5-q (the highest, 0.77
 * on LoCoMo: "When did John get his degree?"; 0.61 on LongMemEval), and a question that names an author is let
 * through before it is read. A raise, not a refusal: a memory that matches a question about the world
 * closely enough still comes. An agent's questions about its tools read as its own ("How do I rebase a branch in
 * git?" 0.26, "What is the default port of PostgreSQL?" 0.37), so they meet the floors as calibrated.
 *
 * <p>A follow-up ({@link FollowUps}) is read by its query blended with its history, and such a blend of several texts
 * sits nearer the direction all of a model's vectors share than any one of them, so its best cosine runs higher and its
 * world-knowledge reading lower than those of the question it follows: over a team's 30 notes on anything, the
 * evaluation's 40 general questions find a best cosine of 0.446 on average asked alone, 0.499 as "Tell me more about
 * that." after them and 0.540 after them and the one before, and are read as world knowledge at 0.881, 0.784 and 0.822.
 * The floors, calibrated on single questions, let such a follow-up through where its question gets nothing. So a
 * follow-up also meets the floors by what it asks about, each message of its history's latest exchange read alone
 * ({@link QueryVectors#asked}), and gets nothing if none of them has a match; if one has, what the turn may take is
 * read from the blend as before. Asked as "Tell me more about that." after one, LoCoMo's 40 general questions filled
 * .156 of a 512-token budget by the blend alone, and now none; after two ({@code EvalMain --history
 * follow-up-previous}), .312 and now .025; on LongMemEval's dev split, .370 and now .081 (.060 asked alone). Recall of
 * the dev questions asked as follow-ups is the same but for one LoCoMo question that gets nothing asked alone either.
 * Reading only the world-knowledge probe from the latest message left .031 and .131 on LoCoMo.
 *
 * <p>The check is on the raw cosine, before normalizing, and needs floors calibrated for the model (see
 * {@link dev.memfas.spi.Embedder#relevanceFloor()} and {@link dev.memfas.spi.Embedder#meaningAloneFloor()}); a turn
 * without vectors (no embedder, or none stored) is always let through, to be ranked by its other signals. Immutable
 * and thread-safe.
 */
public final class RelevanceGate {
    /** The probability at or above which a query is read as a question about the world. */
    static final double WORLD_KNOWLEDGE_PROBABILITY = 0.8;
    /** How much both floors rise for such a query by default. */
    public static final double WORLD_KNOWLEDGE_RAISE = 0.08;

    private final double floor;
    private final double meaningAloneFloor;
    private final WorldKnowledgeProbe probe;
    private final double worldKnowledgeRaise;

    /**
     * @param floor the cosine the best candidate must reach; -1 lets every turn through
     * @param meaningAloneFloor the cosine at which the best candidate needs no word in common with the query; at or
     *     above {@code floor}
     * @param probe reads a query vector as a question about the world, or null to read every query alike
     * @param worldKnowledgeRaise how much both floors rise for such a query
     */
    public RelevanceGate(double floor, double meaningAloneFloor, WorldKnowledgeProbe probe,
            double worldKnowledgeRaise) {
        if (floor > -1 && !(meaningAloneFloor >= floor)) {
            throw new IllegalArgumentException("meaning-alone floor " + meaningAloneFloor
                    + " is under the relevance floor " + floor);
        }
        this.floor = floor;
        this.meaningAloneFloor = meaningAloneFloor;
        this.probe = probe;
        this.worldKnowledgeRaise = worldKnowledgeRaise;
    }

    /**
     * What the turn may retrieve from its candidates (everything when none has a vector, or when the query names an
     * author). A follow-up read with its history must also find a match, at the floors, for one of the messages it
     * asks about ({@link QueryVectors#asked}), or gets nothing.
     */
    public Admission admission(CandidateSet candidates, QueryVectors q) {
        if (floor <= -1 || q.namesAuthor()) {
            return Admission.ALL;
        }
        Admission read = admission(candidates, q.query(), false);
        if (!q.asksAboutHistory() || !read.any()) {
            return read;
        }
        for (float[] asked : q.asked()) {
            if (admission(candidates, asked, true).any()) {
                return read;
            }
        }
        return Admission.NONE;
    }

    /**
     * The admission by one vector's cosines: the cosines the candidates were gathered with, or each candidate's vector
     * read against {@code vector} here ({@code readHere}).
     */
    private Admission admission(CandidateSet candidates, float[] vector, boolean readHere) {
        boolean anyVector = false;
        float best = Float.NEGATIVE_INFINITY;
        boolean bestIsLexicalHit = false;
        for (int i = 0; i < candidates.size(); i++) {
            float cosine = !readHere ? candidates.cosine(i)
                    : candidates.row(i) < 0 ? Float.NaN : Vectors.dotRow(candidates.matrix(), i, vector);
            if (Float.isNaN(cosine)) {
                continue;
            }
            anyVector = true;
            if (cosine > best) {
                best = cosine;
                bestIsLexicalHit = candidates.bm25(i) > 0;
            }
        }
        if (!anyVector) {
            return Admission.ALL;
        }
        double raise = readsAsWorldKnowledge(vector) ? worldKnowledgeRaise : 0;
        if (best >= meaningAloneFloor + raise) {
            return Admission.ALL;
        }
        if (best < floor + raise) {
            return Admission.NONE;
        }
        return bestIsLexicalHit ? Admission.ALL : Admission.bestAndWordMatches(best, floor + raise);
    }

    private boolean readsAsWorldKnowledge(float[] queryVector) {
        return probe != null && worldKnowledgeRaise > 0 && queryVector != null
                && queryVector.length == probe.dimension()
                && probe.probability(queryVector) >= WORLD_KNOWLEDGE_PROBABILITY;
    }
}
