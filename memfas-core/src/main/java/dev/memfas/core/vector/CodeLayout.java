package dev.memfas.core.vector;

/**
 * The compact integer codes of every vector of an index that has outgrown its {@link ExactColumns}: what the
 * approximate scan reads. Two layouts, chosen once per JVM by {@link VectorKernels}: {@link Int8Tiles} with the Vector
 * API, {@link ShortCodes} without. Each owns its arrays and constants; the index owns the slots and the lock.
 *
 * <p>An approximate score is off from the exact one by quantization: {@link #errorMargin} bounds by how much, so that
 * re-scoring the few vectors that could be among the true best returns the hits of an exact scan.
 */
abstract sealed class CodeLayout permits ShortCodes, Int8Tiles {
    /** Slots per block: a scan's parts begin on a block's tile, and the rows are kept in blocks of the same size. */
    abstract int blockSize();

    /** Makes room for slots {@code [0, needed)}. */
    abstract void ensureCapacity(int needed);

    /** Writes the codes of slot {@code slot} from its unit vector. */
    abstract void encode(int slot, float[] unit);

    /** Copies slot {@code from}'s codes over slot {@code to}'s. */
    abstract void move(int from, int to);

    /** Zeroes a freed slot, so a scan of a partial block adds nothing from it. */
    abstract void clear(int slot);

    /** Whether codes of this layout are too coarse to scan with, so that every vector is scored exactly instead. */
    abstract boolean tooCoarse();

    /** Readies what every part of one scan of {@code query} reads (the query's own codes, say) in {@code scratch}. */
    abstract void prepare(float[] query, SearchScratch scratch);

    /**
     * Scans slots {@code [from, to)} into {@code top}, keeping the best approximate scores that are not below the
     * floor, and raising the floor as its own best rise.
     */
    abstract void scan(float[] query, SearchScratch scratch, int part, int from, int to, ScanFloor floor,
            TopScores top);

    /**
     * Twice how far an approximate score of the given slots may be from the exact one: a true top-k vector scores at
     * least the true {@code k}-th, and its approximate score is at most one error below its true score, while the true
     * {@code k}-th is at most one error below the approximate {@code k}-th. The error is taken as
     * {@value #ERROR_SIGMAS} standard deviations of a code's rounding (uniform within half a step) summed over the
     * dimensions.
     */
    abstract double errorMargin(int[] slots, int count, float[] query);

    /** What an exact score is multiplied by to compare with approximate ones; 0 for a zero query. */
    abstract double scanUnitsPerExactUnit(float[] query);

    /** How many standard deviations of quantization error a vector's approximate score is allowed to be off by. */
    static final int ERROR_SIGMAS = 5;
}
