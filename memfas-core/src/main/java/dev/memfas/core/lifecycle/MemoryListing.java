package dev.memfas.core.lifecycle;

import dev.memfas.Memory;
import dev.memfas.MemoryFilter;
import dev.memfas.Scope;
import dev.memfas.core.turn.InForce;
import dev.memfas.core.turn.ScopeRule;
import dev.memfas.core.turn.TopicFilter;
import dev.memfas.spi.MemoryStore;
import dev.memfas.spi.StoredMemory;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Lists memories without a query: by filter, newest first ({@link dev.memfas.Memories#list}), and the memories
 * that apply in one scope ({@link dev.memfas.Memories#memoryContext}), on-demand retrieval of an agent's standing rules
 * ({@link dev.memfas.Memories#memoryContext}). A scope's memories are its own and those of every broader scope:
 * universal ones everywhere, a project's in its tasks; a project's task scopes also apply in the project. Other
 * projects' and languages' never do. Only memories in force now. Ranked most specific first, then pinned, then the
 * most used and repeated (access and evidence counts), then the newest. Reads the namespace's memories of the kind
 * (all of them when no kind is given): for on-demand use, not every turn. Thread-safe.
 */
public final class MemoryListing {
    /** The most memories one call returns. */
    static final int MAX_LIMIT = 200;

    private static final Comparator<Memory> NEWEST_FIRST =
            Comparator.comparing(Memory::createdAt).reversed().thenComparing(Memory::id);

    private final MemoryStore store;
    private final TopicFilter topics;

    public MemoryListing(MemoryStore store, TopicFilter topics) {
        this.store = store;
        this.topics = topics;
    }

    /**
     * The memories of a namespace the filter lets through (its topic read by {@link TopicFilter}), newest first, from
     * {@code offset}, at most {@code limit} (1 to 1,000).
     */
    public List<Memory> list(String namespace, MemoryFilter filter, int offset, int limit) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(filter, "filter");
        if (offset < 0) {
            throw new IllegalArgumentException("offset must not be negative: " + offset);
        }
        if (limit < 1 || limit > 1000) {
            throw new IllegalArgumentException("list limit must be in [1, 1000]: " + limit);
        }
        Set<String> onTopic = topics.onTopic(namespace, filter);
        List<Memory> matching = new ArrayList<>();
        store.forEach(namespace, filter, m -> {
            if (onTopic == null || onTopic.contains(m.id())) {
                matching.add(m);
            }
        });
        matching.sort(NEWEST_FIRST);
        return offset >= matching.size() ? List.of()
                : List.copyOf(matching.subList(offset, Math.min(matching.size(), offset + limit)));
    }

    public List<StoredMemory> memoryContext(String namespace, Scope scope, String kind, int limit, Instant now) {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("memory context limit must be in [1, " + MAX_LIMIT + "]: " + limit);
        }
        MemoryFilter filter = kind == null ? MemoryFilter.all().archived(false) : MemoryFilter.all().archived(false)
                .kind(kind);
        InForce inForce = new InForce(now, null, false, ScopeRule.ANY);
        List<Memory> applying = new ArrayList<>();
        store.forEach(namespace, filter, m -> {
            if (inForce.admits(m) && specificity(m.scope(), scope) > 0) {
                applying.add(m);
            }
        });
        List<String> ids = applying.stream().map(Memory::id).toList();
        List<StoredMemory> stored = new ArrayList<>(store.getAll(namespace, ids));
        stored.sort(Comparator.comparingInt((StoredMemory s) -> -specificity(s.memory().scope(), scope))
                .thenComparing(s -> !s.memory().pinned())
                .thenComparingLong(s -> -(s.accessCount() + s.evidenceCount()))
                .thenComparing(s -> s.memory().createdAt(), Comparator.reverseOrder())
                .thenComparing(s -> s.memory().id()));
        return List.copyOf(stored.subList(0, Math.min(limit, stored.size())));
    }

    /**
     * How specifically a memory of scope {@code m} applies in scope {@code asked}: 4 its task, 3 its project, 2 its
     * language, 1 universal; 0 if it does not apply there.
     */
    static int specificity(Scope m, Scope asked) {
        return switch (m.type()) {
            case UNIVERSAL -> 1;
            case LANGUAGE -> asked.equals(m) ? 2 : 0;
            case PROJECT -> {
                if (asked.type() != Scope.Type.PROJECT || !asked.name().equals(m.name())) {
                    yield 0;
                }
                if (!m.hasTask()) {
                    yield 3;
                }
                yield !asked.hasTask() || asked.task().equals(m.task()) ? 4 : 0;
            }
        };
    }
}
