package dev.memfas.core.write;

import dev.memfas.Conversation;
import dev.memfas.Memory;
import dev.memfas.core.text.NormalizedText;
import dev.memfas.policy.FactExtractor;
import dev.memfas.spi.LexicalHit;
import dev.memfas.spi.MemoryStore;
import dev.memfas.spi.StoredMemory;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Remembers a conversation ({@link dev.memfas.Memories#remember(Conversation, boolean)}): each message as a memory of
 * kind {@value Conversation#TURN_KIND}, and the facts the curator's {@link FactExtractor} takes from them, each a
 * memory of its own that names the turns it came from. Turns and facts are written in one batch through the
 * {@link MemoryWriter}, so the curator's duplicate and supersession policies apply to them as to any write: a fact a
 * stored memory already says is not stored again, and one that updates a stored memory supersedes it when the policy
 * applies. A dry run computes the same and writes nothing. The extractor runs outside the writer's lock; one that
 * fails, or names a message the conversation does not have, is logged and the conversation is remembered without
 * facts. Thread-safe.
 */
public final class ConversationWriter {
    private static final Logger LOG = LoggerFactory.getLogger(ConversationWriter.class);
    /** How many keyword hits are read to find a stored memory with a fact's text. */
    private static final int DUPLICATE_LOOKUP = 5;

    private final MemoryWriter writer;
    private final MemoryStore store;
    private final FactExtractor extractor;
    private final Clock clock;

    public ConversationWriter(MemoryWriter writer, MemoryStore store, FactExtractor extractor, Clock clock) {
        this.writer = writer;
        this.store = store;
        this.extractor = extractor;
        this.clock = clock;
    }

    public Conversation.Remembered remember(Conversation c, boolean dryRun) {
        Instant now = clock.instant();
        List<Conversation.Message> messages = c.messages();
        List<Memory> turns = new ArrayList<>(messages.size());
        for (int i = 0; i < messages.size(); i++) {
            Conversation.Message m = messages.get(i);
            // Messages without a time keep their order: a microsecond apart, ending now.
            Instant at = m.at() != null ? m.at() : now.minusNanos(1_000L * (messages.size() - 1 - i));
            turns.add(Memory.builder(m.text()).id(MemoryIds.random()).namespace(c.namespace()).source(c.source())
                    .author(m.author()).kind(Conversation.TURN_KIND).createdAt(at).build());
        }
        List<Draft> drafts = facts(c, turns);
        List<Memory> factMemories = drafts.stream().map(Draft::memory).toList();
        if (dryRun) {
            List<String> updates = writer.wouldUpdate(factMemories, now);
            List<Conversation.Fact> facts = new ArrayList<>();
            for (int i = 0; i < drafts.size(); i++) {
                Draft d = drafts.get(i);
                String duplicate = storedWithText(c.namespace(), d.memory().text());
                facts.add(new Conversation.Fact(d.memory(), d.fromTurns(), duplicate,
                        duplicate == null ? updates.get(i) : null));
            }
            return new Conversation.Remembered(turns, facts, true);
        }
        Map<String, String> existing = new LinkedHashMap<>();
        for (Memory f : factMemories) {
            String duplicate = storedWithText(c.namespace(), f.text());
            if (duplicate != null) {
                existing.put(f.id(), duplicate);
            }
        }
        List<Memory> batch = new ArrayList<>(turns);
        for (Memory f : factMemories) {
            if (!existing.containsKey(f.id())) {
                batch.add(f);
            }
        }
        List<Memory> stored = writer.rememberAll(batch, now);
        List<Conversation.Fact> facts = new ArrayList<>();
        int next = turns.size();
        for (Draft d : drafts) {
            String duplicate = existing.get(d.memory().id());
            if (duplicate != null) {
                Memory kept = store.get(c.namespace(), duplicate).map(StoredMemory::memory).orElse(d.memory());
                facts.add(new Conversation.Fact(kept, d.fromTurns(), duplicate, null));
                continue;
            }
            Memory written = stored.get(next++);
            boolean same = !written.id().equals(d.memory().id());
            facts.add(new Conversation.Fact(written, d.fromTurns(), same ? written.id() : null,
                    same || written.supersedes().isEmpty() ? null : written.supersedes().get(0)));
        }
        return new Conversation.Remembered(stored.subList(0, turns.size()), facts, false);
    }

    /** A fact's memory before it is written, and the ids of the turns it came from. */
    private record Draft(Memory memory, List<String> fromTurns) {}

    /** The extractor's facts as memories, one per distinct text (the turns of repeats merged). */
    private List<Draft> facts(Conversation c, List<Memory> turns) {
        List<FactExtractor.Fact> extracted;
        try {
            extracted = extractor.extract(c.messages());
        } catch (RuntimeException e) {
            LOG.warn("fact extractor {} failed; the conversation is remembered without facts", extractor, e);
            return List.of();
        }
        Map<String, FactExtractor.Fact> byText = new LinkedHashMap<>();
        Map<String, Set<Integer>> from = new LinkedHashMap<>();
        for (FactExtractor.Fact f : extracted) {
            for (int i : f.from()) {
                if (i < 0 || i >= turns.size()) {
                    LOG.warn("fact extractor {} named message {} of a conversation of {}; the conversation is"
                            + " remembered without facts", extractor, i, turns.size());
                    return List.of();
                }
            }
            String key = NormalizedText.normalize(f.text());
            byText.putIfAbsent(key, f);
            from.computeIfAbsent(key, k -> new LinkedHashSet<>()).addAll(f.from());
        }
        List<Draft> drafts = new ArrayList<>();
        for (Map.Entry<String, FactExtractor.Fact> e : byText.entrySet()) {
            FactExtractor.Fact f = e.getValue();
            List<Integer> positions = new ArrayList<>(from.get(e.getKey()));
            positions.sort(null);
            List<String> ids = positions.stream().map(i -> turns.get(i).id()).toList();
            Memory last = turns.get(positions.get(positions.size() - 1));
            Set<String> authors = new LinkedHashSet<>();
            positions.forEach(i -> authors.add(turns.get(i).author()));
            Memory.Builder b = Memory.builder(f.text().strip()).id(MemoryIds.random()).namespace(c.namespace())
                    .source(c.source()).kind(f.kind()).createdAt(last.createdAt())
                    .metadata(Conversation.FROM_TURNS_KEY, String.join(",", ids));
            if (authors.size() == 1) {
                b.author(authors.iterator().next());
            }
            drafts.add(new Draft(b.build(), ids));
        }
        return drafts;
    }

    /** A live stored memory whose text is the same (normalized) as this one, or null. */
    private String storedWithText(String namespace, String text) {
        String normalized = NormalizedText.normalize(text);
        List<String> ids = new ArrayList<>();
        for (LexicalHit hit : store.searchLexical(namespace, text, DUPLICATE_LOOKUP)) {
            ids.add(hit.memoryId());
        }
        Instant now = clock.instant();
        for (StoredMemory s : store.getAll(namespace, ids)) {
            Memory m = s.memory();
            if (!m.isArchived() && !m.isSuperseded() && m.isValidAt(now)
                    && NormalizedText.normalize(m.text()).equals(normalized)) {
                return m.id();
            }
        }
        return null;
    }
}
