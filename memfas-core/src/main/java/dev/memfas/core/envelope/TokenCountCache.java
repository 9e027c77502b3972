package dev.memfas.core.envelope;

import dev.memfas.Memory;
import dev.memfas.core.text.NormalizedText;
import dev.memfas.spi.Tokenizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Remembers the token count of each memory's rendered item, so a memory that is a candidate turn after turn is
 * tokenized once; and with it the hash of the memory's normalized text ({@link NormalizedText#hash}), which
 * the fill's duplicate check would otherwise compute again for every candidate every turn. An entry is keyed by
 * namespace and id and kept with the memory it was counted for: it is used only for an equal memory (the same
 * instance, as the in-memory store returns, is checked first), so a changed memory is counted anew and no two texts
 * can share a count. Bounded: past the limit the cache starts over.
 *
 * <p>It also remembers where {@link ItemRenderer} cut a memory too long for an item ({@link Cut}), for the last
 * {@value #MOST_CUTS} item caps it was cut to (a curator's default budget and the few its requests ask for), so a long
 * memory that is a candidate turn after turn is cut once per cap.
 *
 * <p>Thread-safe.
 */
public final class TokenCountCache {
    /**
     * What is known of one memory: its whole item's count, its text's hash, where it was cut, and its count as a line
     * under a day's heading ({@link ContextEnvelope#asLine}): {@value #UNKNOWN} until counted, {@value #NOT_A_LINE} for
     * a memory that is no line.
     */
    record Entry(Memory memory, int tokens, long textHash, List<Cut> cuts, int lineTokens) {
        boolean isFor(Memory m) {
            return memory == m || memory.equals(m);
        }
    }

    /**
     * The memory's item cut to at most {@code cap} tokens, dated {@code age}: its text up to {@code end} (then the
     * truncation marker), which renders to {@code tokens} tokens; {@code end} is -1 if no cut fits the cap. Only an
     * offset is kept, not the text, so a cut costs the cache a few bytes.
     */
    record Cut(int cap, String age, int end, int tokens) {
        boolean isFor(int cap, String age) {
            return this.cap == cap && Objects.equals(this.age, age);
        }
    }

    /** A line count not taken yet. */
    static final int UNKNOWN = -1;
    /** The line count of a memory that is a tag under a heading too. */
    static final int NOT_A_LINE = -2;

    /** How many cuts of one memory are kept, the most recent first. */
    static final int MOST_CUTS = 4;

    private final Tokenizer tokenizer;
    private final int maxEntries;
    /** By namespace, then by id: no key is built per lookup, and ids' hash codes are cached in the strings. */
    private final ConcurrentHashMap<String, ConcurrentHashMap<String, Entry>> namespaces = new ConcurrentHashMap<>();
    private final AtomicInteger size = new AtomicInteger();

    public TokenCountCache(Tokenizer tokenizer, int maxEntries) {
        this.tokenizer = tokenizer;
        this.maxEntries = maxEntries;
    }

    /** The cached count of this memory's item, or -1 if it is not cached. */
    int cached(Memory memory) {
        Entry e = find(memory);
        return e == null ? -1 : e.tokens();
    }

    /** What is cached for this memory, or null if nothing is. */
    Entry find(Memory memory) {
        Entry e = entry(memory);
        return e != null && e.isFor(memory) ? e : null;
    }

    /** Caches a count known from elsewhere (the store), and hashes the memory's text. */
    Entry put(Memory memory, int tokens) {
        if (size.get() >= maxEntries) {
            namespaces.clear();
            size.set(0);
        }
        Entry entry = new Entry(memory, tokens, NormalizedText.hash(memory.text()), List.of(), UNKNOWN);
        Entry previous = namespaces.computeIfAbsent(memory.namespace(), n -> new ConcurrentHashMap<>())
                .put(memory.id(), entry);
        if (previous == null) {
            size.incrementAndGet();
        }
        return entry;
    }

    /** The token count of {@code rendered}, the memory's whole item: cached, or counted now and cached. */
    int count(Memory memory, String rendered) {
        Entry e = entry(memory);
        if (e != null && e.isFor(memory)) {
            return e.tokens();
        }
        int tokens = tokenizer.count(rendered);
        put(memory, tokens);
        return tokens;
    }

    /** Where this memory was cut for an item of at most {@code cap} tokens dated {@code age}, or null if not known. */
    Cut cut(Memory memory, int cap, String age) {
        Entry e = find(memory);
        if (e != null) {
            for (Cut cut : e.cuts()) {
                if (cut.isFor(cap, age)) {
                    return cut;
                }
            }
        }
        return null;
    }

    /**
     * Remembers a cut of this memory, first, in place of one for the same cap and age and, past {@value #MOST_CUTS},
     * of the oldest; nothing if the memory's count is not cached.
     */
    void putCut(Memory memory, Cut cut) {
        // The namespace's map is read once: the cache may start over (clear) between two reads.
        ConcurrentHashMap<String, Entry> byId = namespaces.get(memory.namespace());
        Entry e = byId == null ? null : byId.get(memory.id());
        if (e == null || !e.isFor(memory)) {
            return;
        }
        List<Cut> cuts = new ArrayList<>(MOST_CUTS);
        cuts.add(cut);
        for (Cut known : e.cuts()) {
            if (cuts.size() < MOST_CUTS && !known.isFor(cut.cap(), cut.age())) {
                cuts.add(known);
            }
        }
        byId.replace(memory.id(), e, new Entry(e.memory(), e.tokens(), e.textHash(), List.copyOf(cuts),
                e.lineTokens()));
    }

    /**
     * The token count of the memory, whole, as a line under its day's heading, or {@value #NOT_A_LINE} if it is no
     * line there ({@link ContextEnvelope#asLine}): cached with the memory's count, or found now (and cached if the
     * memory's count is).
     */
    int lineTokens(Memory memory) {
        // The namespace's map is read once: the cache may start over (clear) between two reads.
        ConcurrentHashMap<String, Entry> byId = namespaces.get(memory.namespace());
        Entry e = byId == null ? null : byId.get(memory.id());
        boolean known = e != null && e.isFor(memory);
        if (known && e.lineTokens() != UNKNOWN) {
            return e.lineTokens();
        }
        int tokens = ContextEnvelope.asLine(memory, memory.text())
                ? tokenizer.count(ContextEnvelope.undated(memory, memory.text())) : NOT_A_LINE;
        if (known) {
            byId.replace(memory.id(), e, new Entry(e.memory(), e.tokens(), e.textHash(), e.cuts(), tokens));
        }
        return tokens;
    }

    private Entry entry(Memory memory) {
        ConcurrentHashMap<String, Entry> byId = namespaces.get(memory.namespace());
        return byId == null ? null : byId.get(memory.id());
    }
}
