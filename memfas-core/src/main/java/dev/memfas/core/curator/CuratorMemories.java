package dev.memfas.core.curator;

import dev.memfas.Conversation;
import dev.memfas.Layer;
import dev.memfas.Memories;
import dev.memfas.Memory;
import dev.memfas.MemoryFilter;
import dev.memfas.Scope;
import dev.memfas.core.lifecycle.Layers;
import dev.memfas.core.lifecycle.MemoryListing;
import dev.memfas.core.lifecycle.PatternFinder;
import dev.memfas.core.write.ConversationWriter;
import dev.memfas.core.write.Revisions;
import dev.memfas.spi.StoredMemory;
import java.time.Clock;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * The curator's {@link Memories}: checks each call and hands it to the class that does the work, {@link Revisions}
 * (update, supersede, restore, history), {@link MemoryListing} (list, memory context), {@link PatternFinder}
 * (patterns), {@link ConversationWriter} (conversations) or {@link Layers} (promotion, working memory). Thread-safe.
 */
final class CuratorMemories implements Memories {
    private final Revisions revisions;
    private final MemoryListing listing;
    private final Layers layers;
    private final Clock clock;
    private final Runnable ensureOpen;
    private final PatternFinder patterns;
    private final ConversationWriter conversations;

    CuratorMemories(Revisions revisions, MemoryListing listing, Layers layers, Clock clock, Runnable ensureOpen,
            PatternFinder patterns, ConversationWriter conversations) {
        this.patterns = patterns;
        this.conversations = conversations;
        this.revisions = revisions;
        this.listing = listing;
        this.layers = layers;
        this.clock = clock;
        this.ensureOpen = ensureOpen;
    }

    @Override
    public Memory promote(String namespace, String memoryId, Layer layer) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(memoryId, "memoryId");
        Objects.requireNonNull(layer, "layer");
        ensureOpen.run();
        return layers.promote(namespace, memoryId, layer);
    }

    @Override
    public List<Memory> workingMemory(String namespace, String sessionId) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(sessionId, "sessionId");
        ensureOpen.run();
        return layers.workingMemory(namespace, sessionId);
    }

    @Override
    public Memory update(String namespace, String memoryId, UnaryOperator<Memory.Builder> change) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(memoryId, "memoryId");
        Objects.requireNonNull(change, "change");
        ensureOpen.run();
        return revisions.update(namespace, memoryId, change, clock.instant());
    }

    @Override
    public Memory supersede(String oldId, Memory replacement) {
        Objects.requireNonNull(oldId, "oldId");
        Objects.requireNonNull(replacement, "replacement");
        ensureOpen.run();
        return revisions.supersede(oldId, replacement, clock.instant());
    }

    @Override
    public List<Memories.Version> history(String namespace, String memoryId) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(memoryId, "memoryId");
        ensureOpen.run();
        return revisions.history(namespace, memoryId);
    }

    @Override
    public Memory restore(String namespace, String memoryId) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(memoryId, "memoryId");
        ensureOpen.run();
        return revisions.restore(namespace, memoryId, clock.instant());
    }

    @Override
    public List<StoredMemory> memoryContext(String namespace, Scope scope, String kind, int limit) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(scope, "scope");
        ensureOpen.run();
        String k = kind == null ? null : kind.strip().toLowerCase(Locale.ROOT);
        return listing.memoryContext(namespace, scope, k, limit, clock.instant());
    }

    @Override
    public Conversation.Remembered remember(Conversation conversation, boolean dryRun) {
        Objects.requireNonNull(conversation, "conversation");
        ensureOpen.run();
        return conversations.remember(conversation, dryRun);
    }

    @Override
    public List<Memories.Pattern> patterns(String namespace, MemoryFilter filter, int limit) {
        Objects.requireNonNull(namespace, "namespace");
        ensureOpen.run();
        return patterns.find(namespace, filter, limit);
    }

    @Override
    public List<Memory> list(String namespace, MemoryFilter filter, int offset, int limit) {
        ensureOpen.run();
        return listing.list(namespace, filter, offset, limit);
    }
}
