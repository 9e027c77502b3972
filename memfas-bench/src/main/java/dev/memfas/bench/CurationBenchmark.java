package dev.memfas.bench;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.store.embedding.EmbeddingSearchRequest;
import dev.langchain4j.store.embedding.EmbeddingSearchResult;
import dev.langchain4j.store.embedding.inmemory.InMemoryEmbeddingStore;
import dev.memfas.ContextCurator;
import dev.memfas.ContextRequest;
import dev.memfas.ContextResponse;
import dev.memfas.Conversation;
import dev.memfas.spi.Embedder;
import dev.memfas.Memory;
import dev.memfas.core.Memfas;
import dev.memfas.core.vector.Hits;
import dev.memfas.core.vector.ScanThreads;
import dev.memfas.core.vector.VectorIndex;
import dev.memfas.core.vector.Vectors;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One query against {@code memories} memories of 384 dimensions, five ways, in one run so their ratios hold:
 *
 * <ul>
 *   <li>{@code a_bandwidthCeiling}: a plain sum of the same float bytes, as columns in blocks of the 16-bit scan's
 *       size, split across the same threads as the scan: the memory-bandwidth limit for anything that reads the floats. The scan
 *       reads compact codes instead (int8 with the Vector API, 16-bit without), so it can run below it.</li>
 *   <li>{@code b_scan}: the index's candidate scan (the 100 nearest), as a turn runs it.</li>
 *   <li>{@code c_getContext}: a whole turn without the query embedding: scan, BM25, scoring, selection, a 4000-token
 *       fill and the envelope (the query's vector is looked up, not computed).</li>
 *   <li>{@code e_peerSearch}: LangChain4j's {@code InMemoryEmbeddingStore.search} for the 64 nearest of the same
 *       vectors.</li>
 * </ul>
 *
 * The turn including the query embedding with the default model is {@link EmbeddedTurnBenchmark}. Memories are
 * synthetic: sentences over a 5,000-word vocabulary and unit vectors drawn around 1,000 topic centres, so nearest
 * neighbours are neither all alike nor all random. {@link dev.memfas.bench.SpeedSuite} runs both classes and prints
 * the ratios.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 4, time = 2)
@Measurement(iterations = 4, time = 2)
// The heap is touched at start-up: otherwise eden's pages are first touched while measuring, and a turn over 1,000
// memories on JDK 17 read 0.95 to 2.2 ms instead of 0.40 (the kernel zeroes every new page).
@Fork(value = 1, jvmArgsAppend = {"-Xms12g", "-Xmx12g", "-XX:+AlwaysPreTouch"})
public class CurationBenchmark {
    static final int DIMENSION = 384;
    static final int QUERIES = 32;

    /** The size and the synthetic data; each benchmark's own state below builds only what it measures. */
    @State(Scope.Benchmark)
    public static class Data {
        @Param({"1000", "10000", "100000", "1000000"})
        public int memories;

        Synthetic synthetic;
        private int next;

        @Setup(Level.Trial)
        public void setUp() {
            synthetic = new Synthetic(memories, 42);
        }

        int nextQuery() {
            int i = next;
            next = (i + 1) % QUERIES;
            return i;
        }
    }

    /** (a) and (b): the index under test and a copy of its floats in the same layout. */
    @State(Scope.Benchmark)
    public static class Scan {
        VectorIndex index;
        float[][][] copy;

        @Setup(Level.Trial)
        public void setUp(Data data) {
            index = new VectorIndex(DIMENSION);
            index.putAll(data.synthetic.ids, data.synthetic.vectors);
            copy = sameLayoutCopy(data.synthetic.vectors);
            data.synthetic.dropMemoryVectors();
            collectSetUpGarbage();
        }
    }

    /** (c): a curator with the default in-memory store. */
    @State(Scope.Benchmark)
    public static class Turn {
        ContextCurator curator;

        @Setup(Level.Trial)
        public void setUp(Data data) {
            curator = Memfas.newBuilder()
                    .embedder(new LookupEmbedder(data.synthetic.vectorByText(), null))
                    .clock(Clock.fixed(Instant.parse("2026-11-22T12:00:00Z"), ZoneOffset.UTC))
                    .build();
            List<Memory> all = data.synthetic.memories();
            for (int from = 0; from < all.size(); from += 10_000) {
                curator.rememberAll(all.subList(from, Math.min(all.size(), from + 10_000)));
            }
            data.synthetic.dropMemoryVectors();
            collectSetUpGarbage();
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            curator.close();
        }
    }

    /** (e): LangChain4j's in-memory store holding the same vectors. */
    @State(Scope.Benchmark)
    public static class Peer {
        InMemoryEmbeddingStore<TextSegment> store;
        Embedding[] queries;

        @Setup(Level.Trial)
        public void setUp(Data data) {
            store = new InMemoryEmbeddingStore<>();
            List<Embedding> embeddings = new ArrayList<>(data.memories);
            for (float[] v : data.synthetic.vectors) {
                embeddings.add(Embedding.from(v));
            }
            store.addAll(embeddings);
            queries = new Embedding[QUERIES];
            for (int i = 0; i < QUERIES; i++) {
                queries[i] = Embedding.from(data.synthetic.queryVectors[i]);
            }
            data.synthetic.dropMemoryVectors();
            collectSetUpGarbage();
        }
    }

    @Benchmark
    public float a_bandwidthCeiling(Data data, Scan scan) {
        float[][][] blocks = scan.copy;
        int n = data.memories;
        int parts = VectorIndex.parts(n, ScanThreads.PROCESSORS);
        float[] sums = new float[parts];
        ScanThreads.run(parts, part -> {
            int from = ScanThreads.start(n, part, parts);
            int to = ScanThreads.start(n, part + 1, parts);
            float[] acc = new float[VectorIndex.BLOCK];
            int usedLo = VectorIndex.BLOCK;
            int usedHi = 0;
            for (int b = from / VectorIndex.BLOCK; b * VectorIndex.BLOCK < to; b++) {
                int base = b * VectorIndex.BLOCK;
                int lo = Math.max(from, base) - base;
                int hi = Math.min(to, base + VectorIndex.BLOCK) - base;
                for (float[] column : blocks[b]) {
                    for (int j = lo; j < hi; j++) {
                        acc[j] += column[j];
                    }
                }
                usedLo = Math.min(usedLo, lo);
                usedHi = Math.max(usedHi, hi);
            }
            float s = 0;
            for (int j = usedLo; j < usedHi; j++) {
                s += acc[j];
            }
            sums[part] = s;
        });
        float total = 0;
        for (float s : sums) {
            total += s;
        }
        return total;
    }

    @Benchmark
    public Hits b_scan(Data data, Scan scan) {
        return scan.index.search(data.synthetic.queryVectors[data.nextQuery()], 100, ScanThreads.PROCESSORS);
    }

    @Benchmark
    public ContextResponse c_getContext(Data data, Turn turn) {
        return turn.curator.getContext(ContextRequest.builder(data.synthetic.queryTexts[data.nextQuery()])
                .tokenBudget(4000).build());
    }

    @Benchmark
    public EmbeddingSearchResult<TextSegment> e_peerSearch(Data data, Peer peer) {
        return peer.store.search(EmbeddingSearchRequest.builder().queryEmbedding(peer.queries[data.nextQuery()])
                .maxResults(64).build());
    }

    /**
     * Collects what building the state left behind (gigabytes at 1M), so that the first iterations do not pay for it
     * and the warm-up reaches the steady state a long-running agent sees.
     */
    static void collectSetUpGarbage() {
        System.gc();
    }

    /**
     * The same vectors, normalized, as float columns in blocks of the index's size: what a scan of the floats would
     * read, with no slot more.
     */
    static float[][][] sameLayoutCopy(List<float[]> vectors) {
        int n = vectors.size();
        float[][][] blocks = new float[(n + VectorIndex.BLOCK - 1) / VectorIndex.BLOCK][][];
        for (int b = 0; b < blocks.length; b++) {
            blocks[b] = new float[DIMENSION][Math.min(VectorIndex.BLOCK, n - b * VectorIndex.BLOCK)];
        }
        for (int i = 0; i < n; i++) {
            float[] v = Vectors.normalizedCopy(vectors.get(i), DIMENSION);
            for (int d = 0; d < DIMENSION; d++) {
                blocks[i / VectorIndex.BLOCK][d][i % VectorIndex.BLOCK] = v[d];
            }
        }
        return blocks;
    }

    /** Synthetic memories: texts, ids, unit vectors around topic centres, and queries of both kinds. */
    static final class Synthetic {
        final List<String> ids = new ArrayList<>();
        final List<String> texts = new ArrayList<>();
        final List<float[]> vectors = new ArrayList<>();
        final String[] queryTexts = new String[QUERIES];
        final float[][] queryVectors = new float[QUERIES][];
        private final Map<String, float[]> vectorByText = new HashMap<>();

        Synthetic(int n, long seed) {
            Random random = new Random(seed);
            String[] words = new String[5000];
            for (int w = 0; w < words.length; w++) {
                words[w] = word(random);
            }
            float[][] centres = new float[1000][];
            for (int c = 0; c < centres.length; c++) {
                centres[c] = gaussian(random, 1f);
            }
            for (int i = 0; i < n; i++) {
                ids.add("m" + i);
                String text = sentence(random, words, i);
                texts.add(text);
                float[] v = around(random, centres[random.nextInt(centres.length)]);
                vectors.add(v);
                vectorByText.put(text, v);
            }
            for (int q = 0; q < QUERIES; q++) {
                queryTexts[q] = "query " + q + ": " + sentence(random, words, -1);
                queryVectors[q] = Vectors.normalizedCopy(around(random, centres[random.nextInt(centres.length)]),
                        DIMENSION);
                vectorByText.put(queryTexts[q], queryVectors[q]);
            }
        }

        /** Live: the embedder given it keeps seeing what is dropped later. */
        Map<String, float[]> vectorByText() {
            return vectorByText;
        }

        /** Keeps only the queries' vectors (what is measured holds its own copies). */
        void dropMemoryVectors() {
            texts.forEach(vectorByText::remove);
            vectors.clear();
            texts.clear();
        }

        /**
         * The memories as turns of conversations of 50 turns, one a minute, each conversation its source: so a turn's
         * best matches bring their neighbors, as they would in use.
         */
        List<Memory> memories() {
            List<Memory> out = new ArrayList<>(ids.size());
            Instant start = Instant.parse("2026-01-01T00:00:00Z");
            for (int i = 0; i < ids.size(); i++) {
                out.add(Memory.builder(texts.get(i)).id(ids.get(i)).source("conversation-" + i / 50)
                        .kind(Conversation.TURN_KIND).createdAt(start.plusSeconds(i * 60L)).build());
            }
            return out;
        }

        private static String sentence(Random random, String[] words, int i) {
            StringBuilder sb = new StringBuilder();
            int length = 12 + random.nextInt(12);
            for (int k = 0; k < length; k++) {
                // Skewed towards the first words, as natural text is.
                int w = (int) (words.length * Math.pow(random.nextDouble(), 1.5));
                sb.append(k == 0 ? "" : " ").append(words[w]);
            }
            return i >= 0 ? sb.append(" (").append(i).append(')').toString() : sb.toString();
        }

        private static String word(Random random) {
            char[] c = new char[3 + random.nextInt(7)];
            for (int k = 0; k < c.length; k++) {
                c[k] = (char) ('a' + random.nextInt(26));
            }
            return new String(c);
        }

        private static float[] gaussian(Random random, float scale) {
            float[] v = new float[DIMENSION];
            for (int d = 0; d < DIMENSION; d++) {
                v[d] = (float) random.nextGaussian() * scale;
            }
            return v;
        }

        private static float[] around(Random random, float[] centre) {
            float[] v = gaussian(random, 0.8f);
            for (int d = 0; d < DIMENSION; d++) {
                v[d] += centre[d];
            }
            return v;
        }
    }

    /** Returns known vectors for known texts and hands every other text to a real embedder (or refuses it). */
    static final class LookupEmbedder implements Embedder {
        private final Map<String, float[]> known;
        private final Embedder live;

        LookupEmbedder(Map<String, float[]> known, Embedder live) {
            this.known = known;
            this.live = live;
        }

        @Override
        public List<float[]> embedAll(List<String> texts) {
            List<float[]> out = new ArrayList<>(texts.size());
            for (String t : texts) {
                float[] v = known.get(t);
                if (v == null) {
                    if (live == null) {
                        throw new IllegalStateException("no vector for text: " + t);
                    }
                    v = live.embed(t);
                }
                out.add(v);
            }
            return out;
        }

        @Override
        public int dimension() {
            return live == null ? DIMENSION : live.dimension();
        }

        @Override
        public String modelId() {
            return live == null ? "synthetic-384" : live.modelId();
        }
    }
}
