package dev.memfas.core.vector;

/**
 * The result of a search: memory ids and their cosine similarities with the query, best first, and the slots the ids
 * had then (a hint for {@link VectorIndex#gather}).
 */
public record Hits(String[] ids, float[] scores, int[] slots) {
    /** No hits. */
    public static final Hits EMPTY = new Hits(new String[0], new float[0], new int[0]);

    /** How many hits there are. */
    public int size() {
        return ids.length;
    }
}
