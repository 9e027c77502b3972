package dev.memfas.core.write;

import dev.memfas.Memories;
import dev.memfas.Memory;
import dev.memfas.spi.MemoryStore;
import dev.memfas.spi.StoredMemory;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Changes to memories that are already stored: an update, and a supersession with its rules (one replacement per
 * memory, a linear chain, validity that ends when the replacement's begins). Each reads the stored memory and writes
 * under the writer's lock, so no other write of the curator comes between; the store keeps the state before as a
 * version.
 */
public final class Revisions {
    private final MemoryStore store;
    private final MemoryWriter writer;

    public Revisions(MemoryStore store, MemoryWriter writer) {
        this.store = store;
        this.writer = writer;
    }

    /** The memory's states, oldest first, the current one last; empty if there is no such memory. */
    public List<Memories.Version> history(String namespace, String id) {
        Optional<StoredMemory> current = store.get(namespace, id);
        if (current.isEmpty()) {
            return List.of();
        }
        List<Memory> states = new ArrayList<>(store.versions(namespace, id));
        states.add(current.get().memory());
        return MemoryChanges.versions(states);
    }

    /** Applies {@code change} to the stored memory and stores the result, with {@code updatedAt} now. */
    public Memory update(String namespace, String id, UnaryOperator<Memory.Builder> change, Instant now) {
        return writer.exclusively(() -> {
            Memory before = stored(namespace, id);
            Memory after = Objects.requireNonNull(change.apply(before.toBuilder()), "the change returned no builder")
                    .build();
            if (!after.id().equals(id) || !after.namespace().equals(namespace)) {
                throw new IllegalArgumentException("an update cannot move memory '" + id + "' of namespace '"
                        + namespace + "' to '" + after.id() + "' of '" + after.namespace() + "'");
            }
            if (MemoryChanges.same(after, before)) {
                return before;
            }
            return writer.rememberAll(List.of(after.toBuilder().updatedAt(now).build()), now).get(0);
        });
    }

    /** Stores the replacement and marks the old memory superseded by it, in one write. */
    public Memory supersede(String oldId, Memory replacement, Instant now) {
        return writer.exclusively(() -> {
            Memory old = stored(replacement.namespace(), oldId);
            if (old.isSuperseded()) {
                throw new IllegalArgumentException("memory '" + oldId + "' is already superseded by '"
                        + old.supersededBy() + "'; supersede that one instead");
            }
            if (oldId.equals(replacement.id())) {
                throw new IllegalArgumentException("memory '" + oldId + "' cannot supersede itself");
            }
            Memory.Builder nb = replacement.toBuilder();
            if (replacement.id() == null) {
                nb.id(MemoryIds.random());
            }
            if (replacement.createdAt() == null) {
                nb.createdAt(now).updatedAt(now);
            }
            if (replacement.recordedAt() == null) {
                nb.recordedAt(now);
            }
            List<String> supersedes = new ArrayList<>(replacement.supersedes());
            supersedes.add(oldId);
            Memory next = nb.supersedes(supersedes).build();
            Instant switchAt = next.validFrom() != null ? next.validFrom() : next.createdAt();
            Instant until = old.validUntil() != null && old.validUntil().isBefore(switchAt) ? old.validUntil()
                    : switchAt;
            if (old.validFrom() != null && !until.isAfter(old.validFrom())) {
                throw new IllegalArgumentException("the replacement of memory '" + oldId + "' becomes valid at "
                        + switchAt + ", not after the memory did (" + old.validFrom() + ")");
            }
            Memory ended = old.toBuilder().validUntil(until).supersededBy(next.id()).updatedAt(now).build();
            return writer.rememberAll(List.of(ended, next), now).get(1);
        });
    }

    /**
     * Restores an archived memory: live again, with the restore counted as an access. One archived because it expired
     * loses the expiry that passed, or it would be out of every turn still.
     */
    public Memory restore(String namespace, String id, Instant now) {
        return writer.exclusively(() -> {
            Memory archived = stored(namespace, id);
            if (!archived.isArchived()) {
                throw new IllegalArgumentException("memory '" + id + "' is not archived");
            }
            boolean expired = archived.isExpiredAt(now);
            Memory restored = update(namespace, id, b -> expired ? b.archivedAt(null).expiresAt(null)
                    : b.archivedAt(null), now);
            store.recordAccess(namespace, List.of(id), now);
            return restored;
        });
    }

    private Memory stored(String namespace, String id) {
        return store.get(namespace, id).map(StoredMemory::memory).orElseThrow(
                () -> new IllegalArgumentException("no memory '" + id + "' in namespace '" + namespace + "'"));
    }
}
