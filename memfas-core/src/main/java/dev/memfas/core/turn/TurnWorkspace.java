package dev.memfas.core.turn;

import dev.memfas.core.envelope.BudgetFiller;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The scratch space of one turn, kept for the next: the candidate columns and their vectors, the ranking, the positions
 * of trigger-linked candidates and the fill's buffers. Sized by the candidates a turn considers (a few
 * hundred), never by the store. A turn takes one from its curator's {@link Pool} and gives it back when it returns:
 * allocated afresh, this scratch space was most of what a turn allocated, and with default JVM flags a turn then paid
 * the kernel for fresh heap pages. Not thread-safe: one turn at a time.
 */
public final class TurnWorkspace {
    private final CandidateSet candidates = new CandidateSet();
    private final IdList lexicalIds = new IdList();
    private final Ranking ranking = new Ranking();
    private final int[] seeds = new int[NeighborExpander.SEEDS];
    private final BudgetFiller.Scratch fill = new BudgetFiller.Scratch();
    private int[] linked = new int[16];
    private int linkedCount;

    public CandidateSet candidates() {
        return candidates;
    }

    /** The ids the gatherer reads from the store first: linked, pinned and BM25 hits. */
    IdList lexicalIds() {
        return lexicalIds;
    }

    public Ranking ranking() {
        return ranking;
    }

    public int[] seeds() {
        return seeds;
    }

    public BudgetFiller.Scratch fill() {
        return fill;
    }

    /** Finds the candidates the fired triggers link to, in trigger order. */
    public void link(NamespaceTriggers.Fired fired) {
        linkedCount = 0;
        for (String id : fired.linkedIds()) {
            int i = candidates.indexOf(id);
            if (i >= 0) {
                if (linkedCount == linked.length) {
                    linked = java.util.Arrays.copyOf(linked, 2 * linked.length);
                }
                linked[linkedCount++] = i;
            }
        }
    }

    /** Positions of the trigger-linked candidates, in trigger order; the first {@link #linkedCount()} are set. */
    public int[] linked() {
        return linked;
    }

    public int linkedCount() {
        return linkedCount;
    }

    /** Lets go of the turn's memories, so that a kept workspace does not keep them alive. */
    void clear() {
        candidates.reset(0);
        lexicalIds.clear();
        linkedCount = 0;
    }

    /** A curator's workspaces not in use. Thread-safe. */
    public static final class Pool {
        private final AtomicReferenceArray<TurnWorkspace> kept;

        /** @param size how many workspaces are kept: enough for the turns that run at once */
        public Pool(int size) {
            kept = new AtomicReferenceArray<>(size);
        }

        public TurnWorkspace take() {
            for (int i = 0; i < kept.length(); i++) {
                TurnWorkspace w = kept.get(i);
                if (w != null && kept.compareAndSet(i, w, null)) {
                    return w;
                }
            }
            return new TurnWorkspace();
        }

        public void release(TurnWorkspace w) {
            w.clear();
            for (int i = 0; i < kept.length(); i++) {
                if (kept.get(i) == null && kept.compareAndSet(i, null, w)) {
                    return;
                }
            }
        }
    }
}
