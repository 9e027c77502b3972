package dev.memfas.bench;

import dev.memfas.core.vector.VectorIndex;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * How much memory the vector index takes for N random 384-dim vectors: heap (measured after full collections) and
 * direct buffers, per layout. Run it with the flags the index will run with:
 *
 * <pre>{@code
 * java -Xmx4g -cp memfas-bench/target/benchmarks.jar dev.memfas.bench.IndexFootprint 1000000
 * java -Xmx4g --add-modules jdk.incubator.vector -cp ... dev.memfas.bench.IndexFootprint 1000000
 * }</pre>
 */
public final class IndexFootprint {
    private static final int DIMENSION = CurationBenchmark.DIMENSION;

    private IndexFootprint() {}

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0].replace("_", "")) : 1_000_000;
        long heapBefore = usedHeap();
        long directBefore = direct();
        VectorIndex index = new VectorIndex(DIMENSION);
        Random random = new Random(1);
        List<String> ids = new ArrayList<>();
        List<float[]> vectors = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            float[] v = new float[DIMENSION];
            for (int d = 0; d < DIMENSION; d++) {
                v[d] = (float) random.nextGaussian();
            }
            ids.add("m" + i);
            vectors.add(v);
            if (vectors.size() == 4096 || i == n - 1) {
                index.putAll(ids, vectors);
                ids.clear();
                vectors.clear();
            }
        }
        long heap = usedHeap() - heapBefore;
        long directBytes = direct() - directBefore;
        System.out.printf(Locale.ROOT, "%,d vectors of %d dims, %s: heap %.3f GB (%.0f bytes per vector, ids and"
                        + " their map included), direct %.3f GB%n", index.size(), DIMENSION,
                VectorIndex.scanKind(), heap / 1e9,
                (double) heap / n, directBytes / 1e9);
    }

    private static long usedHeap() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private static long direct() {
        long total = 0;
        for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
            if (pool.getName().equals("direct")) {
                total += pool.getMemoryUsed();
            }
        }
        return total;
    }
}
