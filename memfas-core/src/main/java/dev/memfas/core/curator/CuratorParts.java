package dev.memfas.core.curator;

import dev.memfas.ContextCurator;
import dev.memfas.MemfasException;
import dev.memfas.core.envelope.BudgetFiller;
import dev.memfas.core.envelope.TokenCountCache;
import dev.memfas.core.envelope.TokenCounter;
import dev.memfas.core.lifecycle.ChangeFollower;
import dev.memfas.core.lifecycle.Consolidation;
import dev.memfas.core.lifecycle.EventHandler;
import dev.memfas.core.lifecycle.Layers;
import dev.memfas.core.lifecycle.Maintenance;
import dev.memfas.core.lifecycle.PatternFinder;
import dev.memfas.core.lifecycle.MemoryListing;
import dev.memfas.core.lifecycle.Orienteer;
import dev.memfas.core.lifecycle.OtherProcesses;
import dev.memfas.core.lifecycle.UsageFeedback;
import dev.memfas.core.store.InMemoryMemoryStore;
import dev.memfas.core.telemetry.JsonlTelemetryWriter;
import dev.memfas.core.turn.AuthorNames;
import dev.memfas.core.turn.CandidateGatherer;
import dev.memfas.core.turn.CandidateScorer;
import dev.memfas.core.turn.NamespaceTriggers;
import dev.memfas.core.turn.NeighborExpander;
import dev.memfas.core.turn.PinnedMemories;
import dev.memfas.core.turn.QueryEmbedder;
import dev.memfas.core.turn.RelevanceGate;
import dev.memfas.core.turn.Search;
import dev.memfas.core.turn.SessionRegistry;
import dev.memfas.core.turn.TopicFilter;
import dev.memfas.core.turn.TopicTracker;
import dev.memfas.core.turn.TurnWorkspace;
import dev.memfas.core.vector.NamespaceIndexes;
import dev.memfas.core.vector.ScanThreads;
import dev.memfas.core.write.ConversationWriter;
import dev.memfas.core.write.MemoryWriter;
import dev.memfas.core.write.Revisions;
import dev.memfas.core.write.TriggerSuggester;
import dev.memfas.spi.Embedder;
import dev.memfas.spi.MemoryStore;
import dev.memfas.spi.StateStore;
import dev.memfas.spi.TokenCountStore;
import dev.memfas.spi.Tokenizer;
import dev.memfas.spi.TriggerStore;
import dev.memfas.spi.VectorSpace;
import dev.memfas.telemetry.TelemetryListener;
import java.time.Clock;
import java.util.List;

/**
 * The collaborators of one curator, wired once from its settings: the store and models, the per-namespace indexes kept
 * in step with writes, the steps of a turn, the write path, and the classes behind the curator's facets. A new feature
 * adds its class here, not to {@link MemoryCurator}, which holds the turn and the façade only. The fields are
 * package-private and final; the parts are thread-safe as their classes say.
 */
final class CuratorParts {
    final MemoryStore store;
    final Tokenizer tokenizer;
    private final JsonlTelemetryWriter telemetryWriter;

    final SessionRegistry sessions;
    final NamespaceTriggers triggers;
    final PinnedMemories pinned;
    final PatternFinder patterns;
    /** Brings in what other processes write to a shared store. */
    final OtherProcesses others;
    final MemoryWriter writer;
    /** Remembers conversations, and takes their facts in the background when the extractor has a timeout. */
    private final ConversationWriter conversations;

    final QueryEmbedder queryEmbedder;
    final AuthorNames authorNames;
    final TopicTracker topics;
    final CandidateGatherer gatherer;
    final CandidateScorer scorer;
    final RelevanceGate gate;
    final NeighborExpander neighbors;
    final Layers layers;
    final TokenCounter tokenCounter;
    final StateSelection stateSelection;
    final RelevanceJudging judging;
    final BudgetFiller filler;
    final TurnPublisher publisher;
    final TopicFilter topicFilter;
    final TurnWorkspace.Pool workspaces = new TurnWorkspace.Pool(Math.max(4, 2 * ScanThreads.PROCESSORS));

    final Search search;
    final CuratorCounts counts;
    final StateKeys state;
    final CuratorMemories memories;
    final CuratorTriggers triggerFacet;
    final CuratorUpkeep upkeep;

    /** What the builder was told the curator owns, closed after the store. */
    private final List<AutoCloseable> owned;
    private volatile boolean closed;

    /**
     * Wires the parts and loads what turns read from memory: the vectors, authors and pinned ids of every namespace.
     *
     * @param curator the curator being built, which agent events call back into (a search, an update)
     */
    CuratorParts(CuratorSettings settings, MemoryStore store, Embedder embedder, Tokenizer tokenizer, Clock clock,
            JsonlTelemetryWriter telemetryWriter, List<TelemetryListener> listeners, List<AutoCloseable> owned,
            ContextCurator curator) {
        this.store = store;
        this.owned = List.copyOf(owned);
        // A store without a durable place for state, triggers or token counts: the curator keeps them in memory.
        InMemoryMemoryStore inMemory = store instanceof StateStore && store instanceof TriggerStore
                && store instanceof TokenCountStore ? null : new InMemoryMemoryStore();
        StateStore stateStore = store instanceof StateStore s ? s : inMemory;
        TriggerStore triggerStore = store instanceof TriggerStore t ? t : inMemory;
        TokenCountStore tokenCountStore = store instanceof TokenCountStore t ? t : inMemory;
        VectorSpace space = embedder == null ? null : new VectorSpace(embedder.modelId(), embedder.dimension());
        this.tokenizer = tokenizer;
        this.telemetryWriter = telemetryWriter;
        Listeners told = new Listeners(listeners);
        this.sessions = new SessionRegistry(clock, settings.sessionIdleTimeout(), settings.maxSessions(),
                told::sessionEnded, settings.redactQueries());
        NamespaceIndexes indexes = new NamespaceIndexes(store, space == null ? 0 : space.dimension(),
                settings.indexMemoryLimit());
        this.triggers = new NamespaceTriggers(triggerStore);
        this.pinned = new PinnedMemories(store);
        // Before anything is loaded: a change committed while loading is applied again at the first turn, harmlessly.
        ChangeFollower follower = OtherProcesses.follow(store);
        TokenCountCache tokenCounts = new TokenCountCache(tokenizer, tokenCountEntries(settings.indexMemoryLimit()));
        this.authorNames = new AuthorNames(store);
        this.queryEmbedder = new QueryEmbedder(embedder, authorNames);
        this.topics = new TopicTracker(settings.topicShiftThreshold());
        this.gatherer = new CandidateGatherer(store, indexes, settings.candidateLimit(), settings.scanThreads());
        this.scorer = new CandidateScorer(settings.weights(), settings.recencyHalfLife(), settings.timeWindowWeight());
        this.gate = new RelevanceGate(settings.relevanceFloor(), settings.meaningAloneFloor(),
                settings.worldKnowledgeProbe(), settings.worldKnowledgeRaise());
        this.neighbors = new NeighborExpander(store, scorer, settings.neighborRadius(), settings.neighborShare());
        this.state = new StateKeys(stateStore, clock, settings.savePolicy(), settings.savePolicyTimeout(),
                this::ensureOpen);
        this.stateSelection = new StateSelection(stateStore, queryEmbedder, settings.relevanceFloor());
        this.judging = new RelevanceJudging(settings.relevanceJudge(), settings.relevanceJudgeTimeout());
        this.tokenCounter = new TokenCounter(tokenCountStore, tokenizer, tokenCounts);
        this.writer = new MemoryWriter(store, triggerStore, embedder, settings.embedBatchSize(), indexes, triggers,
                pinned, authorNames, tokenCounter, settings.writeDuplicates(), settings.supersession(),
                this::ensureOpen);
        this.others = new OtherProcesses(follower, store, writer, indexes, triggers, pinned, authorNames);
        this.filler = new BudgetFiller(tokenizer, tokenCounts, settings.maxItemTokens(), settings.triggerReserve(),
                settings.duplicateSimilarity());
        this.publisher = new TurnPublisher(store, tokenizer, settings, told);
        Revisions revisions = new Revisions(store, writer);
        TriggerSuggester suggester = new TriggerSuggester(stateStore, triggerStore);
        // Queries are kept for suggestions only where telemetry may keep them.
        UsageFeedback feedback = new UsageFeedback(store, sessions, clock,
                settings.redactQueries() ? null : suggester, told);
        this.topicFilter = new TopicFilter(store, indexes, queryEmbedder, settings.relevanceFloor(),
                settings.scanThreads());
        this.search = new Search(queryEmbedder, topics, gatherer, scorer, workspaces, topicFilter, clock);
        this.counts = new CuratorCounts(store, triggerStore, indexes, sessions, publisher, space, tokenizer);
        this.layers = new Layers(store, writer, revisions, sessions, embedder, settings.workingMemoryTtl(),
                settings.workingMemoryLimit(), clock);
        this.patterns = new PatternFinder(store, indexes, settings.relevanceFloor(), clock);
        this.conversations = new ConversationWriter(writer, store, settings.factExtractor(),
                settings.factExtractorTimeout(), told::extraction, clock);
        this.memories = new CuratorMemories(revisions, new MemoryListing(store, topicFilter), layers, clock,
                this::ensureOpen, patterns, conversations);
        this.triggerFacet = new CuratorTriggers(writer, suggester, this::ensureOpen);
        this.upkeep = new CuratorUpkeep(new Maintenance(store, writer, settings.retention()),
                new Consolidation(store, writer, settings.summarizer(), tokenizer),
                new Orienteer(store, stateStore, clock),
                new EventHandler(curator, sessions), feedback, others, clock, this::ensureOpen);
        // Nothing of a namespace is loaded here (its vectors, pins and authors load on its first turn), so that
        // building costs the same for 20 namespaces as for 20,000.
        if (space != null) {
            indexes.checkSpace(space);
        }
        // Told of other processes' commits, an idle curator applies them at once rather than in its next turn.
        others.listen();
    }

    /** Fails every call after {@link #close()}. */
    void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("curator is closed");
        }
    }

    /**
     * Closes the parts that hold threads, files or connections, once: later calls do nothing. The store and the
     * telemetry file are closed under the writer's lock, after any write in progress.
     */
    void close() {
        if (closed) {
            return;
        }
        // While writes are still allowed: facts a background extractor is taking are written, within its timeout.
        conversations.close();
        closed = true;
        // Before the telemetry log closes: each live session's summary is its last line.
        sessions.endAll();
        others.close();
        state.close();
        judging.close();
        writer.exclusively(() -> {
            if (telemetryWriter != null) {
                telemetryWriter.close();
            }
            store.close();
        });
        MemfasException failure = null;
        for (AutoCloseable resource : owned) {
            try {
                resource.close();
            } catch (Exception e) {
                if (failure == null) {
                    failure = new MemfasException("cannot close " + resource + ": " + e.getMessage(), e);
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /**
     * How many memories' token counts the curator keeps: one per kilobyte of the index memory limit (an entry holds
     * the memory it was counted for, a few hundred bytes for a short one), from 1,000 to 200,000 (the limit's default,
     * 256 MB, gives 200,000).
     */
    static int tokenCountEntries(long indexMemoryLimit) {
        return (int) Math.max(1_000, Math.min(200_000, indexMemoryLimit >> 10));
    }
}
