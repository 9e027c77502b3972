package dev.memfas.core;

import dev.memfas.ContextCurator;
import dev.memfas.ContextRequest;
import dev.memfas.ContextResponse;
import dev.memfas.djl.DjlEmbedder;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
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
 * A whole turn including the query embedding with the default model (BGE-small, ONNX Runtime on the CPU) over
 * {@code memories} synthetic memories: what an agent waits for before each model call. The memories' vectors are
 * synthetic (see {@link CurationBenchmark.Synthetic}); every query is embedded by the real model.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class EmbeddedTurnBenchmark {
    @Param({"10000"})
    public int memories;

    private CurationBenchmark.Synthetic data;
    private DjlEmbedder model;
    private ContextCurator curator;
    private int next;

    @Setup(Level.Trial)
    public void setUp() {
        data = new CurationBenchmark.Synthetic(memories, 42);
        model = DjlEmbedder.builder().build();
        // The query texts are not looked up: each is embedded by the model.
        java.util.Map<String, float[]> memoryVectors = new java.util.HashMap<>();
        for (int i = 0; i < data.texts.size(); i++) {
            memoryVectors.put(data.texts.get(i), data.vectors.get(i));
        }
        curator = Memfas.newBuilder()
                .embedder(new CurationBenchmark.LookupEmbedder(memoryVectors, model))
                .clock(Clock.fixed(Instant.parse("2026-11-22T12:00:00Z"), ZoneOffset.UTC))
                .build();
        curator.rememberAll(data.memories());
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        curator.close();
        model.close();
    }

    @Benchmark
    public ContextResponse d_getContextWithQueryEmbedding() {
        int i = next;
        next = (i + 1) % CurationBenchmark.QUERIES;
        return curator.getContext(ContextRequest.builder(data.queryTexts[i]).tokenBudget(4000).build());
    }
}
