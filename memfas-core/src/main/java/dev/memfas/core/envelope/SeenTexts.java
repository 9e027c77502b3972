package dev.memfas.core.envelope;

import dev.memfas.core.text.NormalizedText;
import dev.memfas.core.turn.CandidateSet;

/**
 * The texts a fill has taken so far, by a hash of their {@link NormalizedText#normalize normalized} form computed
 * without building it; a hash match is confirmed on the normalized texts, so equal hashes of different texts never drop
 * a memory. A few
 * dozen items at most: a linear scan of their hashes, in arrays kept for the next turn.
 */
final class SeenTexts {
    private long[] hashes = new long[32];
    private String[] texts = new String[32];
    private int size;

    void reset() {
        java.util.Arrays.fill(texts, 0, size, null);
        size = 0;
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
        }
        hashes[size] = candidates.textHash(c);
        texts[size] = candidates.memory(c).text();
        size++;
    }
}
