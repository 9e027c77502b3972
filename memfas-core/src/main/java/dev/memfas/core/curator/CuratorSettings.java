package dev.memfas.core.curator;

import dev.memfas.ScopeBudgets;
import dev.memfas.ScoringWeights;
import dev.memfas.core.Memfas;
import dev.memfas.policy.DuplicatePolicy;
import dev.memfas.policy.FactExtractor;
import dev.memfas.policy.RelevanceJudge;
import dev.memfas.policy.RetentionPolicy;
import dev.memfas.policy.SavePolicy;
import dev.memfas.policy.Summarizer;
import dev.memfas.policy.SupersessionPolicy;
import dev.memfas.policy.WorldKnowledgeProbe;
import java.time.Duration;

/**
 * The settings of a built curator, as {@link Memfas.Builder#build()} fixed them (defaults filled in, every value
 * checked by its setter). Immutable: nothing reads the builder after it built.
 *
 * @param tokenBudget the default token budget of a turn
 * @param scopeBudgets the default shares of a turn's budget by scope, or null for none
 * @param weights how the factors of a score are weighted
 * @param recencyHalfLife the age at which a memory's recency factor halves
 * @param timeWindowWeight the weight of recency, as closeness to the window, in a turn whose query names a time; 0 off
 * @param minScore the score below which a memory is not included, unless pinned or linked by a trigger
 * @param relativeFloor the share of a turn's best score below which a retrieved memory is not included; 0 for none
 * @param maxItemTokens the most tokens one item may take; longer memories are cut
 * @param triggerReserve the share of the budget triggered hints and memories may take
 * @param candidateLimit how many memories each of the vector and BM25 searches brings
 * @param neighborRadius how many places either side of a best match its stored neighbors are looked for
 * @param neighborShare the largest share of the budget one neighbor may take and still inherit its match's score
 * @param embedBatchSize how many memories are embedded in one call
 * @param scanThreads how many threads a vector scan may use, the caller's included
 * @param topicShiftThreshold the cosine with the session topic below which a turn starts a new topic
 * @param duplicateSimilarity the cosine at or above which a memory is a duplicate of one already included
 * @param writeDuplicates what {@code remember} does with a memory, given without an id, that a stored one already says
 * @param supersession what {@code remember} does with a new memory that looks like an update of a stored one
 * @param retention when maintenance archives an unused memory
 * @param summarizer writes the text of a summary memory
 * @param factExtractor takes facts from a remembered conversation
 * @param factExtractorTimeout how long the extractor may take in the background, or null to run it on the caller's
 *     thread
 * @param relevanceJudge what chooses the relevant state of a request that asks for some, or null for the curator's
 *     choice by words
 * @param relevanceJudgeTimeout how long the judge may take before the curator chooses by words instead
 * @param savePolicy what decides on a tool's result offered for saving, or null for the curator's rules
 * @param savePolicyTimeout how long the policy may take before the rules decide instead
 * @param relevanceFloor the cosine a turn's best memory must reach for any memory to be relevant; -1 for no floor
 * @param meaningAloneFloor the cosine at which a memory is relevant without sharing a word with the query; -1 for no
 *     floor
 * @param worldKnowledgeProbe how the embedder reads a query as a question about the world, or null for none
 * @param worldKnowledgeRaise how much both floors rise for a query read as a question about the world
 * @param sessionIdleTimeout how long a session may be idle before it expires
 * @param maxSessions how many sessions are kept at most
 * @param indexMemoryLimit how many bytes the loaded namespaces' vector indexes may take
 * @param workingMemoryTtl how long a working memory without its own expiry is kept
 * @param workingMemoryLimit how many working memories a session keeps at most
 * @param redactQueries whether telemetry leaves out query text, task and topic label
 */
public record CuratorSettings(
        int tokenBudget,
        ScopeBudgets scopeBudgets,
        ScoringWeights weights,
        Duration recencyHalfLife,
        double timeWindowWeight,
        double minScore,
        double relativeFloor,
        int maxItemTokens,
        double triggerReserve,
        int candidateLimit,
        int neighborRadius,
        double neighborShare,
        int embedBatchSize,
        int scanThreads,
        double topicShiftThreshold,
        double duplicateSimilarity,
        DuplicatePolicy writeDuplicates,
        SupersessionPolicy supersession,
        RetentionPolicy retention,
        Summarizer summarizer,
        FactExtractor factExtractor,
        Duration factExtractorTimeout,
        RelevanceJudge relevanceJudge,
        Duration relevanceJudgeTimeout,
        SavePolicy savePolicy,
        Duration savePolicyTimeout,
        double relevanceFloor,
        double meaningAloneFloor,
        WorldKnowledgeProbe worldKnowledgeProbe,
        double worldKnowledgeRaise,
        Duration sessionIdleTimeout,
        int maxSessions,
        long indexMemoryLimit,
        Duration workingMemoryTtl,
        int workingMemoryLimit,
        boolean redactQueries) {}
