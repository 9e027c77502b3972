package dev.memfas;

import dev.memfas.internal.Checks;
import dev.memfas.policy.DuplicatePolicy;
import dev.memfas.spi.MemoryStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * One stored memory: a piece of text an agent may need again, with where it came from and when it is about.
 *
 * <p>Build one with {@link #builder(String)}; only the text is required. Two components may be left {@code null} on a
 * memory handed to {@link ContextCurator#remember(Memory)}, which fills them and returns what it stored: {@link #id()}
 * (a random one is assigned: {@code m} and 21 digits, 9 tokens in a context where a UUID would take 24) and
 * {@link #createdAt()} (the curator's clock). {@link #updatedAt()} defaults to {@code createdAt}. A memory read back
 * from a {@link MemoryStore} always has all three.
 *
 * <p>Immutable and thread-safe; collections are copied on construction.
 *
 * @param id unique within its namespace; at most 512 chars, no control characters or lone surrogates; {@code null}
 *     until stored
 * @param namespace the tenant or partition this memory lives in; memories of different namespaces never meet
 * @param text the content; not blank, at most {@link #MAX_TEXT_CHARS} chars; any Unicode is kept as given
 * @param source where the memory came from, e.g. {@code "MEMORY.md#Deploy"} or {@code "api"}
 * @param kind what sort of memory it is, lower-cased: {@code note}, {@code decision}, {@code preference},
 *     {@code rule}, {@code correction}, {@code anti_pattern}, {@code bug_fix}, {@code pattern},
 *     {@code conversation_turn}, or any other word. Decisions, preferences, rules, corrections and anti-patterns are
 *     standing guidance: said again at any moment, they are not stored twice but counted (their evidence count rises;
 * see {@link DuplicatePolicy}), and an     anti-pattern is shown in a context as "Avoid: …"
 * @param scope where the memory applies
 * @param tags free-form labels, stripped and de-duplicated in order
 * @param author who wrote or said it; {@code null} when unknown
 * @param createdAt the time the memory is about (recency is measured from it); {@code null} until stored
 * @param updatedAt the time the memory's content last changed; {@code null} until stored
 * @param pinned whether the memory is in every context while the budget has room for it: a pinned memory is a
 *     candidate in every turn of its namespace and is placed before the ranked memories, whatever it scores
 * @param importance a prior in [0, 1]; 0.5 when not said
 * @param metadata free-form string pairs kept with the memory
 * @param expiresAt when the memory stops being used; {@code null} (the default) for never. An expired memory is never
 *     included in a context, and stores delete it when asked to purge
 * @param validFrom when what the memory says became true; {@code null} (the default) for "always". A memory is not
 *     used before it is valid
 * @param validUntil when what the memory says stopped being true; {@code null} (the default) for "still true". A
 *     memory no longer valid is left out of contexts and recall unless a request asks for superseded memories or for
 *     an earlier moment ({@link ContextRequest#asOf()})
 * @param supersedes the ids of the memories (of the same namespace) this one replaced, oldest first; empty when none
 * @param supersededBy the id of the memory that replaced this one; {@code null} when none. Set by
 *     {@link Memories#supersede(String, Memory)} together with {@code validUntil}
 * @param archivedAt when maintenance archived the memory; {@code null} (the default) while it is live. An archived
 *     memory is kept, but used in no context or search until it is restored
 * @param recordedAt when the memory was first stored, on the curator's clock (the time it was learned, where
 *     {@code createdAt} is the time it is about); kept when the memory is replaced. {@code null} until stored, and for
 *     memories stored before memfas recorded it
 */
public record Memory(
        String id,
        String namespace,
        String text,
        String source,
        String kind,
        Scope scope,
        List<String> tags,
        String author,
        Instant createdAt,
        Instant updatedAt,
        boolean pinned,
        double importance,
        Map<String, String> metadata,
        Instant expiresAt,
        Instant validFrom,
        Instant validUntil,
        List<String> supersedes,
        String supersededBy,
        Instant archivedAt,
        Instant recordedAt) {

    /** The longest memory text accepted, in chars: 1 MiB of UTF-16 code units. */
    public static final int MAX_TEXT_CHARS = 1 << 20;
    /** The namespace used when none is given. */
    public static final String DEFAULT_NAMESPACE = "default";
    /** The source used when none is given. */
    public static final String DEFAULT_SOURCE = "api";
    /** The kind used when none is given. */
    public static final String DEFAULT_KIND = "note";
    /** The importance used when none is given. */
    public static final double DEFAULT_IMPORTANCE = 0.5;

    /**
     * Validates and normalizes the components.
     *
     * @throws NullPointerException if text, namespace, source, kind, scope, tags or metadata is null
     * @throws IllegalArgumentException if the text is blank or longer than {@link #MAX_TEXT_CHARS}; an id, namespace,
     *     source, kind, tag or metadata key is blank, too long or has control characters; importance is not in
     *     [0, 1]; {@code updatedAt} is set without {@code createdAt}; {@code validUntil} is not after
     *     {@code validFrom}; or the memory supersedes itself or is superseded by itself
     */
    public Memory {
        if (id != null) {
            Checks.identifier(id, "memory id", 512);
        }
        Checks.identifier(Objects.requireNonNull(namespace, "namespace"), "namespace", 128);
        Checks.textWithin(Objects.requireNonNull(text, "text"), "memory text", MAX_TEXT_CHARS);
        Checks.identifier(Objects.requireNonNull(source, "source"), "source", 1024);
        kind = Checks.identifier(Objects.requireNonNull(kind, "kind").strip(), "kind", 64).toLowerCase(Locale.ROOT);
        Objects.requireNonNull(scope, "scope");
        tags = normalizeTags(Objects.requireNonNull(tags, "tags"));
        if (author != null) {
            Checks.identifier(author, "author", 256);
        }
        if (updatedAt != null && createdAt == null) {
            throw new IllegalArgumentException("updatedAt is set but createdAt is not: " + updatedAt);
        }
        if (!(importance >= 0.0 && importance <= 1.0)) {
            throw new IllegalArgumentException("importance must be in [0, 1]: " + importance);
        }
        Objects.requireNonNull(metadata, "metadata");
        Map<String, String> copy = new LinkedHashMap<>();
        metadata.forEach((k, v) -> {
            Checks.identifier(Objects.requireNonNull(k, "metadata key"), "metadata key", 256);
            copy.put(k, Objects.requireNonNull(v, () -> "metadata value of '" + k + "'"));
        });
        metadata = Map.copyOf(copy);
        if (validFrom != null && validUntil != null && !validUntil.isAfter(validFrom)) {
            throw new IllegalArgumentException(
                    "validUntil must be after validFrom: " + validUntil + " is not after " + validFrom);
        }
        LinkedHashSet<String> replaced = new LinkedHashSet<>();
        for (String old : Objects.requireNonNull(supersedes, "supersedes")) {
            replaced.add(Checks.identifier(Objects.requireNonNull(old, "superseded id"), "superseded id", 512));
        }
        supersedes = List.copyOf(replaced);
        if (supersededBy != null) {
            Checks.identifier(supersededBy, "supersededBy", 512);
        }
        if (id != null && (supersedes.contains(id) || id.equals(supersededBy))) {
            throw new IllegalArgumentException("memory '" + id + "' cannot supersede itself");
        }
    }

    private static List<String> normalizeTags(List<String> tags) {
        LinkedHashSet<String> out = new LinkedHashSet<>();
        for (String tag : tags) {
            out.add(Checks.identifier(Objects.requireNonNull(tag, "tag").strip(), "tag", 128));
        }
        return List.copyOf(out);
    }

    /**
     * Starts a memory with the given text.
     *
     * @throws NullPointerException if text is null (the other checks run in {@link Builder#build()})
     */
    public static Builder builder(String text) {
        return new Builder(Objects.requireNonNull(text, "text"));
    }

    /** A builder holding this memory's components, to derive a changed copy. */
    public Builder toBuilder() {
        Builder b = new Builder(text);
        b.id = id;
        b.namespace = namespace;
        b.source = source;
        b.kind = kind;
        b.scope = scope;
        b.tags = new ArrayList<>(tags);
        b.author = author;
        b.createdAt = createdAt;
        b.updatedAt = updatedAt;
        b.pinned = pinned;
        b.importance = importance;
        b.metadata = new LinkedHashMap<>(metadata);
        b.expiresAt = expiresAt;
        b.validFrom = validFrom;
        b.validUntil = validUntil;
        b.supersedes = new ArrayList<>(supersedes);
        b.supersededBy = supersededBy;
        b.archivedAt = archivedAt;
        b.recordedAt = recordedAt;
        return b;
    }

    /**
     * Whether what this memory says is true at the given time: not before {@code validFrom} and before
     * {@code validUntil}, each when set.
     */
    public boolean isValidAt(Instant time) {
        return (validFrom == null || !validFrom.isAfter(time)) && (validUntil == null || validUntil.isAfter(time));
    }

    /** Whether maintenance archived this memory. */
    public boolean isArchived() {
        return archivedAt != null;
    }

    /** Whether another memory replaced this one. */
    public boolean isSuperseded() {
        return supersededBy != null;
    }

    /** Whether this memory has expired at the given time. */
    public boolean isExpiredAt(Instant now) {
        return expiresAt != null && !expiresAt.isAfter(now);
    }

    /**
     * Builds a {@link Memory}. Not thread-safe; {@link #build()} runs every check and may be called repeatedly.
     */
    public static final class Builder {
        private String text;
        private String id;
        private String namespace = DEFAULT_NAMESPACE;
        private String source = DEFAULT_SOURCE;
        private String kind = DEFAULT_KIND;
        private Scope scope = Scope.universal();
        private List<String> tags = new ArrayList<>();
        private String author;
        private Instant createdAt;
        private Instant updatedAt;
        private boolean pinned;
        private double importance = DEFAULT_IMPORTANCE;
        private Map<String, String> metadata = new LinkedHashMap<>();
        private Instant expiresAt;
        private Instant validFrom;
        private Instant validUntil;
        private List<String> supersedes = new ArrayList<>();
        private String supersededBy;
        private Instant archivedAt;
        private Instant recordedAt;

        private Builder(String text) {
            this.text = text;
        }

        /** The text. */
        public Builder text(String text) {
            this.text = Objects.requireNonNull(text, "text");
            return this;
        }

        /** The id; when not set, {@code remember} assigns a random one ({@code m} and 21 digits). */
        public Builder id(String id) {
            this.id = id;
            return this;
        }

        /** The namespace; {@code "default"} when not set. */
        public Builder namespace(String namespace) {
            this.namespace = Objects.requireNonNull(namespace, "namespace");
            return this;
        }

        /** Where the memory came from; {@code "api"} when not set. */
        public Builder source(String source) {
            this.source = Objects.requireNonNull(source, "source");
            return this;
        }

        /** What sort of memory it is; {@code "note"} when not set. */
        public Builder kind(String kind) {
            this.kind = Objects.requireNonNull(kind, "kind");
            return this;
        }

        /** Where the memory applies; universal when not set. */
        public Builder scope(Scope scope) {
            this.scope = Objects.requireNonNull(scope, "scope");
            return this;
        }

        /** Replaces the tags. */
        public Builder tags(Collection<String> tags) {
            this.tags = new ArrayList<>(Objects.requireNonNull(tags, "tags"));
            return this;
        }

        /** Replaces the tags. */
        public Builder tags(String... tags) {
            return tags(List.of(tags));
        }

        /** Who wrote or said it. */
        public Builder author(String author) {
            this.author = author;
            return this;
        }

        /** The time the memory is about; when not set, {@code remember} uses the curator's clock. */
        public Builder createdAt(Instant createdAt) {
            this.createdAt = createdAt;
            return this;
        }

        /** The time the content last changed; {@code createdAt} when not set. */
        public Builder updatedAt(Instant updatedAt) {
            this.updatedAt = updatedAt;
            return this;
        }

        /** Whether the memory is pinned. */
        public Builder pinned(boolean pinned) {
            this.pinned = pinned;
            return this;
        }

        /** A prior in [0, 1]; 0.5 when not set. */
        public Builder importance(double importance) {
            this.importance = importance;
            return this;
        }

        /** Replaces the metadata. */
        public Builder metadata(Map<String, String> metadata) {
            this.metadata = new LinkedHashMap<>(Objects.requireNonNull(metadata, "metadata"));
            return this;
        }

        /** Adds or replaces one metadata pair. */
        public Builder metadata(String key, String value) {
            this.metadata.put(Objects.requireNonNull(key, "metadata key"), value);
            return this;
        }

        /** When the memory expires; never when not set. */
        public Builder expiresAt(Instant expiresAt) {
            this.expiresAt = expiresAt;
            return this;
        }

        /** When what the memory says became true; its {@code createdAt} when not set. */
        public Builder validFrom(Instant validFrom) {
            this.validFrom = validFrom;
            return this;
        }

        /** When what the memory says stopped being true; still true when not set. */
        public Builder validUntil(Instant validUntil) {
            this.validUntil = validUntil;
            return this;
        }

        /** Replaces the ids of the memories this one replaced. */
        public Builder supersedes(Collection<String> ids) {
            this.supersedes = new ArrayList<>(Objects.requireNonNull(ids, "supersedes"));
            return this;
        }

        /** The id of the memory that replaced this one; none when not set. */
        public Builder supersededBy(String id) {
            this.supersededBy = id;
            return this;
        }

        /** When the memory was archived; live when not set. */
        public Builder archivedAt(Instant archivedAt) {
            this.archivedAt = archivedAt;
            return this;
        }

        /** When the memory was first stored; {@code remember} sets it when not set. */
        public Builder recordedAt(Instant recordedAt) {
            this.recordedAt = recordedAt;
            return this;
        }

        /**
         * Builds the memory.
         *
         * @throws IllegalArgumentException or NullPointerException as described on {@link Memory}
         */
        public Memory build() {
            Instant updated = updatedAt == null ? createdAt : updatedAt;
            return new Memory(id, namespace, text, source, kind, scope, tags, author, createdAt, updated, pinned,
                    importance, metadata, expiresAt, validFrom, validUntil, supersedes, supersededBy, archivedAt,
                    recordedAt);
        }
    }
}
