package dev.memfas.core.envelope;

import dev.memfas.Conversation;
import dev.memfas.core.text.NormalizedText;
import dev.memfas.core.turn.CandidateSet;

/**
 * The texts a fill has taken so far, by a hash of their {@link NormalizedText#normalize normalized} form computed
 * without building it; a hash match is confirmed on the normalized texts, so equal hashes of different texts never drop
 * a memory. A few dozen items at most: a linear scan of their hashes, in arrays kept for the next turn. And their ids,
 * so that a fact taken from a conversation whose turns are all in says nothing the context does not
 * ({@link #holdsTurnsOf}).
 */
final class SeenTexts {
    private long[] hashes = new long[32];
    private String[] texts = new String[32];
    private String[] ids = new String[32];
    private int size;

    void reset() {
        java.util.Arrays.fill(texts, 0, size, null);
        java.util.Arrays.fill(ids, 0, size, null);
        size = 0;
    }

    /**
     * Whether the memory is a fact taken from a conversation ({@link Conversation#FROM_TURNS_KEY}) whose every turn is
     * taken already: what it says, they say.
     */
    boolean holdsTurnsOf(CandidateSet candidates, int c) {
        String from = candidates.memory(c).metadata().get(Conversation.FROM_TURNS_KEY);
        if (from == null || from.isEmpty()) {
            return false;
        }
        int start = 0;
        while (start <= from.length()) {
            int comma = from.indexOf(',', start);
            int end = comma < 0 ? from.length() : comma;
            if (!holdsId(from, start, end)) {
                return false;
            }
            start = end + 1;
        }
        return true;
    }

    private boolean holdsId(String list, int start, int end) {
        for (int i = 0; i < size; i++) {
            if (ids[i].length() == end - start && list.startsWith(ids[i], start)) {
                return true;
            }
        }
        return false;
    }

    boolean contains(CandidateSet candidates, int c) {
        long hash = candidates.textHash(c);
        String normalized = null;
        for (int i = 0; i < size; i++) {
            if (hashes[i] == hash) {
                if (normalized == null) {
                    normalized = NormalizedText.normalize(candidates.memory(c).text());
                }
                if (NormalizedText.normalize(texts[i]).equals(normalized)) {
                    return true;
                }
            }
        }
        return false;
    }

    void add(CandidateSet candidates, int c) {
        if (size == hashes.length) {
            hashes = java.util.Arrays.copyOf(hashes, 2 * size);
            texts = java.util.Arrays.copyOf(texts, 2 * size);
            ids = java.util.Arrays.copyOf(ids, 2 * size);
        }
        hashes[size] = candidates.textHash(c);
        texts[size] = candidates.memory(c).text();
        ids[size] = candidates.id(c);
        size++;
    }
}
