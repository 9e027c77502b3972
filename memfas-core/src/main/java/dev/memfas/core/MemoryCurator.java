package dev.memfas.core;

import dev.memfas.ContextCurator;
import dev.memfas.ContextItem;
import dev.memfas.ContextRequest;
import dev.memfas.ContextResponse;
import dev.memfas.CuratorStats;
import dev.memfas.DroppedMemory;
import dev.memfas.Embedder;
import dev.memfas.Embeddings;
import dev.memfas.LexicalHit;
import dev.memfas.RecallHit;
import dev.memfas.SharedStore;
import dev.memfas.MemfasException;
import dev.memfas.Memory;
import dev.memfas.MemoryFilter;
import dev.memfas.MemoryStore;
import dev.memfas.StoredMemory;
import dev.memfas.Tokenizer;
import dev.memfas.Trigger;
import dev.memfas.UsageReport;
import dev.memfas.VectorSpace;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link ContextCurator} built by {@link Memfas}: runs the per-turn pipeline (candidates, scoring, session topic,
 * triggers, budget fill, envelope, telemetry) over a {@link MemoryStore}, with an in-process vector index per
 * namespace loaded from the store on first use and kept in step with this curator's writes.
 *
 * <p>Thread-safe. Writes (remember, forget) are serialized so the store and the index change in the same order; turns
 * run in parallel with each other and with writes.
 */
final class MemoryCurator implements ContextCurator {
    private static final Logger LOG = LoggerFactory.getLogger(MemoryCurator.class);
    private static final int TOP_MEMORIES_IN_TELEMETRY = 5;
    private static final float HISTORY_WEIGHT = 0.5f;
    private static final int LOAD_CHUNK = 4096;
    /** How many of a turn's best-ranked memories bring their stored neighbors as context. */
    private static final int NEIGHBOR_SEEDS = 5;
    /** The share of a seed's score a neighbor inherits per step between them. */
    private static final double NEIGHBOR_DECAY = 0.8;
    /** Memories created further apart than this are not each other's context, however they were stored. */
    private static final Duration NEIGHBOR_TIME_WINDOW = Duration.ofHours(1);
    /** Ranking order: higher score first, ties by id so equal scores rank the same way every time. */
    private static final java.util.Comparator<Candidate> BEST_FIRST = (a, b) -> {
        int cmp = Double.compare(b.score, a.score);
        return cmp != 0 ? cmp : a.id().compareTo(b.id());
    };

    private static final java.util.Comparator<Memory> NEWEST_FIRST =
            java.util.Comparator.comparing(Memory::createdAt).reversed().thenComparing(Memory::id);

    private final MemoryStore store;
    private final Embedder embedder;
    private final VectorSpace space;
    private final Tokenizer tokenizer;
    private final Clock clock;
    private final int defaultBudget;
    private final ScoringWeights weights;
    private final CandidateScorer scorer;
    private final BudgetFiller filler;
    private final DropExplainer dropExplainer;
    private final TokenCountCache tokenCounts;
    private final String tokenCountKey;
    private final SessionRegistry sessions;
    private final PinnedMemories pinned;
    /** Follows writes of other processes; null when the store is this process's alone. */
    private final ChangeFollower follower;
    private final int candidateLimit;
    private final int neighborRadius;
    private final int embedBatchSize;
    private final int scanThreads;
    private final double topicShiftThreshold;
    private final List<TelemetryListener> listeners;
    private final JsonlTelemetryWriter telemetryWriter;
    private final boolean redactQueries;

    private final ConcurrentHashMap<String, VectorIndex> indexes = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, TriggerMatcher> triggerMatchers = new ConcurrentHashMap<>();
    private final ReentrantLock writeLock = new ReentrantLock();
    private final AtomicLong turns = new AtomicLong();
    private volatile boolean closed;

    MemoryCurator(Memfas.Builder b, Clock clock, MemoryStore store, Tokenizer tokenizer,
            JsonlTelemetryWriter telemetryWriter, List<TelemetryListener> listeners) {
        this.store = store;
        this.embedder = b.embedder;
        this.space = embedder == null ? null : new VectorSpace(embedder.modelId(), embedder.dimension());
        this.tokenizer = tokenizer;
        this.clock = clock;
        this.defaultBudget = b.tokenBudget;
        this.weights = b.weights;
        this.scorer = new CandidateScorer(b.weights, b.recencyHalfLife);
        this.tokenCounts = new TokenCountCache(tokenizer, 200_000);
        this.tokenCountKey = tokenizer.id() + "/" + ContextEnvelope.ITEM_FORMAT;
        this.filler = new BudgetFiller(tokenizer, tokenCounts, b.maxItemTokens, b.triggerReserve, b.minScore,
                b.duplicateSimilarity);
        this.dropExplainer = new DropExplainer(b.minScore, b.duplicateSimilarity);
        this.sessions = new SessionRegistry(clock, b.sessionIdleTimeout, b.maxSessions);
        this.pinned = new PinnedMemories(store);
        // Before anything is loaded: a change committed while loading is applied again at the first turn, harmlessly.
        this.follower = store instanceof SharedStore shared ? new ChangeFollower(shared) : null;
        this.candidateLimit = b.candidateLimit;
        this.neighborRadius = b.neighborRadius;
        this.embedBatchSize = b.embedBatchSize;
        this.scanThreads = b.scanThreads;
        this.topicShiftThreshold = b.topicShiftThreshold;
        this.telemetryWriter = telemetryWriter;
        this.listeners = List.copyOf(listeners);
        this.redactQueries = b.redactQueries;
        if (space != null) {
            store.vectorSpace().ifPresent(stored -> {
                if (!stored.equals(space)) {
                    throw new MemfasException("the store holds vectors of " + stored + " but the embedder is " + space
                            + "; re-embed the store or use the matching embedder");
                }
            });
            // Load every namespace's vectors now, so the first turn does not pay for it.
            store.namespaces().forEach(this::indexFor);
        }
        store.namespaces().forEach(pinned::ids);
    }

    // ---------------------------------------------------------------- turns

    @Override
    public ContextResponse getContext(String query, String sessionId) {
        Objects.requireNonNull(query, "query");
        Objects.requireNonNull(sessionId, "sessionId");
        return getContext(ContextRequest.builder(query).sessionId(sessionId).build());
    }

    @Override
    public ContextResponse getContext(ContextRequest request) {
        Objects.requireNonNull(request, "request");
        ensureOpen();
        catchUp();
        long start = System.nanoTime();
        Instant now = clock.instant();
        int budget = request.tokenBudget().orElse(defaultBudget);
        String namespace = request.namespace();
        SessionState session = request.sessionId() == null ? null : sessions.acquire(request.sessionId(), namespace);

        float[] queryVector = null;
        float[] turnVector = null;
        if (embedder != null) {
            String history = String.join("\n", request.recentHistory());
            List<float[]> vectors = embed(history.isBlank() ? List.of(request.query())
                    : List.of(request.query(), history), "the query");
            queryVector = Vectors.normalizedCopy(vectors.get(0), space.dimension());
            turnVector = vectors.size() == 1 ? queryVector : blend(queryVector, vectors.get(1));
        }
        Map<String, Double> terms = termWeights(request);
        SessionState.TopicUpdate topic = session != null
                ? session.advance(turnVector, terms, topicShiftThreshold)
                : new SessionState("", namespace, now).advance(turnVector, terms, topicShiftThreshold);
        Set<String> hot = session != null ? session.hotMemoryIds() : Set.of();

        List<Trigger> fired = request.includeTriggers() ? triggersFor(namespace).match(request.query()) : List.of();
        LinkedHashSet<String> linkedIds = new LinkedHashSet<>();
        fired.forEach(t -> linkedIds.addAll(t.memoryIds()));
        Gathered gathered = gather(namespace, request.query(), queryVector, linkedIds, pinned.ids(namespace), now);
        CandidateScorer.TurnSignals signals = new CandidateScorer.TurnSignals(now, gathered.index() != null,
                topic.vector(), topic.terms(), gathered.matrix(), hot, session != null, request.project(),
                request.language());
        scorer.score(gathered.candidates(), signals);
        List<Candidate> ranked = new ArrayList<>();
        for (Candidate c : gathered.candidates()) {
            if (!c.linkedByTrigger) {
                ranked.add(c);
            }
        }
        ranked.sort(BEST_FIRST);
        if (neighborRadius > 0) {
            gathered = addNeighbors(namespace, gathered, ranked, queryVector, signals, now);
        }
        List<Candidate> candidates = gathered.candidates();
        float[] matrix = gathered.matrix();
        warmTokenCounts(namespace, candidates);
        List<Candidate> linked = new ArrayList<>();
        Map<String, Candidate> byId = new HashMap<>();
        for (Candidate c : candidates) {
            byId.put(c.id(), c);
        }
        for (String id : linkedIds) {
            Candidate c = byId.get(id);
            if (c != null) {
                linked.add(c);
            }
        }

        BudgetFiller.Filled filled = filler.fill(budget, fired, linked, ranked, matrix,
                space == null ? 0 : space.dimension());
        if (request.recordAccess() && !filled.includedIds().isEmpty()) {
            store.recordAccess(namespace, filled.includedIds(), now);
            if (session != null) {
                session.recordIncluded(filled.includedIds());
            }
        }
        Duration latency = Duration.ofNanos(System.nanoTime() - start);
        List<String> firedKeywords = fired.stream().map(Trigger::keyword).toList();
        List<DroppedMemory> dropped = request.explain()
                ? dropExplainer.explain(linked, ranked, filled.includedIds(), byId, matrix,
                        space == null ? 0 : space.dimension())
                : List.of();
        ContextResponse response = new ContextResponse(filled.context(), filled.tokens(), budget, filled.items(),
                candidates.size(), filled.dropped(), firedKeywords, topic.label(), topic.shifted(), latency, dropped);
        turns.incrementAndGet();
        publish(request, now, topic, response, filled);
        return response;
    }

    /**
     * The candidates of one search, and their vectors as rows of one matrix (null without an embedder; it may have
     * unused rows after the candidates'); with the search's raw signals, so more memories can join the same candidates.
     */
    private record Gathered(List<Candidate> candidates, float[] matrix, VectorIndex index, VectorIndex.Hits hits,
            Map<String, Integer> hitIndex, Map<String, Double> bm25, Set<String> linkedIds) {}

    /**
     * Candidates: nearest vectors, best BM25 matches, and the given linked memories; expired ones left out. The lexical
     * search, reading its hits and the linked memories from the store and gathering their vectors all run on this
     * thread while helper threads begin the vector scan; the vector hits not read by then are read after it.
     */
    private Gathered gather(String namespace, String query, float[] queryVector, Set<String> linkedIds,
            Set<String> pinnedIds, Instant now) {
        VectorIndex index = embedder == null ? null : indexFor(namespace);
        Map<String, Double> bm25 = new HashMap<>();
        Set<String> lexicalIds = new LinkedHashSet<>(linkedIds);
        // Pinned memories are always candidates: read with the lexical hits.
        lexicalIds.addAll(pinnedIds);
        List<Gathered> lexicalSide = new ArrayList<>(1);
        Runnable lexical = () -> {
            for (LexicalHit hit : store.searchLexical(namespace, query, candidateLimit)) {
                bm25.put(hit.memoryId(), hit.score());
                lexicalIds.add(hit.memoryId());
            }
            Gathered none = new Gathered(List.of(), new float[0], index, VectorIndex.Hits.EMPTY, Map.of(), bm25,
                    linkedIds);
            lexicalSide.add(candidatesOf(none, store.getAll(namespace, lexicalIds), queryVector, now));
        };
        VectorIndex.Hits hits;
        if (index == null) {
            hits = VectorIndex.Hits.EMPTY;
            lexical.run();
        } else {
            hits = index.search(queryVector, candidateLimit, scanThreads, lexical);
        }
        Map<String, Integer> hitIndex = new HashMap<>();
        for (int i = 0; i < hits.size(); i++) {
            hitIndex.put(hits.ids()[i], i);
        }
        Gathered early = lexicalSide.get(0);
        for (Candidate c : early.candidates()) {
            Integer hit = hitIndex.get(c.id());
            if (hit != null) {
                // The scan's exact cosine, so a memory scores the same whichever way it was found.
                c.cosine = hits.scores()[hit];
            }
        }
        List<String> rest = new ArrayList<>();
        for (String id : hits.ids()) {
            if (!lexicalIds.contains(id)) {
                rest.add(id);
            }
        }
        Gathered withHits = new Gathered(early.candidates(), early.matrix(), index, hits, hitIndex, bm25, linkedIds);
        return rest.isEmpty() ? withHits : candidatesOf(withHits, store.getAll(namespace, rest), queryVector, now);
    }

    /**
     * Makes candidates of the stored memories that have not expired, after those of {@code base}, and gathers their
     * vectors into rows after the base's.
     */
    private Gathered candidatesOf(Gathered base, List<StoredMemory> stored, float[] queryVector, Instant now) {
        int first = base.candidates().size();
        List<Candidate> candidates = new ArrayList<>(first + stored.size());
        candidates.addAll(base.candidates());
        List<String> newIds = new ArrayList<>(stored.size());
        int[] slotHints = new int[stored.size()];
        for (StoredMemory s : stored) {
            if (s.memory().isExpiredAt(now)) {
                continue;
            }
            Candidate c = new Candidate(s);
            Integer hit = base.hitIndex().get(c.id());
            c.cosine = hit == null ? Float.NaN : base.hits().scores()[hit];
            c.bm25 = base.bm25().getOrDefault(c.id(), 0.0);
            c.linkedByTrigger = base.linkedIds().contains(c.id());
            slotHints[newIds.size()] = hit == null ? -1 : base.hits().slots()[hit];
            candidates.add(c);
            newIds.add(c.id());
        }
        VectorIndex index = base.index();
        float[] matrix = null;
        if (index != null) {
            int dimension = space.dimension();
            int needed = candidates.size() * dimension;
            matrix = base.matrix();
            if (matrix.length < needed) {
                // With room for the rows that usually join later (the vector hits, then neighbors), so that they are
                // written in place: copying a few hundred rows each time cost more than gathering them.
                int spareRows = candidateLimit + 2 * NEIGHBOR_SEEDS * neighborRadius;
                matrix = Arrays.copyOf(matrix, (int) Math.min(Integer.MAX_VALUE - 8,
                        Math.max((long) needed + (long) spareRows * dimension, 2L * matrix.length)));
            }
            boolean[] present = index.gather(newIds, slotHints, matrix, first);
            for (int i = 0; i < newIds.size(); i++) {
                Candidate c = candidates.get(first + i);
                if (present[i]) {
                    c.row = first + i;
                    if (Float.isNaN(c.cosine)) {
                        c.cosine = Vectors.dotRow(matrix, c.row, queryVector);
                    }
                }
            }
        }
        return new Gathered(candidates, matrix, index, base.hits(), base.hitIndex(), base.bm25(), base.linkedIds());
    }

    /**
     * The memories stored next to the best-ranked candidates, as context for them: each inherits its seed's score
     * times {@link #NEIGHBOR_DECAY} per step, if it came from the same source within {@link #NEIGHBOR_TIME_WINDOW}.
     * Neighbors that were not candidates join the candidates (the whole set is then scored again, so they carry their
     * own factors too); a neighbor's score is the higher of its own and the inherited one.
     *
     * @return the candidates with neighbors, scored, and {@code ranked} re-sorted; {@code g} itself if no neighbor
     *     qualifies
     */
    private Gathered addNeighbors(String namespace, Gathered g, List<Candidate> ranked, float[] queryVector,
            CandidateScorer.TurnSignals signals, Instant now) {
        int seeds = Math.min(NEIGHBOR_SEEDS, ranked.size());
        Set<String> known = new HashSet<>();
        g.candidates().forEach(c -> known.add(c.id()));
        Map<String, StoredMemory> joining = new LinkedHashMap<>();
        List<List<Link>> links = new ArrayList<>(seeds);
        for (int i = 0; i < seeds; i++) {
            Memory seed = ranked.get(i).stored.memory();
            List<Link> mine = new ArrayList<>();
            links.add(mine);
            if (seed.source().equals(Memory.DEFAULT_SOURCE)) {
                continue;
            }
            List<StoredMemory> window = store.neighborhood(namespace, seed.id(), neighborRadius);
            int at = indexOf(window, seed.id());
            for (int j = 0; at >= 0 && j < window.size(); j++) {
                StoredMemory s = window.get(j);
                if (j != at && isNeighbor(seed, s.memory(), now)) {
                    mine.add(new Link(s.memory().id(), Math.abs(j - at)));
                    if (!known.contains(s.memory().id())) {
                        joining.putIfAbsent(s.memory().id(), s);
                    }
                }
            }
        }
        Gathered out = g;
        if (!joining.isEmpty()) {
            out = candidatesOf(g, new ArrayList<>(joining.values()), queryVector, now);
            scorer.score(out.candidates(), signals.withMatrix(out.matrix()));
        }
        // The seeds are the same candidates, scored again if neighbors joined.
        Map<String, Double> inherited = new HashMap<>();
        for (int i = 0; i < seeds; i++) {
            double seedScore = ranked.get(i).score;
            for (Link link : links.get(i)) {
                inherited.merge(link.id(), seedScore * Math.pow(NEIGHBOR_DECAY, link.steps()), Math::max);
            }
        }
        ranked.clear();
        for (Candidate c : out.candidates()) {
            Double score = inherited.get(c.id());
            if (score != null) {
                c.factors = c.factors.withNeighbor(score);
                c.score = Math.max(c.score, score);
            }
            if (!c.linkedByTrigger) {
                ranked.add(c);
            }
        }
        ranked.sort(BEST_FIRST);
        return out;
    }

    /** A seed's neighbor, {@code steps} places away from it in storage order. */
    private record Link(String id, int steps) {}

    /** Where the memory is in the window, or -1 if it is not (deleted since it was gathered). */
    private static int indexOf(List<StoredMemory> window, String id) {
        for (int i = 0; i < window.size(); i++) {
            if (window.get(i).memory().id().equals(id)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Whether a memory stored next to a seed is context for it: from the same stated source (the default source says
     * nothing about where a memory came from), with the same scope, created close in time, not expired.
     */
    private static boolean isNeighbor(Memory seed, Memory m, Instant now) {
        if (m.isExpiredAt(now) || seed.source().equals(Memory.DEFAULT_SOURCE) || !m.source().equals(seed.source())
                || !m.scope().equals(seed.scope())) {
            return false;
        }
        Duration apart = Duration.between(seed.createdAt(), m.createdAt()).abs();
        return apart.compareTo(NEIGHBOR_TIME_WINDOW) <= 0;
    }

    @Override
    public List<RecallHit> recall(String query, String namespace, int limit) {
        Objects.requireNonNull(query, "query");
        Objects.requireNonNull(namespace, "namespace");
        if (limit < 1 || limit > 1000) {
            throw new IllegalArgumentException("recall limit must be in [1, 1000]: " + limit);
        }
        // The request's checks (blank, length, namespace) are the same for a search as for a turn.
        ContextRequest request = ContextRequest.builder(query).namespace(namespace).build();
        ensureOpen();
        catchUp();
        Instant now = clock.instant();
        float[] queryVector = null;
        if (embedder != null) {
            queryVector = Vectors.normalizedCopy(embed(List.of(query), "the query").get(0), space.dimension());
        }
        Map<String, Double> terms = termWeights(request);
        SessionState.TopicUpdate topic = new SessionState("", namespace, now).advance(queryVector, terms,
                topicShiftThreshold);
        Gathered gathered = gather(namespace, query, queryVector, Set.of(), Set.of(), now);
        List<Candidate> candidates = gathered.candidates();
        scorer.score(candidates, new CandidateScorer.TurnSignals(now, gathered.index() != null, topic.vector(),
                topic.terms(), gathered.matrix(), Set.of(), false, null, null));
        candidates.sort(BEST_FIRST);
        List<RecallHit> hits = new ArrayList<>(Math.min(limit, candidates.size()));
        for (Candidate c : candidates.subList(0, Math.min(limit, candidates.size()))) {
            hits.add(new RecallHit(c.stored.memory(), c.score, c.factors));
        }
        return hits;
    }

    /**
     * Fills the token-count cache for candidates it has not seen: from the store's cache when it has the count
     * (so counts survive restarts), else by counting, and then saves the new counts to the store.
     */
    private void warmTokenCounts(String namespace, List<Candidate> candidates) {
        List<Candidate> unseen = new ArrayList<>();
        for (Candidate c : candidates) {
            TokenCountCache.Entry cached = tokenCounts.find(c.stored.memory());
            if (cached == null) {
                unseen.add(c);
            } else {
                c.tokens = cached.tokens();
                c.textHash = cached.textHash();
                c.hasTextHash = true;
            }
        }
        if (unseen.isEmpty()) {
            return;
        }
        Map<String, Integer> stored = store.tokenCounts(namespace, tokenCountKey,
                unseen.stream().map(Candidate::id).toList());
        List<MemoryStore.TokenCount> counted = new ArrayList<>();
        for (Candidate c : unseen) {
            Integer tokens = stored.get(c.id());
            if (tokens == null) {
                Memory m = c.stored.memory();
                c.rendered = ContextEnvelope.memory(m, m.text());
                tokens = tokenizer.count(c.rendered);
                counted.add(new MemoryStore.TokenCount(c.stored.memory(), tokens));
            }
            c.tokens = tokens;
            c.textHash = tokenCounts.put(c.stored.memory(), tokens).textHash();
            c.hasTextHash = true;
        }
        if (!counted.isEmpty()) {
            store.putTokenCounts(tokenCountKey, counted);
        }
    }

    private float[] blend(float[] queryVector, float[] historyVector) {
        float[] h = Vectors.normalizedCopy(historyVector, space.dimension());
        float[] mixed = new float[h.length];
        for (int d = 0; d < h.length; d++) {
            mixed[d] = queryVector[d] + HISTORY_WEIGHT * h[d];
        }
        return Vectors.normalizedCopy(mixed, mixed.length);
    }

    private static Map<String, Double> termWeights(ContextRequest request) {
        Map<String, Double> terms = new LinkedHashMap<>();
        for (String t : TextAnalyzer.words(request.query())) {
            terms.put(t, 1.0);
        }
        for (String history : request.recentHistory()) {
            for (String t : TextAnalyzer.words(history)) {
                terms.putIfAbsent(t, (double) HISTORY_WEIGHT);
            }
        }
        return terms;
    }

    private void publish(ContextRequest request, Instant now, SessionState.TopicUpdate topic, ContextResponse r,
            BudgetFiller.Filled filled) {
        if (listeners.isEmpty()) {
            return;
        }
        List<TurnTelemetry.TopMemory> top = new ArrayList<>();
        filled.items().stream()
                .sorted((a, b) -> Double.compare(b.score(), a.score()))
                .limit(TOP_MEMORIES_IN_TELEMETRY)
                .forEach(i -> top.add(new TurnTelemetry.TopMemory(i.memoryId(), i.score(), i.factors())));
        OptionalInt baseline = request.baselineTokens();
        OptionalInt saved = baseline.isPresent()
                ? OptionalInt.of(baseline.getAsInt() - r.tokensUsed()) : OptionalInt.empty();
        OptionalDouble ratio = baseline.isPresent() && baseline.getAsInt() > 0
                ? OptionalDouble.of((double) r.tokensUsed() / baseline.getAsInt()) : OptionalDouble.empty();
        TurnTelemetry t = new TurnTelemetry(now, request.sessionId(), request.sessionId() == null ? 0 : topic.turn(),
                request.namespace(), redactQueries ? null : request.query(), redactQueries ? null : request.task(),
                tokenizer.count(request.query()),
                redactQueries ? "" : r.topic(), r.topicShifted(), baseline, r.tokensUsed(), r.budget(), r.memoriesScored(),
                r.items().size(), r.memoriesDropped(), r.triggersMatched(), saved, ratio, r.latency(),
                r.items().stream().map(ContextItem::memoryId).toList(), top, weights);
        for (TelemetryListener listener : listeners) {
            try {
                listener.onTurn(t);
            } catch (RuntimeException e) {
                LOG.warn("telemetry listener {} failed; ignoring it for this turn", listener, e);
            }
        }
    }

    /** Text for the warm-up's searches: a few ordinary words, so that every scoring path runs. */
    private static final String WARM_UP_QUERY = "what did we decide about the deploy last week?";

    /**
     * Runs a search in every namespace (the first model call, the index scans, BM25, scoring and the tokenizer),
     * recording nothing: after it, a first turn costs what later ones do.
     */
    void warmUp() {
        tokenizer.count(WARM_UP_QUERY);
        Set<String> namespaces = store.namespaces();
        if (namespaces.isEmpty()) {
            recall(WARM_UP_QUERY, Memory.DEFAULT_NAMESPACE, 10);
        }
        for (String namespace : namespaces) {
            recall(WARM_UP_QUERY, namespace, 10);
        }
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
        Instant now = clock.instant();
        List<Memory> prepared = new ArrayList<>(memories.size());
        int i = 0;
        for (Memory m : memories) {
            Objects.requireNonNull(m, "memory " + i);
            Memory.Builder b = m.toBuilder();
            if (m.id() == null) {
                b.id(UUID.randomUUID().toString());
            }
            if (m.createdAt() == null) {
                b.createdAt(now).updatedAt(now);
            }
            prepared.add(b.build());
            i++;
        }
        MemoryStore.checkUpsert(prepared, Embeddings.none(), null);
        Embeddings embeddings = Embeddings.none();
        if (embedder != null && !prepared.isEmpty()) {
            List<float[]> vectors = new ArrayList<>(prepared.size());
            for (int from = 0; from < prepared.size(); from += embedBatchSize) {
                List<Memory> batch = prepared.subList(from, Math.min(prepared.size(), from + embedBatchSize));
                vectors.addAll(embed(batch.stream().map(Memory::text).toList(), "memory '" + batch.get(0).id() + "'"));
            }
            embeddings = Embeddings.of(space, vectors);
        }
        writeLock.lock();
        try {
            ensureOpen();
            Map<String, List<Integer>> byNamespace = new LinkedHashMap<>();
            for (int j = 0; j < prepared.size(); j++) {
                byNamespace.computeIfAbsent(prepared.get(j).namespace(), k -> new ArrayList<>()).add(j);
            }
            if (embedder != null) {
                byNamespace.keySet().forEach(this::indexFor);
            }
            store.upsertAll(prepared, embeddings);
            pinned.written(prepared);
            for (Map.Entry<String, List<Integer>> e : byNamespace.entrySet()) {
                // Writes are when expired memories are purged: rare enough to cost nothing, often enough to keep
                // the store from filling with them.
                List<String> expired = store.deleteExpired(e.getKey(), now);
                pinned.removed(e.getKey(), expired);
                VectorIndex index = indexes.get(e.getKey());
                if (index == null) {
                    continue;
                }
                index.removeAll(expired);
                List<String> ids = new ArrayList<>();
                List<float[]> vectors = new ArrayList<>();
                for (int j : e.getValue()) {
                    ids.add(prepared.get(j).id());
                    if (!embeddings.isEmpty()) {
                        vectors.add(embeddings.vector(j));
                    }
                }
                if (embeddings.isEmpty()) {
                    index.removeAll(ids);
                } else {
                    index.putAll(ids, vectors);
                }
            }
        } finally {
            writeLock.unlock();
        }
        return List.copyOf(prepared);
    }

    /** Embeds texts, turning a misbehaving embedder into a clear {@link MemfasException}. */
    private List<float[]> embed(List<String> texts, String what) {
        List<float[]> vectors;
        try {
            vectors = embedder.embedAll(texts);
        } catch (MemfasException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new MemfasException("embedder '" + space.modelId() + "' failed on " + what + ": " + e, e);
        }
        if (vectors == null || vectors.size() != texts.size()) {
            throw new MemfasException("embedder '" + space.modelId() + "' returned "
                    + (vectors == null ? "null" : vectors.size() + " vectors") + " for " + texts.size() + " texts");
        }
        for (int i = 0; i < vectors.size(); i++) {
            float[] v = vectors.get(i);
            try {
                Embeddings.checkVector(Objects.requireNonNull(v, "vector"), space.dimension(), "vector " + i);
            } catch (IllegalArgumentException | NullPointerException e) {
                throw new MemfasException("embedder '" + space.modelId() + "' returned an unusable vector for "
                        + what + (texts.size() > 1 ? " (batch item " + i + ")" : "") + ": " + e.getMessage(), e);
            }
        }
        return vectors;
    }

    @Override
    public boolean forget(String memoryId) {
        return forget(Memory.DEFAULT_NAMESPACE, memoryId);
    }

    @Override
    public boolean forget(String namespace, String memoryId) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(memoryId, "memoryId");
        ensureOpen();
        writeLock.lock();
        try {
            VectorIndex index = embedder == null ? indexes.get(namespace) : indexFor(namespace);
            boolean deleted = store.delete(namespace, memoryId);
            pinned.removed(namespace, List.of(memoryId));
            if (index != null) {
                index.removeAll(List.of(memoryId));
            }
            return deleted;
        } finally {
            writeLock.unlock();
        }
    }

    @Override
    public void addTrigger(Trigger trigger) {
        Objects.requireNonNull(trigger, "trigger");
        ensureOpen();
        store.putTrigger(trigger);
        triggerMatchers.remove(trigger.namespace());
    }

    @Override
    public boolean removeTrigger(String namespace, String keyword) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(keyword, "keyword");
        ensureOpen();
        boolean removed = store.removeTrigger(namespace, keyword);
        triggerMatchers.remove(namespace);
        return removed;
    }

    @Override
    public UsageReport reportUsage(String namespace, String sessionId, Collection<String> memoryIds, boolean helpful) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(memoryIds, "memoryIds");
        // The request's checks of namespace and session id are the ones a report needs.
        ContextRequest.builder("usage").namespace(namespace).sessionId(sessionId).build();
        LinkedHashSet<String> ids = new LinkedHashSet<>(memoryIds.size());
        for (String id : memoryIds) {
            ids.add(Objects.requireNonNull(id, "memory id"));
        }
        ensureOpen();
        SessionState session = sessions.find(sessionId);
        if (session != null && !session.namespace().equals(namespace)) {
            throw new IllegalArgumentException("session '" + sessionId + "' is in namespace '" + session.namespace()
                    + "', not '" + namespace + "'");
        }
        Set<String> known = new HashSet<>();
        for (StoredMemory s : store.getAll(namespace, ids)) {
            known.add(s.memory().id());
        }
        List<String> recorded = new ArrayList<>(known.size());
        List<String> unknown = new ArrayList<>();
        for (String id : ids) {
            (known.contains(id) ? recorded : unknown).add(id);
        }
        if (helpful) {
            if (!recorded.isEmpty()) {
                store.recordAccess(namespace, recorded, clock.instant());
            }
        } else if (session != null) {
            session.recordUnhelpful(recorded);
        }
        return new UsageReport(recorded, unknown);
    }

    // ---------------------------------------------------------------- other processes' writes

    /**
     * Applies what other processes committed to a shared store since the last turn: the vectors of memories written
     * or deleted there, their pinning, triggers, and whole namespaces re-embedded. Costs one read of the store's
     * last change number when nothing changed.
     */
    private void catchUp() {
        if (follower == null || !follower.behind()) {
            return;
        }
        writeLock.lock();
        try {
            follower.catchUp(store, indexes, triggerMatchers, pinned);
        } finally {
            writeLock.unlock();
        }
    }

    // ---------------------------------------------------------------- state

    private VectorIndex indexFor(String namespace) {
        return indexes.computeIfAbsent(namespace, ns -> {
            VectorIndex index = new VectorIndex(space.dimension());
            // Loaded in chunks, so a large store's vectors are not held twice while the index fills.
            List<String> ids = new ArrayList<>(LOAD_CHUNK);
            List<float[]> vectors = new ArrayList<>(LOAD_CHUNK);
            store.forEachVector(ns, (id, v) -> {
                ids.add(id);
                vectors.add(v);
                if (ids.size() == LOAD_CHUNK) {
                    index.putAll(ids, vectors);
                    ids.clear();
                    vectors.clear();
                }
            });
            index.putAll(ids, vectors);
            return index;
        });
    }

    private TriggerMatcher triggersFor(String namespace) {
        return triggerMatchers.computeIfAbsent(namespace, ns -> new TriggerMatcher(store.triggers(ns)));
    }

    @Override
    public Optional<StoredMemory> get(String namespace, String memoryId) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(memoryId, "memoryId");
        ensureOpen();
        return store.get(namespace, memoryId);
    }

    @Override
    public List<Memory> list(String namespace, MemoryFilter filter, int offset, int limit) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(filter, "filter");
        if (offset < 0) {
            throw new IllegalArgumentException("offset must not be negative: " + offset);
        }
        if (limit < 1 || limit > 1000) {
            throw new IllegalArgumentException("list limit must be in [1, 1000]: " + limit);
        }
        ensureOpen();
        List<Memory> matching = new ArrayList<>();
        store.forEach(namespace, filter, matching::add);
        matching.sort(NEWEST_FIRST);
        return offset >= matching.size() ? List.of()
                : List.copyOf(matching.subList(offset, Math.min(matching.size(), offset + limit)));
    }

    @Override
    public CuratorStats stats() {
        ensureOpen();
        long memories = 0;
        long triggers = 0;
        for (String ns : store.namespaces()) {
            memories += store.count(ns);
            triggers += store.triggers(ns).size();
        }
        long vectors = 0;
        for (VectorIndex index : indexes.values()) {
            vectors += index.size();
        }
        return new CuratorStats(memories, vectors, triggers, sessions.size(), turns.get(),
                space == null ? "" : space.modelId(), tokenizer.id());
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        writeLock.lock();
        try {
            if (telemetryWriter != null) {
                telemetryWriter.close();
            }
            store.close();
        } finally {
            writeLock.unlock();
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("curator is closed");
        }
    }
}
