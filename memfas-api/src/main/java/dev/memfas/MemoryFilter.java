package dev.memfas;

import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;

/**
 * Which memories of a namespace to visit: every condition that is set must hold.
 *
 * <p>Start from {@link #all()} and narrow: {@code MemoryFilter.all().since(t).kind("decision")}. Immutable.
 *
 * @param since only memories with {@code createdAt} at or after this instant; {@code null} for no bound
 * @param author only memories by this author; {@code null} for any
 * @param kind only memories of this kind; {@code null} for any
 * @param scope only memories of exactly this scope; {@code null} for any
 * @param tags only memories carrying every one of these tags; empty for any
 * @param pinnedOnly only pinned memories; false for any
 * @param archived only archived memories ({@code true}), only live ones ({@code false}); {@code null} for any
 */
public record MemoryFilter(Instant since, String author, String kind, Scope scope, Set<String> tags,
        boolean pinnedOnly, Boolean archived) {
    private static final MemoryFilter ALL = new MemoryFilter(null, null, null, null, Set.of(), false, null);

    /** Copies the tags. */
    public MemoryFilter {
        tags = Set.copyOf(new LinkedHashSet<>(Objects.requireNonNull(tags, "tags")));
    }

    /** The filter that lets every memory through. */
    public static MemoryFilter all() {
        return ALL;
    }

    /** This filter, also requiring {@code createdAt >= since}. */
    public MemoryFilter since(Instant since) {
        return new MemoryFilter(Objects.requireNonNull(since, "since"), author, kind, scope, tags, pinnedOnly,
                archived);
    }

    /** This filter, also requiring the given author. */
    public MemoryFilter author(String author) {
        return new MemoryFilter(since, Objects.requireNonNull(author, "author"), kind, scope, tags, pinnedOnly,
                archived);
    }

    /** This filter, also requiring the given kind (compared lower-cased). */
    public MemoryFilter kind(String kind) {
        return new MemoryFilter(since, author,
                Objects.requireNonNull(kind, "kind").strip().toLowerCase(java.util.Locale.ROOT), scope, tags,
                pinnedOnly, archived);
    }

    /** This filter, also requiring exactly the given scope. */
    public MemoryFilter scope(Scope scope) {
        return new MemoryFilter(since, author, kind, Objects.requireNonNull(scope, "scope"), tags, pinnedOnly,
                archived);
    }

    /** This filter, also requiring every given tag. */
    public MemoryFilter tags(String... tags) {
        Set<String> all = new LinkedHashSet<>(this.tags);
        for (String t : tags) {
            all.add(Objects.requireNonNull(t, "tag").strip());
        }
        return new MemoryFilter(since, author, kind, scope, all, pinnedOnly, archived);
    }

    /** This filter, also requiring the memory to be pinned. */
    public MemoryFilter pinned() {
        return new MemoryFilter(since, author, kind, scope, tags, true, archived);
    }

    /** This filter, also requiring the memory to be archived ({@code true}) or live ({@code false}). */
    public MemoryFilter archived(boolean archived) {
        return new MemoryFilter(since, author, kind, scope, tags, pinnedOnly, archived);
    }

    /** Whether the memory passes every condition of this filter. */
    public boolean test(Memory memory) {
        return (since == null || (memory.createdAt() != null && !memory.createdAt().isBefore(since)))
                && (author == null || author.equals(memory.author()))
                && (kind == null || kind.equals(memory.kind()))
                && (scope == null || scope.equals(memory.scope()))
                && memory.tags().containsAll(tags)
                && (!pinnedOnly || memory.pinned())
                && (archived == null || archived == memory.isArchived());
    }
}
