package dev.memfas.core.turn;

import dev.memfas.Layer;
import dev.memfas.Memory;
import dev.memfas.ScoreBreakdown;
import dev.memfas.core.envelope.BudgetFiller;
import dev.memfas.core.envelope.ContextEnvelope;
import dev.memfas.core.envelope.TokenCounter;
import dev.memfas.core.text.NormalizedText;
import dev.memfas.core.vector.VectorIndex;
import dev.memfas.core.vector.Vectors;
import dev.memfas.spi.StoredMemory;
import java.util.Arrays;
import java.util.List;

/**
 * The memories one turn considers, as columns: position {@code i} of every column is candidate {@code i}, in the
 * order the candidates joined. Each step of the turn writes only its own columns:
 * <ol>
 *   <li>{@link CandidateGatherer}: the memory, its cosine with the query, its BM25 score, whether a trigger linked it,
 *       and its vector as row {@code i} of {@link #matrix()} (if it has one);
 *   <li>{@link CandidateScorer}: the raw signals read once per candidate, then the normalized factors and the score;
 *   <li>{@link NeighborExpander}: more candidates, and the score a neighbor inherits;
 *   <li>{@link TokenCounter}: each candidate's token count as a whole item, and its text hash;
 *   <li>{@link BudgetFiller} reads them all.
 * </ol>
 *
 * <p>A set belongs to one turn at a time and is reused by the next ({@link TurnWorkspace}): its columns grow to the
 * largest turn seen and are never shrunk, so a turn allocates nothing for them. Not thread-safe.
 */
public final class CandidateSet {
    private static final int INITIAL_CAPACITY = 256;

    private int size;
    private int dimension;

    // The gatherer's columns.
    private StoredMemory[] stored = new StoredMemory[INITIAL_CAPACITY];
    private String[] ids = new String[INITIAL_CAPACITY];
    private float[] cosine = new float[INITIAL_CAPACITY];
    private double[] bm25 = new double[INITIAL_CAPACITY];
    private boolean[] linked = new boolean[INITIAL_CAPACITY];
    private boolean[] hasVector = new boolean[INITIAL_CAPACITY];
    /** Whether the candidate is one of the session's working memories rather than a stored one. */
    private boolean[] working = new boolean[INITIAL_CAPACITY];
    /** On gathering, the slot a vector hit had in the index (or -1); then the slot found. */
    private int[] slots = new int[INITIAL_CAPACITY];
    private float[] matrix = new float[0];

    // The scorer's columns: raw signals by factor, read once (when neighbors join, only theirs are new); then the
    // normalized factors (the neighbor step writes its own) and the score.
    private int signalsRead;
    private final double[][] signals = new double[Factor.COUNT][INITIAL_CAPACITY];
    private final double[][] factors = new double[Factor.COUNT][INITIAL_CAPACITY];
    private double[] score = new double[INITIAL_CAPACITY];

    // The token counter's columns.
    private int[] tokens = new int[INITIAL_CAPACITY];
    private long[] textHash = new long[INITIAL_CAPACITY];
    private boolean[] hasTextHash = new boolean[INITIAL_CAPACITY];
    private String[] rendered = new String[INITIAL_CAPACITY];
    /** How long ago the candidate's date was, in words, when its item says so ({@link ContextEnvelope#age}). */
    private String[] age = new String[INITIAL_CAPACITY];
    private String today;

    private final IdPositions positions = new IdPositions();
    private final DayPrior.Table days = new DayPrior.Table();

    /** Empties the set for a turn over vectors of {@code dimension} (0 without an embedder). */
    void reset(int dimension) {
        Arrays.fill(stored, 0, size, null);
        Arrays.fill(ids, 0, size, null);
        Arrays.fill(rendered, 0, size, null);
        Arrays.fill(age, 0, size, null);
        today = null;
        size = 0;
        signalsRead = 0;
        this.dimension = dimension;
        positions.clear();
    }

    public int size() {
        return size;
    }

    /** The table {@link DayPrior} reads the candidates' days into, kept for the next turn. */
    DayPrior.Table days() {
        return days;
    }

    /**
     * Adds a candidate with the gatherer's signals: its cosine (NaN if not known yet), BM25 score, whether a trigger
     * linked it, and the slot its vector had in a search (-1 if none). Its vector is gathered by
     * {@link #gatherRows}.
     */
    int add(StoredMemory memory, float cosine, double bm25, boolean linked, int slotHint) {
        int i = size;
        if (i == stored.length) {
            grow();
        }
        stored[i] = memory;
        ids[i] = memory.memory().id();
        this.cosine[i] = cosine;
        this.bm25[i] = bm25;
        this.linked[i] = linked;
        hasVector[i] = false;
        working[i] = false;
        slots[i] = slotHint;
        for (double[] column : factors) {
            column[i] = 0;
        }
        score[i] = 0;
        tokens[i] = -1;
        age[i] = null;
        hasTextHash[i] = false;
        size = i + 1;
        positions.put(ids, i);
        return i;
    }

    /**
     * Copies the vectors of candidates {@code [from, size)} from the index into their rows, and sets the cosine of
     * those that have none yet from the query ({@code query} is unit length).
     */
    void gatherRows(VectorIndex index, int from, float[] query) {
        int needed = size * dimension;
        if (matrix.length < needed) {
            matrix = Arrays.copyOf(matrix, Math.max(needed, 2 * matrix.length));
        }
        index.gather(ids, slots, hasVector, from, size, matrix);
        for (int i = from; i < size; i++) {
            if (hasVector[i] && Float.isNaN(cosine[i])) {
                cosine[i] = Vectors.dotRow(matrix, i, query);
            }
        }
    }

    /**
     * Adds memories with the signals their sources give them, as they would have had had they been found with the
     * others (those the turn may not use left out), and gathers their vectors.
     *
     * @param query the query's unit vector, or null without an embedder
     */
    void join(List<StoredMemory> memories, CandidateSources sources, InForce inForce, float[] query) {
        int first = size;
        for (StoredMemory s : memories) {
            if (!inForce.admits(s.memory())) {
                continue;
            }
            String id = s.memory().id();
            int hit = sources.hit(id);
            add(s, sources.cosine(hit), sources.bm25(id), sources.linked(id), sources.slot(hit));
        }
        if (sources.index() != null && size > first) {
            gatherRows(sources.index(), first, query);
        }
    }

    /**
     * Adds one of the session's working memories, with its own vector (or null without an embedder) and its BM25
     * score among the working memories.
     *
     * @param query the query's unit vector, or null without an embedder
     */
    void addWorking(StoredMemory memory, float[] vector, double bm25, float[] query) {
        int i = add(memory, Float.NaN, bm25, false, -1);
        working[i] = true;
        if (dimension == 0 && query != null) {
            // A namespace with nothing stored has no index: no candidate before this one has a vector.
            dimension = query.length;
        }
        if (vector != null && query != null && dimension == vector.length) {
            int needed = size * dimension;
            if (matrix.length < needed) {
                matrix = Arrays.copyOf(matrix, Math.max(needed, 2 * matrix.length));
            }
            System.arraycopy(vector, 0, matrix, i * dimension, dimension);
            hasVector[i] = true;
            cosine[i] = Vectors.dotRow(matrix, i, query);
        }
    }

    /** The layer the candidate came from. */
    public Layer layer(int i) {
        return working[i] ? Layer.WORKING : Layer.of(stored[i].memory());
    }

    /** The position of the candidate with this id, or -1. */
    int indexOf(String id) {
        return positions.get(ids, id);
    }

    StoredMemory stored(int i) {
        return stored[i];
    }

    public Memory memory(int i) {
        return stored[i].memory();
    }

    public String id(int i) {
        return ids[i];
    }

    float cosine(int i) {
        return cosine[i];
    }

    void setCosine(int i, float value) {
        cosine[i] = value;
    }

    void setBm25(int i, double value) {
        bm25[i] = value;
    }

    double bm25(int i) {
        return bm25[i];
    }

    boolean linked(int i) {
        return linked[i];
    }

    /** The candidate's row in {@link #matrix()}, or -1 if it has no vector. */
    public int row(int i) {
        return hasVector[i] ? i : -1;
    }

    /** The candidates' unit vectors, row {@code i} at {@code i * dimension()}; rows without a vector are zero. */
    public float[] matrix() {
        return matrix;
    }

    public int dimension() {
        return dimension;
    }

    /** How many candidates, from the first, have had their raw signals read. */
    int signalsRead() {
        return signalsRead;
    }

    void signalsReadUpTo(int count) {
        signalsRead = count;
    }

    /** The raw signals of one factor, before normalizing, by candidate. */
    double[] signals(Factor factor) {
        return signals[factor.ordinal()];
    }

    /** The normalized values of one factor, by candidate. */
    double[] factors(Factor factor) {
        return factors[factor.ordinal()];
    }

    public double score(int i) {
        return score[i];
    }

    public void setScore(int i, double value) {
        score[i] = value;
    }

    /** The candidate's factors as a value, for the response. */
    public ScoreBreakdown breakdown(int i) {
        return new ScoreBreakdown(factors[Factor.SEMANTIC.ordinal()][i], factors[Factor.LEXICAL.ordinal()][i],
                factors[Factor.RECENCY.ordinal()][i], factors[Factor.FREQUENCY.ordinal()][i],
                factors[Factor.TOPIC.ordinal()][i], factors[Factor.SCOPE.ordinal()][i],
                factors[Factor.PRIORITY.ordinal()][i], factors[Factor.HOT.ordinal()][i],
                factors[Factor.NEIGHBOR.ordinal()][i]);
    }

    /** The token count of the candidate as a whole envelope item, or -1 if not known. */
    public int tokens(int i) {
        return tokens[i];
    }

    public void setTokens(int i, int count) {
        tokens[i] = count;
    }

    /** The hash of the candidate's normalized text, computed once ({@link NormalizedText#hash}). */
    public long textHash(int i) {
        if (!hasTextHash[i]) {
            textHash[i] = NormalizedText.hash(memory(i).text());
            hasTextHash[i] = true;
        }
        return textHash[i];
    }

    public void setTextHash(int i, long hash) {
        textHash[i] = hash;
        hasTextHash[i] = true;
    }

    /** The day the turn is about, as the envelope writes it, if an item is dated by how long ago it was; else null. */
    public String today() {
        return today;
    }

    public void setToday(String day) {
        today = day;
    }

    /** How long ago the candidate's date was, in words, if its item says so; else null. */
    public String age(int i) {
        return age[i];
    }

    public void setAge(int i, String words) {
        age[i] = words;
    }

    /** The candidate rendered as a whole envelope item, if a step rendered it this turn; else null. */
    public String rendered(int i) {
        return rendered[i];
    }

    public void setRendered(int i, String item) {
        rendered[i] = item;
    }

    private void grow() {
        int n = 2 * stored.length;
        stored = Arrays.copyOf(stored, n);
        ids = Arrays.copyOf(ids, n);
        cosine = Arrays.copyOf(cosine, n);
        bm25 = Arrays.copyOf(bm25, n);
        linked = Arrays.copyOf(linked, n);
        hasVector = Arrays.copyOf(hasVector, n);
        working = Arrays.copyOf(working, n);
        slots = Arrays.copyOf(slots, n);
        for (int f = 0; f < Factor.COUNT; f++) {
            signals[f] = Arrays.copyOf(signals[f], n);
            factors[f] = Arrays.copyOf(factors[f], n);
        }
        score = Arrays.copyOf(score, n);
        tokens = Arrays.copyOf(tokens, n);
        textHash = Arrays.copyOf(textHash, n);
        hasTextHash = Arrays.copyOf(hasTextHash, n);
        rendered = Arrays.copyOf(rendered, n);
        age = Arrays.copyOf(age, n);
    }
}
