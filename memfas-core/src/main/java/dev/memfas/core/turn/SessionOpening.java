package dev.memfas.core.turn;

import dev.memfas.Memory;
import dev.memfas.spi.MemoryStore;
import dev.memfas.spi.StoredMemory;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * The candidates of a request without a query, the start of a session: what an agent resumes from before it has a
 * question. In this order: the session's working memories, most recently used first; the namespace's pinned memories;
 * the latest example of each of its most frequent patterns ({@code Memories.patterns}: a fix applied again, a
 * convention restated); then its latest memories, newest first (of the request's project and filter, as a turn
 * admits them). Each is scored by its place in that order, from 1 down to above 0.5, so the budget is filled in it
 * (pinned ones first, as in every turn). Nothing is searched: no model call, no keyword search.
 *
 * <p>The latest are read a window of time at a time ({@link LatestMemories}). Thread-safe.
 */
public final class SessionOpening {
    /**
     * The latest memories read for a budget: one per this many tokens of it (a short memory with its label is about
     * 20 tokens, so enough to fill it), at least {@value #MIN_LATEST}, at most {@value #MAX_LATEST}.
     */
    private static final int TOKENS_PER_LATEST = 16;
    private static final int MIN_LATEST = 10;
    private static final int MAX_LATEST = 200;

    private final MemoryStore store;
    private final PinnedMemories pinned;
    private final Function<String, List<Memory>> patternExamples;

    /** @param patternExamples a namespace's most frequent patterns' latest examples, most frequent first */
    public SessionOpening(MemoryStore store, PinnedMemories pinned, Function<String, List<Memory>> patternExamples) {
        this.store = store;
        this.pinned = pinned;
        this.patternExamples = patternExamples;
    }

    /** Fills {@code out} with the opening's candidates, scored in the order they are to be shown. */
    public void gather(Turn turn, CandidateSet out) {
        out.reset(0);
        InForce inForce = turn.inForce();
        WorkingMemory working = turn.hasSession() ? turn.session().workingOrNull() : null;
        if (working != null) {
            working.addAll(inForce, out);
        }
        Set<String> pinnedIds = pinned.ids(turn.namespace());
        if (!pinnedIds.isEmpty()) {
            List<StoredMemory> pinnedMemories = new ArrayList<>(store.getAll(turn.namespace(), pinnedIds));
            pinnedMemories.sort(Comparator.comparing(StoredMemory::memory, LatestMemories.NEWEST_FIRST));
            addNew(pinnedMemories, inForce, out);
        }
        List<Memory> examples = patternExamples.apply(turn.namespace());
        if (!examples.isEmpty()) {
            addNew(store.getAll(turn.namespace(), examples.stream().map(Memory::id).toList()), inForce, out);
        }
        addNew(latest(turn, Math.max(MIN_LATEST, Math.min(MAX_LATEST, turn.budget() / TOKENS_PER_LATEST))),
                inForce, out);
        int n = out.size();
        for (int i = 0; i < n; i++) {
            out.setScore(i, 1.0 - 0.5 * i / n);
        }
    }

    private static void addNew(List<StoredMemory> memories, InForce inForce, CandidateSet out) {
        for (StoredMemory s : memories) {
            if (inForce.admits(s.memory()) && out.indexOf(s.memory().id()) < 0) {
                out.add(s, Float.NaN, 0, false, -1);
            }
        }
    }

    /** The turn's {@code want} newest memories in force, newest first. */
    private List<StoredMemory> latest(Turn turn, int want) {
        List<Memory> newest = LatestMemories.read(store, turn.namespace(), turn.request().filter(), turn.inForce(),
                want);
        return store.getAll(turn.namespace(), newest.stream().map(Memory::id).toList());
    }
}
