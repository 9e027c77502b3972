package dev.memfas.core;

import dev.memfas.AgentEvent;
import dev.memfas.ContextCurator;
import dev.memfas.ContextRequest;
import dev.memfas.ContextResponse;
import dev.memfas.CuratorStats;
import dev.memfas.spi.Embedder;
import dev.memfas.EventOutcome;
import dev.memfas.MaintenanceReport;
import dev.memfas.MaintenanceRequest;
import dev.memfas.Layer;
import dev.memfas.Memory;
import dev.memfas.MemoryFilter;
import dev.memfas.spi.MemoryStore;
import dev.memfas.MemoryVersion;
import dev.memfas.Orientation;
import dev.memfas.RecallHit;
import dev.memfas.RecallRequest;
import dev.memfas.RememberRequest;
import dev.memfas.Remembered;
import dev.memfas.Scope;
import dev.memfas.SaveOutcome;
import dev.memfas.StateEntry;
import dev.memfas.spi.StoredMemory;
import dev.memfas.SummarizeRequest;
import dev.memfas.SummaryReport;
import dev.memfas.telemetry.TelemetryListener;
import dev.memfas.TimeService;
import dev.memfas.spi.Tokenizer;
import dev.memfas.Trigger;
import dev.memfas.TriggerSuggestion;
import dev.memfas.UsageReport;
import dev.memfas.spi.VectorSpace;
import dev.memfas.core.vector.ScanThreads;
import java.time.Clock;
import java.time.ZoneId;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;

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
 * Before the first step, {@link OtherProcesses} applies what other processes wrote to a shared store. A turn's scratch
 * space is a {@link TurnWorkspace} from a pool, so turns allocate little.
 *
 * <p>Thread-safe. Writes ({@link MemoryWriter}) are serialized so the store and the index change in the same order;
 * turns run in parallel with each other and with writes.
 */
final class MemoryCurator implements ContextCurator {

    private final CuratorSettings settings;
    private final MemoryStore store;
    private final VectorSpace space;
    private final Tokenizer tokenizer;
    private final Clock clock;
    private final JsonlTelemetryWriter telemetryWriter;

    private final SessionRegistry sessions;
    private final NamespaceIndexes indexes;
    private final NamespaceTriggers triggers;
    private final PinnedMemories pinned;
    private final AuthorNames authorNames;
    /** Brings in what other processes write to a shared store. */
    private final OtherProcesses others;
    private final MemoryWriter writer;

    private final QueryEmbedder queryEmbedder;
    private final TopicTracker topics;
    private final CandidateGatherer gatherer;
    private final CandidateScorer scorer;
    private final RelevanceGate gate;
    private final NeighborExpander neighbors;
    private final MemoryListing listing;
    private final TopicFilter topicFilter;
    private final StateKeys state;
    private final StateSelection stateSelection;
    private final Offers offers;
    private final RelevanceJudging judging;
    private final TokenCounter tokenCounter;
    private final BudgetFiller filler;
    private final TurnPublisher publisher;
    private final Maintenance maintenance;
    private final Revisions revisions;
    private final Consolidation consolidation;
    private final Orienteer orienteer;
    private final EventHandler events;
    private final UsageFeedback feedback;
    private final TriggerSuggester suggester;
    private final Search search;
    private final CuratorCounts counts;
    private final Layers layers;
    private final TurnWorkspace.Pool workspaces = new TurnWorkspace.Pool(Math.max(4, 2 * ScanThreads.PROCESSORS));
    private volatile boolean closed;

    MemoryCurator(CuratorSettings settings, MemoryStore store, Embedder embedder, Tokenizer tokenizer, Clock clock,
            JsonlTelemetryWriter telemetryWriter, List<TelemetryListener> listeners) {
        this.settings = settings;
        this.store = store;
        this.space = embedder == null ? null : new VectorSpace(embedder.modelId(), embedder.dimension());
        this.tokenizer = tokenizer;
        this.clock = clock;
        this.telemetryWriter = telemetryWriter;
        this.sessions = new SessionRegistry(clock, settings.sessionIdleTimeout(), settings.maxSessions());
        this.indexes = new NamespaceIndexes(store, space == null ? 0 : space.dimension());
        this.triggers = new NamespaceTriggers(store);
        this.pinned = new PinnedMemories(store);
        // Before anything is loaded: a change committed while loading is applied again at the first turn, harmlessly.
        ChangeFollower follower = OtherProcesses.follow(store);
        TokenCountCache tokenCounts = new TokenCountCache(tokenizer, 200_000);
        this.authorNames = new AuthorNames(store);
        this.queryEmbedder = new QueryEmbedder(embedder, authorNames);
        this.topics = new TopicTracker(settings.topicShiftThreshold());
        this.gatherer = new CandidateGatherer(store, indexes, settings.candidateLimit(), settings.scanThreads());
        this.scorer = new CandidateScorer(settings.weights(), settings.recencyHalfLife(), settings.timeWindowWeight());
        this.gate = new RelevanceGate(settings.relevanceFloor(), settings.meaningAloneFloor(),
                settings.worldKnowledgeProbe(), settings.worldKnowledgeRaise());
        this.neighbors = new NeighborExpander(store, scorer, settings.neighborRadius(), settings.neighborShare());
        this.state = new StateKeys(store, clock);
        this.stateSelection = new StateSelection(store, queryEmbedder, settings.relevanceFloor());
        this.offers = new Offers(store, state, settings.savePolicy(), settings.savePolicyTimeout());
        this.judging = new RelevanceJudging(settings.relevanceJudge(), settings.relevanceJudgeTimeout());
        this.tokenCounter = new TokenCounter(store, tokenizer, tokenCounts);
        this.writer = new MemoryWriter(store, embedder, settings.embedBatchSize(), indexes, triggers, pinned,
                authorNames, tokenCounter, settings.writeDuplicates(), settings.supersession(), this::ensureOpen);
        this.others = new OtherProcesses(follower, store, writer, indexes, triggers, pinned, authorNames);
        this.filler = new BudgetFiller(tokenizer, tokenCounts, settings.maxItemTokens(), settings.triggerReserve(),
                settings.duplicateSimilarity());
        Listeners told = new Listeners(listeners);
        this.publisher = new TurnPublisher(store, tokenizer, settings, told);
        this.maintenance = new Maintenance(store, writer, settings.retention());
        this.revisions = new Revisions(store, writer);
        this.consolidation = new Consolidation(store, writer, settings.summarizer(), tokenizer);
        this.orienteer = new Orienteer(store, clock);
        this.events = new EventHandler(this, sessions);
        this.suggester = new TriggerSuggester(store);
        // Queries are kept for suggestions only where telemetry may keep them.
        this.feedback = new UsageFeedback(store, sessions, clock, settings.redactQueries() ? null : suggester, told);
        this.topicFilter = new TopicFilter(store, indexes, queryEmbedder, settings.relevanceFloor(),
                settings.scanThreads());
        this.listing = new MemoryListing(store, topicFilter);
        this.search = new Search(queryEmbedder, topics, gatherer, scorer, workspaces, topicFilter, clock);
        this.counts = new CuratorCounts(store, indexes, sessions, publisher, space, tokenizer);
        this.layers = new Layers(store, writer, revisions, sessions, embedder, settings.workingMemoryTtl(),
                settings.workingMemoryLimit(), clock);
        Set<String> namespaces = store.namespaces();
        if (space != null) {
            indexes.loadAll(space);
            namespaces.forEach(authorNames::names);
        }
        namespaces.forEach(pinned::ids);
        // Told of other processes' commits, an idle curator applies them at once rather than in its next turn.
        others.listen();
    }

    // ---------------------------------------------------------------- turns

    @Override
    public ContextResponse getContext(ContextRequest request) {
        Objects.requireNonNull(request, "request");
        ensureOpen();
        others.catchUp();
        Turn turn = Turn.start(request, settings, sessions, clock,
                topicFilter.onTopic(request.namespace(), request.filter()));
        QueryVectors q = queryEmbedder.embed(turn);
        SessionState.TopicUpdate topic = topics.advance(turn, q);
        NamespaceTriggers.Fired fired = triggers.fire(request);
        TurnWorkspace work = workspaces.take();
        try {
            CandidateSet candidates = work.candidates();
            CandidateSources sources = gatherer.gather(turn, q, fired.linkedIds(), pinned.ids(turn.namespace()),
                    work);
            layers.addCandidates(turn, q, candidates);
            CandidateScorer.TurnSignals signals = new CandidateScorer.TurnSignals(turn.inForce().at(),
                    scorer.window(request.query(), turn.inForce().at()), sources.index() != null, topic.vector(),
                    topic.terms(), turn.hasSession() ? turn.session().hotMemoryIds() : Set.of(), turn.hasSession(),
                    turn.inForce().scopes(), q.namedAuthors());
            scorer.score(candidates, signals);
            Admission admission = gate.admission(candidates, q.namesAuthor(), q.query());
            if (admission.all()) {
                neighbors.expand(turn, q, candidates, sources, signals, work.ranking(), work.seeds());
            }
            tokenCounter.count(turn, candidates);
            neighbors.inherit(candidates, turn.budget());
            LengthDiscount.apply(candidates, turn.budget(), settings.maxItemTokens());
            work.ranking().rank(candidates);
            StateSelection.Offer offer = stateSelection.offer(turn.namespace(), request.state());
            RelevanceJudging.Verdict verdict = judging.judge(request.query(),
                    request.relevanceCheck() && admission.any(), candidates, work.ranking(), offer);
            work.link(fired);
            List<StateSelection.Chosen> chosenState = stateSelection.choose(offer, verdict.state(), request.query(),
                    q.query());
            BudgetFiller.Filled filled = filler.fill(turn.plan(), chosenState, fired.triggers(), candidates,
                    work.linked(), work.linkedCount(), work.ranking(), admission, work.fill());
            return publisher.publish(turn, topic, fired, work, filled, admission);
        } finally {
            workspaces.release(work);
        }
    }

    @Override
    public List<RecallHit> recall(RecallRequest recall) {
        Objects.requireNonNull(recall, "recall");
        ensureOpen();
        others.catchUp();
        return search.recall(recall);
    }

    /** Runs a search in every namespace, recording nothing, so that a first turn costs what later ones do. */
    void warmUp() {
        search.warmUp(store.namespaces(), tokenizer);
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
        return writer.rememberAll(memories, clock.instant());
    }

    @Override
    public Remembered remember(RememberRequest request) {
        Objects.requireNonNull(request, "request");
        ensureOpen();
        return layers.remember(request);
    }

    @Override
    public Memory promote(String namespace, String memoryId, Layer layer) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(memoryId, "memoryId");
        Objects.requireNonNull(layer, "layer");
        ensureOpen();
        return layers.promote(namespace, memoryId, layer);
    }

    @Override
    public List<Memory> workingMemory(String namespace, String sessionId) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(sessionId, "sessionId");
        ensureOpen();
        return layers.workingMemory(namespace, sessionId);
    }

    @Override
    public Memory update(String namespace, String memoryId, UnaryOperator<Memory.Builder> change) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(memoryId, "memoryId");
        Objects.requireNonNull(change, "change");
        ensureOpen();
        return revisions.update(namespace, memoryId, change, clock.instant());
    }

    @Override
    public Memory supersede(String oldId, Memory replacement) {
        Objects.requireNonNull(oldId, "oldId");
        Objects.requireNonNull(replacement, "replacement");
        ensureOpen();
        return revisions.supersede(oldId, replacement, clock.instant());
    }

    @Override
    public List<MemoryVersion> history(String namespace, String memoryId) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(memoryId, "memoryId");
        ensureOpen();
        return revisions.history(namespace, memoryId);
    }

    @Override
    public TimeService time() {
        return TimeService.of(clock);
    }

    @Override
    public EventOutcome reportEvent(AgentEvent event) {
        Objects.requireNonNull(event, "event");
        ensureOpen();
        return events.handle(event);
    }

    @Override
    public Orientation orient(String namespace, ZoneId zone) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(zone, "zone");
        // The request's check of the namespace is the one orientation needs.
        ContextRequest.builder("orient").namespace(namespace).build();
        ensureOpen();
        others.catchUp();
        return orienteer.orient(namespace, zone);
    }

    @Override
    public MaintenanceReport maintain(MaintenanceRequest request) {
        Objects.requireNonNull(request, "request");
        ensureOpen();
        others.catchUp();
        return maintenance.run(request, clock.instant());
    }

    @Override
    public SummaryReport summarize(SummarizeRequest request) {
        Objects.requireNonNull(request, "request");
        ensureOpen();
        others.catchUp();
        return consolidation.run(request, clock.instant());
    }

    @Override
    public Memory restore(String namespace, String memoryId) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(memoryId, "memoryId");
        ensureOpen();
        return revisions.restore(namespace, memoryId, clock.instant());
    }

    @Override
    public boolean forget(String namespace, String memoryId) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(memoryId, "memoryId");
        ensureOpen();
        boolean dropped = layers.forget(namespace, memoryId);
        return writer.forget(namespace, memoryId) || dropped;
    }

    @Override
    public void addTrigger(Trigger trigger) {
        Objects.requireNonNull(trigger, "trigger");
        ensureOpen();
        writer.addTrigger(trigger);
    }

    @Override
    public boolean removeTrigger(String namespace, String keyword) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(keyword, "keyword");
        ensureOpen();
        return writer.removeTrigger(namespace, keyword);
    }

    @Override
    public List<TriggerSuggestion> suggestTriggers(String namespace) {
        Objects.requireNonNull(namespace, "namespace");
        ContextRequest.builder("suggest").namespace(namespace).build();
        ensureOpen();
        return suggester.suggestions(namespace);
    }

    @Override
    public UsageReport reportUsage(String namespace, String sessionId, Collection<String> memoryIds, boolean helpful) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(memoryIds, "memoryIds");
        ensureOpen();
        return feedback.report(namespace, sessionId, memoryIds, helpful);
    }

    // ---------------------------------------------------------------- reads and lifecycle

    @Override
    public Optional<StoredMemory> get(String namespace, String memoryId) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(memoryId, "memoryId");
        ensureOpen();
        return store.get(namespace, memoryId);
    }

    @Override
    public List<StoredMemory> memoryContext(String namespace, Scope scope, String kind, int limit) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(scope, "scope");
        ensureOpen();
        String k = kind == null ? null : kind.strip().toLowerCase(Locale.ROOT);
        return listing.memoryContext(namespace, scope, k, limit, clock.instant());
    }

    @Override
    public void saveState(String namespace, String key, String json) {
        ensureOpen();
        state.save(namespace, key, json);
    }

    @Override
    public Optional<String> loadState(String namespace, String key) {
        ensureOpen();
        return state.load(namespace, key);
    }

    @Override
    public List<StateEntry> listStateKeys(String namespace, boolean includePreview) {
        ensureOpen();
        return state.list(namespace, includePreview);
    }

    @Override
    public Map<String, String> searchState(String namespace, String glob, int limit) {
        ensureOpen();
        return state.search(namespace, glob, limit);
    }

    @Override
    public boolean deleteState(String namespace, String key) {
        ensureOpen();
        return state.delete(namespace, key);
    }

    @Override
    public int clearState(String namespace) {
        ensureOpen();
        return state.clear(namespace);
    }

    @Override
    public SaveOutcome offer(String namespace, String toolName, String result, String goal) {
        ensureOpen();
        return offers.offer(namespace, toolName, result, goal);
    }

    @Override
    public List<Memory> list(String namespace, MemoryFilter filter, int offset, int limit) {
        ensureOpen();
        return listing.list(namespace, filter, offset, limit);
    }

    @Override
    public CuratorStats stats() {
        ensureOpen();
        return counts.all();
    }

    @Override
    public CuratorStats stats(String namespace) {
        ensureOpen();
        return counts.of(namespace);
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        others.close();
        offers.close();
        judging.close();
        writer.exclusively(() -> {
            if (telemetryWriter != null) {
                telemetryWriter.close();
            }
            store.close();
        });
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("curator is closed");
        }
    }
}
