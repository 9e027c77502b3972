package dev.memfas.core;

import dev.memfas.ContextCurator;
import dev.memfas.ScopeBudgets;
import dev.memfas.ScoringWeights;
import dev.memfas.core.curator.CuratorSettings;
import dev.memfas.core.curator.MemoryCurator;
import dev.memfas.core.envelope.BudgetFiller;
import dev.memfas.core.lifecycle.ExtractiveSummarizer;
import dev.memfas.core.lifecycle.SentenceFactExtractor;
import dev.memfas.core.store.InMemoryMemoryStore;
import dev.memfas.core.telemetry.TelemetryOutputs;
import dev.memfas.core.text.JTokkitTokenizer;
import dev.memfas.core.turn.RelevanceGate;
import dev.memfas.core.vector.ScanThreads;
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
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The settings a {@link Memfas.Builder} has collected, each at its default until set, and the curator they build. The
 * builder checks each setting as it is set; this class holds them and does the assembly.
 */
final class CuratorDraft {
    /** The weight of recency as closeness to a window the query names. */
    static final double DEFAULT_TIME_WINDOW_WEIGHT = 0.25;
    MemoryStore store;
    Embedder embedder;
    Tokenizer tokenizer;
    Clock clock;
    int tokenBudget = 2_000;
    ScopeBudgets scopeBudgets;
    ScoringWeights weights = ScoringWeights.DEFAULT;
    Duration recencyHalfLife = Duration.ofDays(7);
    double timeWindowWeight = DEFAULT_TIME_WINDOW_WEIGHT;
    double minScore = 0.05;
    double relativeFloor = BudgetFiller.RELATIVE_FLOOR;
    int maxItemTokens = 400;
    double triggerReserve = 0.25;
    int candidateLimit = 100;
    int neighborRadius = 2;
    double neighborShare = 0.25;
    int embedBatchSize = 32;
    int scanThreads = ScanThreads.PROCESSORS;
    /** NaN: the embedder's, else {@link ModelCalibration#UNCALIBRATED_TOPIC_SHIFT}. */
    double topicShiftThreshold = Double.NaN;
    double duplicateSimilarity = 0.98;
    DuplicatePolicy writeDuplicates = DuplicatePolicy.skipExact();
    SupersessionPolicy supersession = SupersessionPolicy.off();
    RetentionPolicy retention = RetentionPolicy.defaults();
    Summarizer summarizer = new ExtractiveSummarizer();
    FactExtractor factExtractor = new SentenceFactExtractor();
    /** Null: the extractor runs on the caller's thread. */
    Duration factExtractorTimeout;
    RelevanceJudge relevanceJudge;
    Duration relevanceJudgeTimeout = Duration.ofSeconds(2);
    SavePolicy savePolicy;
    Duration savePolicyTimeout = Duration.ofSeconds(10);
    /** NaN: the embedder's. */
    double relevanceFloor = Double.NaN;
    double meaningAloneFloor = Double.NaN;
    double worldKnowledgeRaise = RelevanceGate.WORLD_KNOWLEDGE_RAISE;
    Duration sessionIdleTimeout = Duration.ofHours(1);
    int maxSessions = 10_000;
    /** A quarter of a 1 GB heap: about 100,000 vectors of 384 dimensions at 2.4 KB each (heap and direct). */
    long indexMemoryLimit = 256L << 20;
    Duration workingMemoryTtl = Duration.ofHours(1);
    int workingMemoryLimit = 1000;
    final TelemetryOutputs.Plan telemetry = new TelemetryOutputs.Plan();
    boolean redactQueries;
    boolean warmUp;
    final List<AutoCloseable> owned = new ArrayList<>();

    /** The curator of these settings; the telemetry log it opens is closed again if the assembly fails. */
    ContextCurator build() {
        Clock c = clock != null ? clock : Clock.systemUTC();
        MemoryStore s = store != null ? store : new InMemoryMemoryStore();
        Tokenizer t = tokenizer != null ? tokenizer : JTokkitTokenizer.cl100k();
        TelemetryOutputs outputs = telemetry.open();
        try {
            ModelCalibration calibration = new ModelCalibration(embedder);
            double floor = calibration.relevanceFloor(relevanceFloor);
            CuratorSettings settings = new CuratorSettings(tokenBudget, scopeBudgets, weights, recencyHalfLife,
                    timeWindowWeight, minScore, relativeFloor, maxItemTokens, triggerReserve, candidateLimit,
                    neighborRadius, neighborShare, embedBatchSize, scanThreads,
                    calibration.topicShiftThreshold(topicShiftThreshold), duplicateSimilarity, writeDuplicates,
                    supersession, retention, summarizer, factExtractor, factExtractorTimeout, relevanceJudge,
                    relevanceJudgeTimeout, savePolicy, savePolicyTimeout, floor,
                    calibration.meaningAloneFloor(meaningAloneFloor, floor), calibration.worldKnowledgeProbe(), worldKnowledgeRaise, sessionIdleTimeout, maxSessions,
                    indexMemoryLimit, workingMemoryTtl, workingMemoryLimit, redactQueries);
            MemoryCurator curator = new MemoryCurator(settings, s, embedder, t, c, outputs.writer(),
                    outputs.listeners(), owned);
            if (warmUp) {
                curator.warmUp();
            }
            return curator;
        } catch (RuntimeException e) {
            outputs.closeLog();
            throw e;
        }
    }
}
