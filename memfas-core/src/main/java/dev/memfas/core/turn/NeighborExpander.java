package dev.memfas.core.turn;

import dev.memfas.Conversation;
import dev.memfas.Memory;
import dev.memfas.spi.MemoryStore;
import dev.memfas.spi.StoredMemory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Brings the turns said next to a turn's best matches as context for them: the {@value #SEEDS} best-ranked
 * candidates are the seeds, and of a seed that is a conversation's turn (kind {@value Conversation#TURN_KIND}), the
 * memories within {@code radius} places of it in storage order ({@link MemoryStore#neighborhood}) are its neighbors if
 * they are turns of the same conversation (the same stated source), with the same scope, created within
 * {@link #TIME_WINDOW} of it. Notes stored together are not each other's context: a team's notes remembered with one
 * source, or the records of one JSON Lines file, are as many separate memories, and each note would otherwise bring
 * the four stored around it into every context it is in (a question about Kafka retention got the webhook retries,
 * the invoice archive, the consumer lag and the owner of authentication). Neighbors that were not candidates join
 * them (the whole set is then scored again, so they carry their own factors too); every neighbor is offered its seed's
 * score times {@value #DECAY}, and {@value #FURTHER} of that per step past the first ({@link #offered},
 * {@link #expand}), and once the candidates' sizes are known it scores the higher of its own and the offered one if
 * its item takes at most
 * {@code maxShare} of the budget ({@link #inherit}): a neighbor is context for its match, worth a few tokens, not a
 * long answer that crowds out other matches (a chat assistant's reply of 400 tokens next to a 20-token question).
 * Thread-safe.
 */
public final class NeighborExpander {
    /** How many of a turn's best-ranked memories bring their stored neighbors as context. */
    static final int SEEDS = 5;
    /** The share of a seed's score the memory stored next to it is offered. */
    static final double DECAY = 0.8;
    /**
     * What a neighbor keeps of the share of the one before it, for each step past the first. In a conversation the turn
     * two places from a match is its speaker's next turn, as much its context as the reply between them: offered
     * 0.8 &times; 0.95 = 0.76 of the match's score rather than 0.8 squared (0.64), LoCoMo's evidence recall rose from
     * .754 / .835 / .880 / .925 to .757 / .844 / .880 / .927 at 512 / 1,024 / 2,048 / 4,096 tokens and LongMemEval's
     * from .860 / .904 / .931 / .967 to .863 / .918 / .949 / .975 (0.68, 0.72 and 0.8 measured too: see
     * docs/experiments.md).
     */
    static final double FURTHER = 0.95;
    /** Memories created further apart than this are not each other's context, however they were stored. */
    static final Duration TIME_WINDOW = Duration.ofHours(1);

    private final MemoryStore store;
    private final CandidateScorer scorer;
    private final int radius;
    private final double maxShare;

    public NeighborExpander(MemoryStore store, CandidateScorer scorer, int radius, double maxShare) {
        this.store = store;
        this.scorer = scorer;
        this.radius = radius;
        this.maxShare = maxShare;
    }

    /** A seed's neighbor, {@code steps} places away from it in storage order. */
    private record Link(String id, int steps) {}

    /**
     * Adds the neighbors of the best-ranked candidates, scored, with the score each is offered in its
     * {@link Factor#NEIGHBOR} factor; nothing when the radius is 0.
     *
     * @param seeds a buffer of at least {@value #SEEDS} positions
     */
    public void expand(Turn turn, QueryVectors q, CandidateSet candidates, CandidateSources sources,
            CandidateScorer.TurnSignals signals, Ranking ranking, int[] seeds) {
        if (radius == 0) {
            return;
        }
        int seedCount = ranking.best(candidates, SEEDS, seeds);
        List<String> seedIds = new ArrayList<>(seedCount);
        for (int s = 0; s < seedCount; s++) {
            Memory seed = candidates.memory(seeds[s]);
            if (isTurn(seed)) {
                seedIds.add(seed.id());
            }
        }
        // One read for all seeds: a store across a network answers in one round trip.
        Map<String, List<StoredMemory>> windows = seedIds.isEmpty() ? Map.of()
                : store.neighborhoods(turn.namespace(), seedIds, radius);
        Map<String, StoredMemory> joining = new LinkedHashMap<>();
        List<List<Link>> links = new ArrayList<>(seedCount);
        for (int s = 0; s < seedCount; s++) {
            Memory seed = candidates.memory(seeds[s]);
            List<Link> mine = new ArrayList<>();
            links.add(mine);
            List<StoredMemory> window = windows.getOrDefault(seed.id(), List.of());
            int at = indexOf(window, seed.id());
            for (int j = 0; at >= 0 && j < window.size(); j++) {
                StoredMemory m = window.get(j);
                if (j != at && isNeighbor(seed, m.memory(), turn.inForce())) {
                    mine.add(new Link(m.memory().id(), Math.abs(j - at)));
                    if (candidates.indexOf(m.memory().id()) < 0) {
                        joining.putIfAbsent(m.memory().id(), m);
                    }
                }
            }
        }
        if (!joining.isEmpty()) {
            // Factors are normalized over the candidates, so with more of them everyone's are computed again (the raw
            // signals are read once).
            candidates.join(new ArrayList<>(joining.values()), sources, turn.inForce(), q.query());
            scorer.score(candidates, signals);
        }
        // The seeds are the same candidates, scored again if neighbors joined.
        Map<String, Double> inherited = new HashMap<>();
        for (int s = 0; s < seedCount; s++) {
            double seedScore = candidates.score(seeds[s]);
            for (Link link : links.get(s)) {
                inherited.merge(link.id(), seedScore * offered(link.steps()), Math::max);
            }
        }
        double[] neighbor = candidates.factors(Factor.NEIGHBOR);
        inherited.forEach((id, score) -> {
            int i = candidates.indexOf(id);
            if (i >= 0) {
                neighbor[i] = score;
            }
        });
    }

    /**
     * Raises each neighbor's score to the one it was offered if its item, as counted, takes at most the largest share
     * of {@code budget} a neighbor may; a larger one keeps its own score, and its neighbor factor is 0.
     */
    public void inherit(CandidateSet candidates, int budget) {
        if (radius == 0) {
            return;
        }
        double[] neighbor = candidates.factors(Factor.NEIGHBOR);
        double largest = maxShare * budget;
        for (int i = 0; i < candidates.size(); i++) {
            if (neighbor[i] > 0) {
                if (candidates.tokens(i) <= largest) {
                    candidates.setScore(i, Math.max(candidates.score(i), neighbor[i]));
                } else {
                    neighbor[i] = 0;
                }
            }
        }
    }

    /** The share of its seed's score a neighbor {@code steps} places from it is offered: 0.8, 0.76, 0.722, ... */
    static double offered(int steps) {
        return DECAY * Math.pow(FURTHER, steps - 1);
    }

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
     * Whether a memory is a turn of a conversation: of kind {@value Conversation#TURN_KIND}, from a stated source (the
     * default source says nothing about where a memory came from).
     */
    private static boolean isTurn(Memory m) {
        return m.kind().equals(Conversation.TURN_KIND) && !m.source().equals(Memory.DEFAULT_SOURCE);
    }

    /**
     * Whether a memory stored next to a seed is context for it: a turn of the same conversation (the same source), with
     * the same scope, created close in time, one the turn may use.
     */
    private static boolean isNeighbor(Memory seed, Memory m, InForce inForce) {
        if (!inForce.admits(m) || !isTurn(m) || !m.source().equals(seed.source())
                || !m.scope().equals(seed.scope())) {
            return false;
        }
        Duration apart = Duration.between(seed.createdAt(), m.createdAt()).abs();
        return apart.compareTo(TIME_WINDOW) <= 0;
    }
}
