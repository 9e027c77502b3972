package dev.memfas.spi;

import dev.memfas.MemfasException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The vectors that go with a batch of memories in {@link MemoryStore#upsertAll(List, Embeddings)}: either none, or one
 * vector per memory, in the same order, all of one {@link VectorSpace}.
 *
 * <p>Construction checks every vector: the right dimension and only finite components. The arrays are copied, so the
 * caller may reuse its own. Immutable (the accessor returns the internal arrays: do not modify them).
 */
public final class Embeddings {
    private static final Embeddings NONE = new Embeddings(null, List.of());

    private final VectorSpace space;
    private final List<float[]> vectors;

    private Embeddings(VectorSpace space, List<float[]> vectors) {
        this.space = space;
        this.vectors = vectors;
    }

    /** No vectors: the memories are stored without embeddings (and lose any vectors they had). */
    public static Embeddings none() {
        return NONE;
    }

    /**
     * One vector per memory, all of the given space.
     *
     * @throws IllegalArgumentException if a vector's length is not the space's dimension, or a component is NaN or
     *     infinite (the message names the vector's index)
     */
    public static Embeddings of(VectorSpace space, List<float[]> vectors) {
        Objects.requireNonNull(space, "space");
        Objects.requireNonNull(vectors, "vectors");
        List<float[]> copy = new ArrayList<>(vectors.size());
        for (int i = 0; i < vectors.size(); i++) {
            float[] v = Objects.requireNonNull(vectors.get(i), "vector " + i);
            checkVector(v, space.dimension(), "vector " + i);
            copy.add(v.clone());
        }
        return new Embeddings(space, List.copyOf(copy));
    }

    /**
     * Runs {@code embedder.embedAll(texts)} and checks what it returns: one vector per text, each of the embedder's
     * dimension with only finite components. The one check every caller of an embedder makes, so that a misbehaving
     * model is reported the same way wherever it is called.
     *
     * @param what names the texts in the message, e.g. {@code "the query"} or {@code "memory 'a'"}
     * @return the vectors, as the embedder returned them
     * @throws MemfasException if the embedder throws, or returns the wrong number of vectors or an unusable one
     */
    public static List<float[]> embed(Embedder embedder, List<String> texts, String what) {
        return checked(embedder, texts, what, false);
    }

    /**
     * Runs {@code embedder.embedQueries(texts)}, what a turn or a search looks for, and checks what it returns as
     * {@link #embed} does.
     *
     * @param what names the texts in the message, e.g. {@code "the query"}
     * @return the vectors, as the embedder returned them
     * @throws MemfasException if the embedder throws, or returns the wrong number of vectors or an unusable one
     */
    public static List<float[]> embedQueries(Embedder embedder, List<String> texts, String what) {
        return checked(embedder, texts, what, true);
    }

    private static List<float[]> checked(Embedder embedder, List<String> texts, String what, boolean queries) {
        String model = embedder.modelId();
        List<float[]> vectors;
        try {
            vectors = queries ? embedder.embedQueries(texts) : embedder.embedAll(texts);
        } catch (MemfasException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new MemfasException("embedder '" + model + "' failed on " + what + ": " + e, e);
        }
        if (vectors == null || vectors.size() != texts.size()) {
            throw new MemfasException("embedder '" + model + "' returned "
                    + (vectors == null ? "null" : vectors.size() + " vectors") + " for " + texts.size() + " texts");
        }
        for (int i = 0; i < vectors.size(); i++) {
            float[] v = vectors.get(i);
            try {
                checkVector(Objects.requireNonNull(v, "vector"), embedder.dimension(), "vector " + i);
            } catch (IllegalArgumentException | NullPointerException e) {
                throw new MemfasException("embedder '" + model + "' returned an unusable vector for " + what
                        + (texts.size() > 1 ? " (batch item " + i + ")" : "") + ": " + e.getMessage(), e);
            }
        }
        return vectors;
    }

    /**
     * Checks a vector has the expected dimension and only finite components.
     *
     * @param what names the vector in the message, e.g. {@code "vector 3"} or {@code "embedding of memory 'a'"}
     * @throws IllegalArgumentException if not
     */
    public static void checkVector(float[] vector, int dimension, String what) {
        if (vector.length != dimension) {
            throw new IllegalArgumentException(
                    "vector dimensions differ: " + vector.length + " != " + dimension + " (" + what + ")");
        }
        for (int d = 0; d < vector.length; d++) {
            if (!Float.isFinite(vector[d])) {
                throw new IllegalArgumentException(
                        what + " has a non-finite component at index " + d + ": " + vector[d]);
            }
        }
    }

    /** Whether there are no vectors. */
    public boolean isEmpty() {
        return vectors.isEmpty();
    }

    /** How many vectors there are. */
    public int size() {
        return vectors.size();
    }

    /**
     * The space of the vectors.
     *
     * @throws IllegalStateException if there are none
     */
    public VectorSpace space() {
        if (space == null) {
            throw new IllegalStateException("no vectors, so no vector space");
        }
        return space;
    }

    /** The vector at the given index. Do not modify the returned array. */
    public float[] vector(int index) {
        return vectors.get(index);
    }
}
