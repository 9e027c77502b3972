package dev.memfas.core.curator;

import dev.memfas.ContextCurator;
import dev.memfas.ContextRequest;
import dev.memfas.ContextResponse;
import dev.memfas.CuratorStats;
import dev.memfas.Memories;
import dev.memfas.Memory;
import dev.memfas.RecallHit;
import dev.memfas.RecallRequest;
import dev.memfas.RememberRequest;
import dev.memfas.Remembered;
import dev.memfas.State;
import dev.memfas.Triggers;
import dev.memfas.core.Memfas;
import dev.memfas.core.envelope.BudgetFiller;
import dev.memfas.core.envelope.LengthDiscount;
import dev.memfas.core.envelope.TokenCounter;
import dev.memfas.core.lifecycle.Layers;
import dev.memfas.core.lifecycle.OtherProcesses;
import dev.memfas.core.telemetry.JsonlTelemetryWriter;
import dev.memfas.core.turn.Admission;
import dev.memfas.core.turn.AuthorNames;
import dev.memfas.core.turn.CandidateGatherer;
import dev.memfas.core.turn.CandidateScorer;
import dev.memfas.core.turn.CandidateSet;
import dev.memfas.core.turn.CandidateSources;
import dev.memfas.core.turn.NamespaceTriggers;
import dev.memfas.core.turn.NeighborExpander;
import dev.memfas.core.turn.PinnedMemories;
import dev.memfas.core.turn.QueryEmbedder;
import dev.memfas.core.turn.QueryVectors;
import dev.memfas.core.turn.Ranking;
import dev.memfas.core.turn.RelevanceGate;
import dev.memfas.core.turn.SessionRegistry;
import dev.memfas.core.turn.SessionOpening;
import dev.memfas.core.turn.SessionState;
import dev.memfas.core.turn.TopicFilter;
import dev.memfas.core.turn.TopicTracker;
import dev.memfas.core.turn.Turn;
import dev.memfas.core.turn.TurnWorkspace;
import dev.memfas.core.write.MemoryWriter;
import dev.memfas.spi.Embedder;
import dev.memfas.spi.MemoryStore;
import dev.memfas.spi.StoredMemory;
import dev.memfas.spi.Tokenizer;
import dev.memfas.telemetry.TelemetryListener;
import dev.memfas.upkeep.Upkeep;
import java.time.Clock;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The {@link ContextCurator} built by {@link Memfas}: the façade over a turn's steps, the write path and the state
 * they share. A turn of {@link #getContext(ContextRequest)} is these steps, each a class that owns its data and hands
 * a value to the next:
 * <ol>
 *   <li>{@link Turn#start}: the time, the budget, the namespace and the session;
 *   <li>{@link QueryEmbedder}: the query (and recent history) embedded, the one model call;
 *   <li>{@link TopicTracker}: the session topic moved towards this turn;
 *   <li>{@link NamespaceTriggers}: the triggers that fire on the query, and the memories they link;
 *   <li>{@link CandidateGatherer}: vector hits, BM25 hits, linked and pinned memories, into a {@link CandidateSet};
 *   <li>{@link Layers}: the session's working memories join them;
 *   <li>{@link CandidateScorer}: every candidate's factors and score;
 *   <li>{@link RelevanceGate}: what may be retrieved: everything, only the best match (and the matches sharing a
 *       word with the query), or nothing;
 *   <li>{@link NeighborExpander}: the memories stored next to the best join them, then the {@link Ranking};
 *   <li>{@link TokenCounter}: every candidate's size as an item;
 *   <li>{@link StateSelection} and {@link RelevanceJudging}: the state asked for, and the turn's one call to the
 *       judge, only for requests that ask for state or a relevance check;
 *   <li>{@link BudgetFiller}: the envelope filled within the budget (retrieved memories only if the gate opened);
 *   <li>{@link TurnPublisher}: access recorded, drops explained, the response made, telemetry told.
 * </ol>
 * A request without a query, the start of a session, skips the search: {@link SessionOpening} gathers the session's
 * working memory, the pinned memories and the latest, and the budget is filled with them in that order.
 * Before the first step, {@link OtherProcesses} applies what other processes wrote to a shared store. A turn's scratch
 * space is a {@link TurnWorkspace} from a pool, so turns allocate little.
 *
 * <p>Its collaborators are wired in {@link CuratorParts}; the calls beyond the loop an agent runs are its facets
 * ({@link CuratorMemories}, {@link StateKeys}, {@link CuratorTriggers}, {@link CuratorUpkeep}).
 *
 * <p>Thread-safe. Writes ({@link MemoryWriter}) are serialized so the store and the index change in the same order;
 * turns run in parallel with each other and with writes.
 */
public final class MemoryCurator implements ContextCurator {
    private final CuratorParts parts;
    private final CuratorSettings settings;
    private final int maxItemTokens;
    private final Clock clock;
    private final SessionRegistry sessions;
    private final OtherProcesses others;
    private final QueryEmbedder queryEmbedder;
    private final AuthorNames authorNames;
    private final TopicTracker topics;
    private final NamespaceTriggers triggers;
    private final TurnWorkspace.Pool workspaces;
    private final CandidateGatherer gatherer;
    private final PinnedMemories pinned;
    private final Layers layers;
    private final CandidateScorer scorer;
    private final RelevanceGate gate;
    private final NeighborExpander neighbors;
    private final TokenCounter tokenCounter;
    private final StateSelection stateSelection;
    private final RelevanceJudging judging;
    private final BudgetFiller filler;
    private final TurnPublisher publisher;
    private final TopicFilter topicFilter;
    private final SessionOpening opening;

    public MemoryCurator(CuratorSettings settings, MemoryStore store, Embedder embedder, Tokenizer tokenizer,
            Clock clock, JsonlTelemetryWriter telemetryWriter, List<TelemetryListener> listeners,
            List<AutoCloseable> owned) {
        this.parts = new CuratorParts(settings, store, embedder, tokenizer, clock, telemetryWriter, listeners, owned,
                this);
        this.settings = settings;
        this.maxItemTokens = settings.maxItemTokens();
        this.clock = clock;
        this.sessions = parts.sessions;
        this.others = parts.others;
        this.queryEmbedder = parts.queryEmbedder;
        this.authorNames = parts.authorNames;
        this.topics = parts.topics;
        this.triggers = parts.triggers;
        this.workspaces = parts.workspaces;
        this.gatherer = parts.gatherer;
        this.pinned = parts.pinned;
        this.layers = parts.layers;
        this.scorer = parts.scorer;
        this.gate = parts.gate;
        this.neighbors = parts.neighbors;
        this.tokenCounter = parts.tokenCounter;
        this.stateSelection = parts.stateSelection;
        this.judging = parts.judging;
        this.filler = parts.filler;
        this.publisher = parts.publisher;
        this.topicFilter = parts.topicFilter;
        this.opening = new SessionOpening(store, parts.pinned,
                ns -> parts.patterns.offers(ns).stream().map(Memories.Pattern::latest).toList());
    }

    // ---------------------------------------------------------------- turns

    @Override
    public ContextResponse getContext(ContextRequest request) {
        Objects.requireNonNull(request, "request");
        ensureOpen();
        others.catchUp();
        if (request.query().isEmpty()) {
            return open(request);
        }
        Turn turn = Turn.start(request, settings, sessions, clock,
                topicFilter.onTopic(request.namespace(), request.filter()), authorNames);
        QueryVectors q = queryEmbedder.embed(turn);
        SessionState.TopicUpdate topic = topics.advance(turn, q);
        NamespaceTriggers.Fired fired = triggers.fire(request);
        TurnWorkspace work = workspaces.take();
        try {
            CandidateSet candidates = work.candidates();
            CandidateSources sources = gatherer.gather(turn, q, fired.linkedIds(), pinned.ids(turn.namespace()),
                    work);
            layers.addCandidates(turn, q, candidates);
            CandidateScorer.TurnSignals signals = scorer.signals(turn, sources, topic, q);
            scorer.score(candidates, signals);
            Admission admission = gate.admission(candidates, q);
            if (admission.all()) {
                neighbors.expand(turn, q, candidates, sources, signals, work.ranking(), work.seeds());
            }
            tokenCounter.count(turn, candidates);
            neighbors.inherit(candidates, turn.budget());
            LengthDiscount.apply(candidates, turn.budget(), maxItemTokens);
            work.ranking().rank(candidates);
            StateSelection.Offer offer = stateSelection.offer(turn.namespace(), request.state());
            RelevanceJudging.Verdict verdict = judging.judge(request.query(),
                    request.relevanceCheck() && admission.any(), candidates, work.ranking(), offer);
            work.link(fired);
            List<StateSelection.Chosen> chosenState = stateSelection.choose(offer, verdict.state(), request.query(),
                    q.query());
            BudgetFiller.Filled filled = filler.fill(turn.plan(), work, admission, chosenState, fired.triggers());
            return publisher.publish(turn, topic, fired, work, filled, admission);
        } finally {
            workspaces.release(work);
        }
    }

    /**
     * A request without a query, the start of a session: {@link Turn#opening}, the {@link SessionOpening}'s candidates
     * (working memory, pinned, the latest) in their order, their sizes, the envelope filled and the turn published.
     * The session's topic is told of the turn but has nothing to move towards.
     */
    private ContextResponse open(ContextRequest request) {
        Turn turn = Turn.opening(request, settings, sessions, clock,
                topicFilter.onTopic(request.namespace(), request.filter()));
        SessionState.TopicUpdate topic = topics.advance(turn, QueryVectors.NONE);
        TurnWorkspace work = workspaces.take();
        try {
            CandidateSet candidates = work.candidates();
            opening.gather(turn, candidates);
            tokenCounter.count(turn, candidates);
            work.ranking().rank(candidates);
            work.link(NamespaceTriggers.Fired.NONE);
            BudgetFiller.Filled filled = filler.fill(turn.plan(), work, Admission.ALL, List.of(), List.of());
            return publisher.publish(turn, topic, NamespaceTriggers.Fired.NONE, work, filled, Admission.ALL);
        } finally {
            workspaces.release(work);
        }
    }

    @Override
    public List<RecallHit> recall(RecallRequest recall) {
        Objects.requireNonNull(recall, "recall");
        ensureOpen();
        others.catchUp();
        return parts.search.recall(recall);
    }

    /** Runs a search in every namespace, recording nothing, so that a first turn costs what later ones do. */
    public void warmUp() {
        parts.search.warmUp(parts.store.namespaces(), parts.tokenizer);
    }

    // ---------------------------------------------------------------- writes

    @Override
    public Memory remember(Memory memory) {
        Objects.requireNonNull(memory, "memory");
        return rememberAll(List.of(memory)).get(0);
    }

    @Override
    public List<Memory> rememberAll(Collection<Memory> memories) {
        Objects.requireNonNull(memories, "memories");
        ensureOpen();
        return parts.writer.rememberAll(memories, clock.instant());
    }

    @Override
    public Remembered remember(RememberRequest request) {
        Objects.requireNonNull(request, "request");
        ensureOpen();
        return layers.remember(request);
    }

    @Override
    public boolean forget(String namespace, String memoryId) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(memoryId, "memoryId");
        ensureOpen();
        boolean dropped = layers.forget(namespace, memoryId);
        return parts.writer.forget(namespace, memoryId) || dropped;
    }

    // ---------------------------------------------------------------- reads, facets and lifecycle

    @Override
    public Optional<StoredMemory> get(String namespace, String memoryId) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(memoryId, "memoryId");
        ensureOpen();
        return parts.store.get(namespace, memoryId);
    }

    @Override
    public CuratorStats stats() {
        ensureOpen();
        return parts.counts.all();
    }

    @Override
    public CuratorStats stats(String namespace) {
        ensureOpen();
        return parts.counts.of(namespace);
    }

    @Override
    public Memories memories() {
        return parts.memories;
    }

    @Override
    public State state() {
        return parts.state;
    }

    @Override
    public Triggers triggers() {
        return parts.triggerFacet;
    }

    @Override
    public Upkeep upkeep() {
        return parts.upkeep;
    }

    @Override
    public void close() {
        parts.close();
    }

    private void ensureOpen() {
        parts.ensureOpen();
    }
}
