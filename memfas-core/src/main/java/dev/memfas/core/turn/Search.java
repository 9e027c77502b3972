package dev.memfas.core.turn;

import dev.memfas.ContextRequest;
import dev.memfas.RecallHit;
import dev.memfas.RecallRequest;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A search ({@code recall}): a turn without a session, triggers, budget or working memory, whose ranked candidates are
 * the answer. It runs the same steps as a turn up to the ranking, so a memory scores alike in both. Thread-safe.
 */
public final class Search {
    private final TopicFilter topicFilter;
    private final QueryEmbedder queryEmbedder;
    private final TopicTracker topics;
    private final CandidateGatherer gatherer;
    private final CandidateScorer scorer;
    private final TurnWorkspace.Pool workspaces;
    private final Clock clock;

    public Search(QueryEmbedder queryEmbedder, TopicTracker topics, CandidateGatherer gatherer, CandidateScorer scorer,
            TurnWorkspace.Pool workspaces, TopicFilter topicFilter, Clock clock) {
        this.queryEmbedder = queryEmbedder;
        this.topicFilter = topicFilter;
        this.topics = topics;
        this.gatherer = gatherer;
        this.scorer = scorer;
        this.workspaces = workspaces;
        this.clock = clock;
    }

    /** Text for the warm-up's searches: a few ordinary words, so that every scoring path runs. */
    private static final String WARM_UP_QUERY = "what did we decide about the deploy last week?";

    /**
     * Runs a search in every namespace (the first model call, the index scans, BM25, scoring and the tokenizer),
     * recording nothing: after it, a first turn costs what later ones do.
     */
    public void warmUp(Set<String> namespaces, dev.memfas.spi.Tokenizer tokenizer) {
        tokenizer.count(WARM_UP_QUERY);
        Set<String> all = namespaces.isEmpty() ? Set.of(dev.memfas.Memory.DEFAULT_NAMESPACE) : namespaces;
        for (String namespace : all) {
            recall(RecallRequest.builder(WARM_UP_QUERY).namespace(namespace).limit(10).build());
        }
    }

    public List<RecallHit> recall(RecallRequest recall) {
        ContextRequest request = ContextRequest.builder(recall.query()).namespace(recall.namespace())
                .asOf(recall.asOf()).includeSuperseded(recall.includeSuperseded()).filter(recall.filter()).build();
        int limit = recall.limit();
        Turn turn = Turn.search(request, clock, topicFilter.onTopic(recall.namespace(), recall.filter()));
        QueryVectors q = queryEmbedder.embedSearch(recall.namespace(), recall.query());
        SessionState.TopicUpdate topic = topics.advance(turn, q);
        TurnWorkspace work = workspaces.take();
        try {
            CandidateSet candidates = work.candidates();
            CandidateSources sources = gatherer.gather(turn, q, Set.of(), Set.of(), work);
            scorer.score(candidates, scorer.signals(turn, sources, topic, q));
            Ranking ranking = work.ranking();
            ranking.rank(candidates);
            List<RecallHit> hits = new ArrayList<>(Math.min(limit, ranking.size()));
            for (int r = 0; r < Math.min(limit, ranking.size()); r++) {
                int c = ranking.at(r);
                hits.add(new RecallHit(candidates.memory(c), candidates.score(c), candidates.breakdown(c)));
            }
            return hits;
        } finally {
            workspaces.release(work);
        }
    }
}
