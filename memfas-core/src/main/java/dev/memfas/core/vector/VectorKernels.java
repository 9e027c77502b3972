package dev.memfas.core.vector;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chooses, once per JVM, how the vector index scans: int8 codes with the Vector API when the
 * {@code jdk.incubator.vector} module is present (Java 21+, started with {@code --add-modules jdk.incubator.vector}),
 * else 16-bit codes in a plain loop the JIT auto-vectorizes. Setting the system property
 * {@code memfas.vectorApi=false} keeps the plain loop.
 */
final class VectorKernels {
    private static final Logger LOG = LoggerFactory.getLogger(VectorKernels.class);
    private static final String PANAMA_CLASS = "dev.memfas.core.vector.PanamaInt8Kernel";

    /** The int8 scan of the Vector API, or null when the 16-bit scan is used. */
    static final Int8Kernel INT8 = choose();

    private VectorKernels() {}

    /**
     * How many slots share a tile of int8 codes: a block's codes are one {@code byte[INT8_BLOCK * dimension]} in which
     * the code of slot {@code j}, dimension {@code d} is at {@code (j / TILE) * TILE * dimension + d * TILE + j % TILE}.
     */
    static final int TILE = 64;

    /** Scores the int8 codes of one block of vectors against a float query. */
    interface Int8Kernel {
        /**
         * Sets {@code acc[j] = Σ_d query[d] * code(j, d)} for every slot of the tiles holding slots {@code [from, to)}
         * ({@code from} is a multiple of {@link #TILE}; {@code to} is rounded up to one), leaving the rest of
         * {@code acc} alone.
         */
        void score(byte[] codes, float[] query, float[] acc, int from, int to);

        /** {@code Σ_i x[xOffset + i] * y[yOffset + i]} for {@code i < length}. */
        float dot(float[] x, int xOffset, float[] y, int yOffset, int length);
    }

    private static Int8Kernel choose() {
        if (!Boolean.parseBoolean(System.getProperty("memfas.vectorApi", "true"))) {
            return null;
        }
        if (Runtime.version().feature() < 21 || ModuleLayer.boot().findModule("jdk.incubator.vector").isEmpty()) {
            return null;
        }
        try {
            Int8Kernel kernel = loadPanama();
            LOG.debug("vector scan: {}", kernel);
            return kernel;
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            LOG.info("the Vector API is present but not used ({}); scanning 16-bit codes", e.toString());
            return null;
        }
    }

    /** Loads the Vector API kernel whatever the Java version; the caller decides whether to use it. */
    static Int8Kernel loadPanama() throws ReflectiveOperationException {
        try {
            return (Int8Kernel) Class.forName(PANAMA_CLASS).getDeclaredConstructor().newInstance();
        } catch (java.lang.reflect.InvocationTargetException e) {
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            throw e;
        }
    }
}
