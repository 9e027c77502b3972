package dev.memfas.core;

import static dev.memfas.core.curator.SettingChecks.require;
import static dev.memfas.core.curator.SettingChecks.requirePositive;

import dev.memfas.ContextCurator;
import dev.memfas.ContextRequest;
import dev.memfas.ScopeBudgets;
import dev.memfas.ScoringWeights;
import dev.memfas.core.curator.SettingChecks;
import dev.memfas.core.text.JTokkitTokenizer;
import dev.memfas.policy.DuplicatePolicy;
import dev.memfas.policy.FactExtractor;
import dev.memfas.policy.RelevanceJudge;
import dev.memfas.policy.RetentionPolicy;
import dev.memfas.policy.SavePolicy;
import dev.memfas.policy.Summarizer;
import dev.memfas.policy.SupersessionPolicy;
import dev.memfas.spi.Embedder;
import dev.memfas.spi.MemoryStore;
import dev.memfas.spi.Tokenizer;
import dev.memfas.telemetry.TelemetryListener;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * The door in: builds a {@link ContextCurator}.
 *
 * <pre>{@code
 * ContextCurator curator = Memfas.newBuilder()
 *     .tokenBudget(2_000)
 *     .recencyHalfLife(Duration.ofDays(7))
 *     .build();
 * curator.remember(Memory.builder("We deploy on Tuesdays.").kind("decision").build());
 * ContextResponse r = curator.getContext("when do we deploy?", "session-42");
 * }</pre>
 *
 * <p>Every setting has a sane default; see each setter. Setters check their argument at once and may each be called
 * only once. The built curator is thread-safe.
 */
public final class Memfas {
    private Memfas() {}

    /**
     * The tokenizer a curator counts with when none is set: jtokkit's {@code cl100k_base} over ordinary text (no
     * special tokens), a lone surrogate counted as U+FFFD. Thread-safe; for tools that must count as the curator does.
     */
    public static Tokenizer defaultTokenizer() {
        return JTokkitTokenizer.cl100k();
    }

    /** A builder with every setting at its default. */
    public static Builder newBuilder() {
        return new Builder();
    }

    /**
     * Collects the settings of a curator. Not thread-safe; build once.
     */
    public static final class Builder {
        private final CuratorDraft draft = new CuratorDraft();
        private final SettingChecks checks = new SettingChecks();
        private boolean built;

        private Builder() {}

        /** Where memories are kept; a new in-memory store when not set. Closing the curator closes the store. */
        public Builder store(MemoryStore store) {
            checks.once("store");
            draft.store = Objects.requireNonNull(store, "store");
            return this;
        }

        /**
         * The embedding model for semantic similarity; without one, scoring uses the lexical and other factors only.
         */
        public Builder embedder(Embedder embedder) {
            checks.once("embedder");
            Objects.requireNonNull(embedder, "embedder");
            require(embedder.dimension() > 0, "embedder dimension must be positive", embedder.dimension());
            Objects.requireNonNull(embedder.modelId(), "embedder model id");
            draft.embedder = embedder;
            return this;
        }

        /** How tokens are counted; jtokkit {@code cl100k_base} (ordinary text, no special tokens) when not set. */
        public Builder tokenizer(Tokenizer tokenizer) {
            checks.once("tokenizer");
            draft.tokenizer = Objects.requireNonNull(tokenizer, "tokenizer");
            return this;
        }

        /** The default token budget of a turn; 2000 when not set. */
        public Builder tokenBudget(int tokenBudget) {
            checks.once("token budget");
            require(tokenBudget > 0, "token budget must be positive", tokenBudget);
            draft.tokenBudget = tokenBudget;
            return this;
        }

        /**
         * The shares of every turn's budget kept for universal, language and project memories, unless the request
         * names its own ({@link ContextRequest#scopeBudgets()}); none when not set: the best memories fill the budget
         * whatever their scope. See {@link ScopeBudgets}.
         */
        public Builder scopeBudgets(ScopeBudgets scopeBudgets) {
            checks.once("scope budgets");
            draft.scopeBudgets = Objects.requireNonNull(scopeBudgets, "scopeBudgets");
            return this;
        }

        /** How the factors are weighted; {@link ScoringWeights#DEFAULT} when not set. */
        public Builder weights(ScoringWeights weights) {
            checks.once("weights");
            draft.weights = Objects.requireNonNull(weights, "weights");
            return this;
        }

        /** The age at which a memory's recency factor halves; 7 days when not set. */
        public Builder recencyHalfLife(Duration halfLife) {
            checks.once("recency half-life");
            Objects.requireNonNull(halfLife, "halfLife");
            require(!halfLife.isNegative() && halfLife.toMillis() >= 1,
                    "recency half-life must be at least 1 ms", halfLife);
            draft.recencyHalfLife = halfLife;
            return this;
        }

        /**
         * The weight recency takes in a turn whose query names a window of time ("last week", "in March 2026",
         * "3 days ago"; see {@code docs/scoring.md}), where it measures how close a memory's date is to the window
         * instead of to now; 0.25 when not set, 0 to read no windows.
         */
        public Builder timeWindowWeight(double weight) {
            checks.once("time window weight");
            require(weight >= 0 && weight <= 10, "time window weight must be in [0, 10]", weight);
            draft.timeWindowWeight = weight;
            return this;
        }

        /** The clock for recency, session expiry and telemetry; the system UTC clock when not set. */
        public Builder clock(Clock clock) {
            checks.once("clock");
            draft.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /** Memories scoring below this (in [0, 1]) are never included; 0.05 when not set. */
        public Builder minScore(double minScore) {
            checks.once("min score");
            require(minScore >= 0 && minScore <= 1, "min score must be in [0, 1]", minScore);
            draft.minScore = minScore;
            return this;
        }

        /**
         * Where a turn's relevance ends, as a share of its best memory's score: memories scoring below it are left out
         * however much of the budget is free, so a budget is a ceiling, not a target. 0.55 when not set; 0 fills every
         * budget down to the {@linkplain #minScore minimum score}, as a request can ask for itself
         * ({@link ContextRequest.Builder#fillBudget}). Pinned and triggered
         * memories are not held to it.
         */
        public Builder relativeFloor(double share) {
            checks.once("relative floor");
            require(share >= 0 && share <= 1, "relative floor must be in [0, 1]", share);
            draft.relativeFloor = share;
            return this;
        }

        /**
         * The most tokens one memory may take in a context (also at most a fifth of the turn's budget); longer memories
         * are cut at a sentence or word boundary and marked. 400 when not set.
         */
        public Builder maxItemTokens(int maxItemTokens) {
            checks.once("max item tokens");
            require(maxItemTokens >= 32, "max item tokens must be at least 32", maxItemTokens);
            draft.maxItemTokens = maxItemTokens;
            return this;
        }

        /** The share of the budget that triggered hints and memories may take, in [0, 1]; 0.25 when not set. */
        public Builder triggerReserve(double share) {
            checks.once("trigger reserve");
            require(share >= 0 && share <= 1, "trigger reserve must be in [0, 1]", share);
            draft.triggerReserve = share;
            return this;
        }

        /** How many memories each of the vector scan and BM25 contributes as candidates; 100 when not set. */
        public Builder candidateLimit(int candidateLimit) {
            checks.once("candidate limit");
            require(candidateLimit >= 1 && candidateLimit <= 10_000,
                    "candidate limit must be in [1, 10000]", candidateLimit);
            draft.candidateLimit = candidateLimit;
            return this;
        }

        /**
         * How many turns of a conversation stored just before and after each of a turn's five best matches that is
         * one of them (kind {@code conversation_turn}) are offered as its context (the next turn often holds the answer
         * it asks about); 2 when not set, 0 for none. Who counts: {@code docs/scoring.md}; {@link #neighborShare}.
         */
        public Builder neighborRadius(int radius) {
            checks.once("neighbor radius");
            require(radius >= 0 && radius <= 10, "neighbor radius must be in [0, 10]", radius);
            draft.neighborRadius = radius;
            return this;
        }

        /**
         * The largest share of a turn's budget one neighbor may take and still be brought as context for its match;
         * 0.25 when not set (at most 256 tokens of a 1,024-token budget). A larger neighbor is ranked by its own score:
         * a long chat reply next to a short question would otherwise take much of the budget as mere context.
         */
        public Builder neighborShare(double share) {
            checks.once("neighbor share");
            require(share > 0 && share <= 1, "neighbor share must be in (0, 1]", share);
            draft.neighborShare = share;
            return this;
        }

        /**
         * On how many threads one turn's vector scan may run: the calling thread plus shared helper threads, used only
         * when the index is large enough to pay for the hand-off (at least 4,096 vectors per thread). 1 keeps every
         * scan on the calling thread; the number of processors when not set.
         */
        public Builder scanThreads(int threads) {
            checks.once("scan threads");
            require(threads >= 1 && threads <= 256, "scan threads must be in [1, 256]", threads);
            draft.scanThreads = threads;
            return this;
        }

        /** How many memory texts are embedded per call when remembering; 32 when not set. */
        public Builder embedBatchSize(int batchSize) {
            checks.once("embed batch size");
            require(batchSize >= 1, "embed batch size must be positive", batchSize);
            draft.embedBatchSize = batchSize;
            return this;
        }

        /**
         * The cosine between a turn's embedding and the session topic below which the topic is taken to have shifted
         * (hot memories are then forgotten). When not set, the embedder's calibrated
         * {@link Embedder#topicShiftThreshold()} (0.52 for the default model), else 0.35.
         */
        public Builder topicShiftThreshold(double threshold) {
            checks.once("topic shift threshold");
            require(threshold >= -1 && threshold <= 1, "topic shift threshold must be in [-1, 1]", threshold);
            draft.topicShiftThreshold = threshold;
            return this;
        }

        /** Memories at this cosine or above to one included are left out as duplicates; 0.98 when not set. */
        public Builder duplicateSimilarity(double cosine) {
            checks.once("duplicate similarity");
            require(cosine > 0 && cosine <= 1, "duplicate similarity must be in (0, 1]", cosine);
            draft.duplicateSimilarity = cosine;
            return this;
        }

        /**
         * What {@code remember} does with a memory, given without an id, that says what a stored one of the same
         * namespace, scope, source and kind already says (see {@link DuplicatePolicy}); skipping exact duplicates
         * when not set.
         */
        public Builder writeDuplicates(DuplicatePolicy policy) {
            checks.once("write duplicates");
            draft.writeDuplicates = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /**
         * What writes the text of a summary memory ({@link dev.memfas.upkeep.Upkeep#summarize}); memfas's extractive
         * one, the group's most informative sentences, when not set.
         */
        public Builder summarizer(Summarizer summarizer) {
            checks.once("summarizer");
            draft.summarizer = Objects.requireNonNull(summarizer, "summarizer");
            return this;
        }

        /**
         * What takes short facts from a conversation remembered with {@link dev.memfas.Memories#remember(
         * dev.memfas.Conversation, boolean)}; memfas's own when not set, which reads the sentences that state a
         * preference, a decision, a dated event or a fact about a named person or thing, without a model.
         * {@link FactExtractor#none()} takes none.
         */
        public Builder factExtractor(FactExtractor extractor) {
            checks.once("fact extractor");
            draft.factExtractor = Objects.requireNonNull(extractor, "extractor");
            return this;
        }

        /**
         * As {@link #factExtractor(FactExtractor)}, for a slow one (a model's): {@code remember} stores the turns and
         * returns, and the facts are taken on a thread of the curator's, a conversation at a time in the order given,
         * and written when they come; one that takes longer than the timeout is given up for that conversation.
         */
        public Builder factExtractor(FactExtractor extractor, Duration timeout) {
            factExtractor(extractor);
            requirePositive(timeout, "fact extractor timeout");
            draft.factExtractorTimeout = timeout;
            return this;
        }

        /**
         * What {@code remember} does with a new memory that looks like an update of a stored one (see
         * {@link SupersessionPolicy}); nothing when not set.
         */
        public Builder supersession(SupersessionPolicy policy) {
            checks.once("supersession");
            draft.supersession = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /**
         * When {@link dev.memfas.upkeep.Upkeep#maintain maintenance} archives an unused memory (see {@link
         * RetentionPolicy}); {@link RetentionPolicy#defaults()} when not set.
         */
        public Builder retention(RetentionPolicy policy) {
            checks.once("retention");
            draft.retention = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /**
         * The cosine a turn's best memory must reach for anything to be relevant, overriding the embedder's calibrated
         * {@link Embedder#relevanceFloor()}: below it, the context holds only triggered and pinned memories (a general
         * question such as "What is the capital of France?" asked of a store of personal notes gets an empty context
         * instead of a budget of padding). -1 turns the check off. Without an embedder there is no cosine and no check.
         */
        public Builder relevanceFloor(double cosine) {
            checks.once("relevance floor");
            require(cosine >= -1 && cosine <= 1, "relevance floor must be in [-1, 1]", cosine);
            draft.relevanceFloor = cosine;
            return this;
        }

        /**
         * The cosine at or above which a memory is relevant on meaning alone, overriding the embedder's calibrated
         * {@link Embedder#meaningAloneFloor()} (what it decides is said there). At the relevance floor, meaning alone
         * decides there; a value under the relevance floor is refused when the curator is built.
         */
        public Builder meaningAloneFloor(double cosine) {
            checks.once("meaning-alone floor");
            require(cosine >= -1 && cosine <= 1, "meaning-alone floor must be in [-1, 1]", cosine);
            draft.meaningAloneFloor = cosine;
            return this;
        }

        /**
         * How much both floors rise for a query the embedder's {@link Embedder#worldKnowledgeProbe() probe} reads as a
         * question about the world (a probability of 0.8 or more): 0.08 by default, so "How many minutes are in a
         * day?" needs a memory at a cosine of 0.70 to be curated in full with the default model, not 0.62. 0 reads
         * every query alike. An embedder without a probe reads every query alike whatever this says.
         */
        public Builder worldKnowledgeRaise(double cosine) {
            checks.once("world-knowledge raise");
            require(cosine >= 0 && cosine <= 2, "world-knowledge raise must be in [0, 2]", cosine);
            draft.worldKnowledgeRaise = cosine;
            return this;
        }

        /** How long an unused session's state is kept; 1 hour when not set. */
        public Builder sessionIdleTimeout(Duration timeout) {
            checks.once("session idle timeout");
            requirePositive(timeout, "session idle timeout");
            draft.sessionIdleTimeout = timeout;
            return this;
        }

        /** The most sessions kept; beyond it the least recently used are dropped. 10000 when not set. */
        public Builder maxSessions(int maxSessions) {
            checks.once("max sessions");
            require(maxSessions >= 1, "max sessions must be positive", maxSessions);
            draft.maxSessions = maxSessions;
            return this;
        }

        /**
         * How many bytes the vector indexes of the namespaces in use may take together, heap and direct buffers (about
         * 2.4 KB a vector of 384 dimensions); 256 MB when not set. Each namespace's index is loaded on its first turn,
         * and when the loaded ones exceed this, those least likely to be used again are dropped, to be loaded again on
         * their next turn. One namespace whose index alone is larger is kept, alone.
         */
        public Builder indexMemoryLimit(long bytes) {
            checks.once("index memory limit");
            require(bytes >= 1 << 20, "index memory limit must be at least 1 MB (1048576 bytes)", bytes);
            draft.indexMemoryLimit = bytes;
            return this;
        }

        /**
         * How long a session's working memory keeps a memory that sets no {@code expiresAt}, and how many it keeps at
         * most (the least recently used dropped first); 1 hour and 1000 when not set. See {@link dev.memfas.Layer}.
         */
        public Builder workingMemory(Duration ttl, int limit) {
            checks.once("working memory");
            requirePositive(ttl, "working memory TTL");
            require(limit >= 1, "working memory limit must be positive", limit);
            draft.workingMemoryTtl = ttl;
            draft.workingMemoryLimit = limit;
            return this;
        }

        /**
         * What chooses the state keys relevant to a request's query ({@link ContextRequest#state()}) and, for a request
         * that asks for a relevance check, its memories, and how long it may take; when not set, the curator chooses.
         * A judge that throws, is late or names what it was not shown is set aside for that turn. Never consulted on
         * the default path (docs/state.md).
         */
        public Builder relevanceJudge(RelevanceJudge judge, Duration timeout) {
            checks.once("relevance judge");
            Objects.requireNonNull(judge, "judge");
            requirePositive(timeout, "relevance judge timeout");
            draft.relevanceJudge = judge;
            draft.relevanceJudgeTimeout = timeout;
            return this;
        }

        /**
         * What decides whether a tool's result offered with {@link dev.memfas.State#offer} is kept, and how long it may
         * take; when not set, the curator's rules decide (utility tools, one-off queries, errors and results too short
         * or too long are not kept). A policy that throws, is late or names an invalid key is set aside for that offer.
         */
        public Builder savePolicy(SavePolicy policy, Duration timeout) {
            checks.once("save policy");
            Objects.requireNonNull(policy, "policy");
            requirePositive(timeout, "save policy timeout");
            draft.savePolicy = policy;
            draft.savePolicyTimeout = timeout;
            return this;
        }

        /** Writes one JSON line per turn to this file (see {@code docs/telemetry.md}); off when not set. */
        public Builder telemetry(Path file) {
            checks.once("telemetry");
            draft.telemetry.file(file);
            return this;
        }

        /**
         * Rotates the telemetry file when it would grow past this size, keeping {@code keepFiles} old files; 10 MiB
         * and 3 when not set.
         */
        public Builder telemetryRotation(long maxBytes, int keepFiles) {
            checks.once("telemetry rotation");
            draft.telemetry.rotation(maxBytes, keepFiles);
            return this;
        }

        /** Leaves the query text out of telemetry (its token count stays); false when not set. */
        public Builder redactQueries(boolean redact) {
            checks.once("redact queries");
            draft.redactQueries = redact;
            return this;
        }

        /**
         * Whether {@link #build()} runs a throwaway search in every namespace before it returns, so that the first
         * turn costs less: the model's first query, the index scans, BM25 and the tokenizer have all run once (over
         * 10K memories in SQLite, 131 ms without it, 90 ms with it; {@code docs/benchmarks.md}, "First turn"). Nothing
         * is recorded and no telemetry is written. False when not set.
         */
        public Builder warmUp(boolean warmUp) {
            checks.once("warm up");
            draft.warmUp = warmUp;
            return this;
        }

        /**
         * A resource the curator owns: closed when the curator closes, after its store and telemetry, in the order
         * given (an embedder opened for this curator alone, say; one shared with other curators is left out). Not
         * closed if {@link #build()} fails. May be called many times.
         */
        public Builder owns(AutoCloseable resource) {
            draft.owned.add(Objects.requireNonNull(resource, "resource"));
            return this;
        }

        /** Adds an in-process telemetry listener; may be called many times. */
        public Builder telemetryListener(TelemetryListener listener) {
            draft.telemetry.listener(listener);
            return this;
        }

        /**
         * Builds the curator.
         *
         * @throws IllegalStateException if this builder already built one
         * @throws IllegalArgumentException if the meaning-alone floor set is under the relevance floor, the
         *     embedder's calibrated cosines are outside [-1, 1], or its world-knowledge probe reads vectors of another
         *     length than its own
         * @throws dev.memfas.MemfasException if the telemetry file cannot be opened, or the store holds vectors of a
         *     different model than the embedder's
         */
        public ContextCurator build() {
            if (built) {
                throw new IllegalStateException("this builder already built a curator");
            }
            built = true;
            return draft.build();
        }
    }
}
