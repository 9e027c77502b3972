package dev.memfas.core.turn;

import dev.memfas.core.vector.Vectors;
import dev.memfas.telemetry.SessionSummary;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;

/**
 * What the curator remembers about one conversation: its topic (a vector when there is an embedder, and weighted terms
 * and the phrases they came in for the label: {@link TopicLabel}), the topics it visited, how often each memory was
 * included, its working memory, its latest queries and their vectors (what a follow-up leans on), the vectors of the
 * messages its last turn's history held, its totals for its summary ({@link SessionLedger}), and when it was last used.
 *
 * <p>Thread-safe: every method synchronizes on the session, so concurrent turns of one session see each other's
 * updates whole. Sessions never share state.
 */
public final class SessionState {
    /** How much of the previous topic survives each turn without a shift. */
    private static final float TOPIC_MEMORY = 0.7f;
    private static final double TERM_DECAY = 0.6;
    private static final double TERM_FLOOR = 0.05;
    private static final int HOT_AFTER = 2;

    private final String id;
    private final String namespace;
    private float[] topicVector;
    private Map<String, Double> topicTerms = new LinkedHashMap<>();
    /** The phrases the topic's turns used, the latest last ({@link TopicLabel}). */
    private final java.util.LinkedHashSet<String> topicPhrases = new java.util.LinkedHashSet<>();
    private final Map<String, Integer> inclusions = new HashMap<>();
    private int turns;
    /** The labels of the topics visited, oldest first, the current one last; at most the summary's MAX_TOPICS. */
    private final java.util.ArrayList<String> topics = new java.util.ArrayList<>();
    private int topicShifts;
    private double topicConfidence = 1;
    private final SessionLedger ledger = new SessionLedger();
    private WorkingMemory working;
    private volatile Instant lastSeen;

    public SessionState(String id, String namespace, Instant now) {
        this.id = id;
        this.namespace = namespace;
        this.lastSeen = now;
    }

    String id() {
        return id;
    }

    String namespace() {
        return namespace;
    }

    Instant lastSeen() {
        return lastSeen;
    }

    void touch(Instant now) {
        lastSeen = now;
    }

    /**
     * Moves the topic towards this turn's text, or resets it on a shift.
     *
     * @param current the normalized embedding of the query (plus recent history), or null without an embedder
     * @param terms the analyzed terms of the query (recent history terms count half, already weighted in)
     * @param shiftThreshold a cosine below which the query starts a new topic
     */
    synchronized TopicUpdate advance(float[] current, Map<String, Double> terms, List<String> phrases,
            double shiftThreshold) {
        turns++;
        boolean shifted = false;
        double confidence = topicConfidence;
        if (current != null) {
            if (topicVector == null) {
                topicVector = current.clone();
            } else {
                float sim = dot(current, topicVector);
                if (sim < shiftThreshold) {
                    shifted = true;
                    topicVector = current.clone();
                } else {
                    float[] mixed = new float[current.length];
                    for (int d = 0; d < mixed.length; d++) {
                        mixed[d] = TOPIC_MEMORY * topicVector[d] + (1 - TOPIC_MEMORY) * current[d];
                    }
                    topicVector = Vectors.normalizedCopy(mixed, mixed.length);
                }
            }
            confidence = Math.max(0, Math.min(1, dot(current, topicVector)));
        } else if (!terms.isEmpty()) {
            shifted = !topicTerms.isEmpty() && terms.keySet().stream().noneMatch(topicTerms::containsKey);
            confidence = topicTerms.isEmpty() || shifted ? 1 : heldShare(terms);
        }
        if (shifted) {
            topicTerms = new LinkedHashMap<>();
            topicPhrases.clear();
            inclusions.clear();
        } else {
            topicTerms.replaceAll((t, w) -> w * TERM_DECAY);
            topicTerms.values().removeIf(w -> w < TERM_FLOOR);
        }
        terms.forEach((t, w) -> topicTerms.merge(t, w, Double::sum));
        topicConfidence = confidence;
        for (String p : phrases) {
            topicPhrases.remove(p);
            topicPhrases.add(p);
        }
        while (topicPhrases.size() > TopicLabel.MAX_PHRASES) {
            topicPhrases.remove(topicPhrases.iterator().next());
        }
        String label = TopicLabel.of(topicTerms, topicPhrases);
        if (!label.isEmpty()) {
            if (shifted || topics.isEmpty()) {
                if (shifted) {
                    topicShifts++;
                }
                topics.add(label);
                if (topics.size() > SessionSummary.MAX_TOPICS) {
                    topics.remove(0);
                }
            } else {
                topics.set(topics.size() - 1, label);
            }
        }
        List<String> earlier = topics.isEmpty() ? List.of() : List.copyOf(topics.subList(0, topics.size() - 1));
        return new TopicUpdate(topicVector == null ? null : topicVector.clone(), new LinkedHashMap<>(topicTerms),
                label, shifted, turns, confidence, earlier);
    }

    /** The share of a turn's term weight that the topic's terms already hold. */
    private double heldShare(Map<String, Double> terms) {
        double all = 0;
        double held = 0;
        for (Map.Entry<String, Double> e : terms.entrySet()) {
            all += e.getValue();
            if (topicTerms.containsKey(e.getKey())) {
                held += e.getValue();
            }
        }
        return all == 0 ? 1 : held / all;
    }

    /** Counts a published turn towards the session's summary. */
    public synchronized void recordTurn(Instant at, int curatedTokens, OptionalInt baselineTokens, Duration latency,
            List<String> included) {
        ledger.record(at, curatedTokens, baselineTokens, latency, included);
    }

    /** The session's summary as it ends, its topics' labels left out if {@code redact}; null if it had no turn. */
    synchronized SessionSummary summary(SessionSummary.EndReason reason, boolean redact) {
        return ledger.turns() == 0 ? null
                : ledger.summary(id, namespace, reason, redact ? List.of() : List.copyOf(topics), topicShifts);
    }

    /** The ids included at least twice in this session (since the last topic shift). */
    synchronized Set<String> hotMemoryIds() {
        List<String> hot = new ArrayList<>();
        inclusions.forEach((memoryId, n) -> {
            if (n >= HOT_AFTER) {
                hot.add(memoryId);
            }
        });
        return Set.copyOf(hot);
    }

    /**
     * A recent turn of the session: the words of its query and the memories it included, for feedback to link a
     * helpful memory to the query it answered.
     */
    public record RecentTurn(List<String> queryWords, List<String> includedIds) {}

    /** How many recent turns are kept: feedback comes a turn or a few after the context it is about. */
    private static final int RECENT_TURNS = 20;
    private final java.util.ArrayDeque<RecentTurn> recent = new java.util.ArrayDeque<>();

    /**
     * Counts an inclusion of each memory, and a use of those that are working memories of this session, and keeps the
     * turn as a recent one.
     */
    public synchronized void recordIncluded(List<String> queryWords, List<String> memoryIds, Instant at) {
        for (String memoryId : memoryIds) {
            inclusions.merge(memoryId, 1, Integer::sum);
        }
        recent.addLast(new RecentTurn(List.copyOf(queryWords), List.copyOf(memoryIds)));
        if (recent.size() > RECENT_TURNS) {
            recent.removeFirst();
        }
        if (working != null) {
            working.recordUse(memoryIds, at);
        }
    }

    /**
     * Takes the recent turns that included any of these memories, newest first: feedback on a turn counts once, so
     * they are no longer kept.
     */
    public synchronized List<RecentTurn> takeTurnsIncluding(Collection<String> memoryIds) {
        List<RecentTurn> out = new ArrayList<>();
        for (java.util.Iterator<RecentTurn> it = recent.descendingIterator(); it.hasNext(); ) {
            RecentTurn t = it.next();
            if (t.includedIds().stream().anyMatch(memoryIds::contains)) {
                out.add(t);
                it.remove();
            }
        }
        return out;
    }

    /** The session's working memory, made on first use with room for {@code limit} memories. */
    public synchronized WorkingMemory working(int limit) {
        if (working == null) {
            working = new WorkingMemory(limit);
        }
        return working;
    }

    /** The session's working memory, or null if nothing was ever put in it. */
    public synchronized WorkingMemory workingOrNull() {
        return working;
    }

    /**
     * How many of the session's latest queries a follow-up asked without a history of its own is read with: the one
     * before it says what "When did she go?" or "And the other one?" is about, and two more cover a short exchange.
     */
    private static final int QUERIES_KEPT = 3;
    private final java.util.ArrayDeque<String> queries = new java.util.ArrayDeque<>();

    /**
     * The queries of the session's latest turns, oldest first; then records {@code query} as the latest. What a
     * follow-up that comes without a recent history of its own is read with ({@link Turn#start}).
     */
    public synchronized List<String> askedBefore(String query) {
        List<String> before = List.copyOf(queries);
        queries.addLast(query);
        if (queries.size() > QUERIES_KEPT) {
            queries.removeFirst();
        }
        return before;
    }

    /**
     * The vectors of the session's latest queries, by the text each was embedded as: a follow-up's history is most
     * often the query before it, whose vector that turn computed ({@link QueryEmbedder}).
     */
    private final LinkedHashMap<String, float[]> queryVectors = new LinkedHashMap<>();

    /**
     * The vectors of the messages the session's latest turn read its recent history by, by the text each was embedded
     * as: a caller passes a chat's latest messages with each turn, so the next turn's history holds all but the newest
     * exchange again, and a reply of a few hundred tokens costs a model call of its own each time it is read. Replaced
     * whole each turn, so a session holds at most {@link QueryEmbedder#MESSAGES_READ} of them; the arrays are never
     * written after they are kept.
     */
    private Map<String, float[]> messageVectors = Map.of();

    /** The unit vector a turn of the session embedded this text by, as its query or a history's message; or null. */
    synchronized float[] queryVector(String text) {
        float[] asked = queryVectors.get(text);
        return asked != null ? asked : messageVectors.get(text);
    }

    /** Keeps the unit vectors of the messages a turn read its recent history by, for the next turn, in place of any. */
    synchronized void keepMessageVectors(Map<String, float[]> byText) {
        messageVectors = Map.copyOf(byText);
    }

    /** Keeps a copy of a query's unit vector for the turns after it, the latest {@value #QUERIES_KEPT}. */
    synchronized void keepQueryVector(String text, float[] vector) {
        queryVectors.remove(text);
        queryVectors.put(text, vector.clone());
        if (queryVectors.size() > QUERIES_KEPT) {
            queryVectors.remove(queryVectors.keySet().iterator().next());
        }
    }

    /** Unhelpful memories lose their standing: they must be included twice again to be hot. */
    public synchronized void recordUnhelpful(Collection<String> memoryIds) {
        memoryIds.forEach(inclusions::remove);
    }

    private static float dot(float[] a, float[] b) {
        float s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }

    /**
     * The session's topic after a turn.
     *
     * @param confidence how well this turn agrees with the topic it is labelled with, from 0 to 1: with an embedder the
     *     cosine between the turn's vector and the topic's (after the turn moved it), without one the share of the
     *     turn's words the topic already held. A topic's first turn has 1; it falls as turns drift from what the label
     *     was made of, until a shift starts a new topic. A turn with neither (no query) keeps the last
     * @param earlier the labels of the session's earlier topics, oldest first (at most nine)
     */
    public record TopicUpdate(float[] vector, Map<String, Double> terms, String label, boolean shifted, int turn,
            double confidence, List<String> earlier) {}
}
