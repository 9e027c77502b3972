package dev.memfas;

import dev.memfas.internal.Checks;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;

/**
 * Which memories of a namespace to visit: every condition that is set must hold.
 *
 * <p>Start from {@link #all()} and narrow: {@code MemoryFilter.all().since(t).kind("decision")}. The same filter lists
 * memories ({@link Memories#list}) and restricts a turn or a search ({@link ContextRequest#filter()},
 * {@link RecallRequest#filter()}). Immutable.
 *
 * @param since only memories with {@code createdAt} at or after this instant; {@code null} for no bound
 * @param until only memories with {@code createdAt} before this instant; {@code null} for no bound
 * @param author only memories by this author; {@code null} for any
 * @param kind only memories of this kind; {@code null} for any
 * @param scope only memories of exactly this scope; {@code null} for any
 * @param tags only memories carrying every one of these tags; empty for any
 * @param source only memories whose source begins with this (a file name finds its sections); {@code null} for any
 * @param topic only memories about this phrase: by meaning, a cosine with it at or above the embedding model's
 *     relevance floor, or, without an embedder, the memories a keyword search for it finds. Applied by the curator,
 *     which has the model: {@link #test} and stores ignore it. {@code null} for any
 * @param pinnedOnly only pinned memories; false for any
 * @param archived only archived memories ({@code true}), only live ones ({@code false}); {@code null} for any
 */
public record MemoryFilter(Instant since, Instant until, String author, String kind, Scope scope, Set<String> tags,
        String source, String topic, boolean pinnedOnly, Boolean archived) {
    private static final MemoryFilter ALL = new MemoryFilter(null, null, null, null, null, Set.of(), null, null, false,
            null);

    /**
     * Copies the tags and checks the phrase.
     *
     * @throws IllegalArgumentException if the topic is blank or over 1,000 characters
     */
    public MemoryFilter {
        tags = Set.copyOf(new LinkedHashSet<>(Objects.requireNonNull(tags, "tags")));
        if (topic != null && (topic.isBlank() || topic.length() > 1000)) {
            throw new IllegalArgumentException("a topic must be a phrase of 1 to 1000 characters: '"
                    + Checks.printable(topic.length() > 60 ? topic.substring(0, 60) + "..." : topic) + "'");
        }
    }

    /** The filter that lets every memory through. */
    public static MemoryFilter all() {
        return ALL;
    }

    /** This filter, also requiring {@code createdAt >= since}. */
    public MemoryFilter since(Instant since) {
        return new MemoryFilter(Objects.requireNonNull(since, "since"), until, author, kind, scope, tags, source, topic,
                pinnedOnly, archived);
    }

    /** This filter, also requiring {@code createdAt < until}. */
    public MemoryFilter until(Instant until) {
        return new MemoryFilter(since, Objects.requireNonNull(until, "until"), author, kind, scope, tags, source, topic,
                pinnedOnly, archived);
    }

    /** This filter, also requiring the given author. */
    public MemoryFilter author(String author) {
        return new MemoryFilter(since, until, Objects.requireNonNull(author, "author"), kind, scope, tags, source,
                topic, pinnedOnly, archived);
    }

    /** This filter, also requiring the given kind (compared lower-cased). */
    public MemoryFilter kind(String kind) {
        return new MemoryFilter(since, until, author,
                Objects.requireNonNull(kind, "kind").strip().toLowerCase(java.util.Locale.ROOT), scope, tags, source,
                topic, pinnedOnly, archived);
    }

    /** This filter, also requiring exactly the given scope. */
    public MemoryFilter scope(Scope scope) {
        return new MemoryFilter(since, until, author, kind, Objects.requireNonNull(scope, "scope"), tags, source, topic,
                pinnedOnly, archived);
    }

    /** This filter, also requiring every given tag. */
    public MemoryFilter tags(String... tags) {
        Set<String> all = new LinkedHashSet<>(this.tags);
        for (String t : tags) {
            all.add(Objects.requireNonNull(t, "tag").strip());
        }
        return new MemoryFilter(since, until, author, kind, scope, all, source, topic, pinnedOnly, archived);
    }

    /** This filter, also requiring a source that begins with the given text. */
    public MemoryFilter source(String source) {
        return new MemoryFilter(since, until, author, kind, scope, tags, Objects.requireNonNull(source, "source"),
                topic, pinnedOnly, archived);
    }

    /** This filter, also requiring memories about the given phrase (see {@link #topic()}). */
    public MemoryFilter topic(String phrase) {
        return new MemoryFilter(since, until, author, kind, scope, tags, source,
                Objects.requireNonNull(phrase, "topic"), pinnedOnly, archived);
    }

    /** This filter, also requiring the memory to be pinned. */
    public MemoryFilter pinned() {
        return new MemoryFilter(since, until, author, kind, scope, tags, source, topic, true, archived);
    }

    /** This filter, also requiring the memory to be archived ({@code true}) or live ({@code false}). */
    public MemoryFilter archived(boolean archived) {
        return new MemoryFilter(since, until, author, kind, scope, tags, source, topic, pinnedOnly, archived);
    }

    /** Whether the memory passes every condition of this filter but the topic, which the curator applies. */
    public boolean test(Memory memory) {
        return (since == null || (memory.createdAt() != null && !memory.createdAt().isBefore(since)))
                && (until == null || (memory.createdAt() != null && memory.createdAt().isBefore(until)))
                && (author == null || author.equals(memory.author()))
                && (kind == null || kind.equals(memory.kind()))
                && (scope == null || scope.equals(memory.scope()))
                && memory.tags().containsAll(tags)
                && (source == null || memory.source().startsWith(source))
                && (!pinnedOnly || memory.pinned())
                && (archived == null || archived == memory.isArchived());
    }
}
