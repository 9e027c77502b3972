package dev.memfas.core.turn;

import dev.memfas.Memory;
import dev.memfas.MemoryFilter;
import dev.memfas.spi.MemoryStore;
import dev.memfas.spi.StoredMemory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * The candidates of a request without a query, the start of a session: what an agent resumes from before it has a
 * question. In this order: the session's working memories, most recently used first; the namespace's pinned memories;
 * then its latest memories, newest first (of the request's project and filter, as a turn admits them). Each is scored
 * by its place in that order, from 1 down to above 0.5, so the budget is filled in it (pinned ones first, as in every
 * turn). Nothing is searched: no model call, no keyword search.
 *
 * <p>The latest are read from the store a window of time at a time, a day, then a week, a month, a year and then all,
 * until the window holds enough of them to fill the budget: a namespace written to today reads today's memories only
 * (through the stores' index by creation time), one untouched for a year reads them all once. Thread-safe.
 */
public final class SessionOpening {
    private static final List<Duration> WINDOWS =
            List.of(Duration.ofDays(1), Duration.ofDays(7), Duration.ofDays(30), Duration.ofDays(365));
    /**
     * The latest memories read for a budget: one per this many tokens of it (a short memory with its label is about
     * 20 tokens, so enough to fill it), at least {@value #MIN_LATEST}, at most {@value #MAX_LATEST}.
     */
    private static final int TOKENS_PER_LATEST = 16;
    private static final int MIN_LATEST = 10;
    private static final int MAX_LATEST = 200;
    private static final Comparator<Memory> NEWEST_FIRST =
            Comparator.comparing(Memory::createdAt).reversed().thenComparing(Memory::id);

    private final MemoryStore store;
    private final PinnedMemories pinned;

    public SessionOpening(MemoryStore store, PinnedMemories pinned) {
        this.store = store;
        this.pinned = pinned;
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
            pinnedMemories.sort(Comparator.comparing(StoredMemory::memory, NEWEST_FIRST));
            addNew(pinnedMemories, inForce, out);
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

    /** The turn's {@code want} newest memories in force, newest first, read a widening window at a time. */
    private List<StoredMemory> latest(Turn turn, int want) {
        InForce inForce = turn.inForce();
        MemoryFilter base = turn.request().filter() != null ? turn.request().filter() : MemoryFilter.all();
        Instant at = inForce.at();
        for (int w = 0; w <= WINDOWS.size(); w++) {
            MemoryFilter filter = base;
            if (w < WINDOWS.size()) {
                Instant since = at.minus(WINDOWS.get(w));
                if (base.since() == null || base.since().isBefore(since)) {
                    filter = base.since(since);
                }
            }
            PriorityQueue<Memory> newest = new PriorityQueue<>(NEWEST_FIRST.reversed());
            store.forEach(turn.namespace(), filter, m -> {
                if (inForce.admits(m)) {
                    newest.add(m);
                    if (newest.size() > want) {
                        newest.poll();
                    }
                }
            });
            if (newest.size() >= want || w == WINDOWS.size() || filter == base) {
                List<Memory> ordered = new ArrayList<>(newest);
                ordered.sort(NEWEST_FIRST);
                return store.getAll(turn.namespace(), ordered.stream().map(Memory::id).toList());
            }
        }
        throw new AssertionError("the last window reads every memory");
    }
}
