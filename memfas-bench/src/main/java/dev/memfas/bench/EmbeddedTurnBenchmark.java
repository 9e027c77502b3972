package dev.memfas.bench;

import dev.memfas.ContextCurator;
import dev.memfas.ContextRequest;
import dev.memfas.ContextResponse;
import dev.memfas.core.Memfas;
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
 * A whole turn including the query embedding with the default model (int8 BGE-small, ONNX Runtime on the CPU;
 * {@code -p model=bge-small-en-v1.5} for the full-precision one) over {@code memories} synthetic memories: what an
 * agent waits for before each model call. The memories' vectors are synthetic (see
 * {@link CurationBenchmark.Synthetic}); every query is embedded by the real model. The queries are ordinary English
 * requests of 6 to 16 words, as an agent's turns are: the synthetic sentences of random letters would split into three
 * or four word pieces per word and measure a query several times longer than real ones.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g", "-XX:+AlwaysPreTouch"})
public class EmbeddedTurnBenchmark {
    @Param({"bge-small-en-v1.5-q"})
    public String model;

    @Param({"10000"})
    public int memories;

    static final String[] QUERIES = {
        "How do I run the database migrations before deploying?",
        "What did we decide about the retry policy for the payment service?",
        "Which test framework does this project use?",
        "Remind me why we moved the cache in front of the search index.",
        "What is Ana's preferred code review process?",
        "Where are the staging credentials documented?",
        "Summarize what changed in the release last Tuesday.",
        "Why did the nightly build fail yesterday?",
        "What port does the metrics exporter listen on?",
        "How should errors from the billing API be reported to users?",
        "Which Java version do we target?",
        "What was the conclusion of the latency investigation?",
        "Who owns the authentication module?",
        "List the steps to rotate the signing keys.",
        "What naming convention do we use for feature flags?",
        "How big can an uploaded file be before we reject it?",
        "What did the user say about dark mode?",
        "When is the next planned maintenance window?",
        "Which regions is the service deployed to?",
        "How do we back up the SQLite files?",
        "What is the timeout for outgoing HTTP calls?",
        "Did we agree to drop support for the old API version?",
        "What are the known issues with the Kafka consumer?",
        "How do I reproduce the flaky integration test locally?",
        "What library do we use to parse the configuration?",
        "Why was the recommendation model rolled back?",
        "How are tenant identifiers validated?",
        "What should the agent do when the budget is exceeded?",
        "Which dashboards track error rates?",
        "What did we learn from the last incident review?",
        "How do I add a new language to the tokenizer?",
        "What are the coding style rules for comments?",
    };

    /** An assistant's reply: a short answer in prose, 108 tokens (cl100k); with code or a list, a reply runs longer. */
    static String reply(int turn) {
        return "Here is what I found for turn " + turn + ". The team wrote this down after the last review: the change "
                + "goes through the release train, the migrations run first, and the service rolls out to one region "
                + "while the on-call engineer watches the error rate and the latency on the dashboard for fifteen "
                + "minutes. If either rises past its threshold the rollout stops and the previous version comes back, "
                + "and the incident channel is told. The notes do not say who approved the last exception, so I would "
                + "ask the owner of the module before relying on it.";
    }

    private CurationBenchmark.Synthetic data;
    private DjlEmbedder embedder;
    private ContextCurator curator;
    private int next;
    private final java.util.ArrayDeque<String> chat = new java.util.ArrayDeque<>();
    private int chatTurn;

    @Setup(Level.Trial)
    public void setUp() {
        data = new CurationBenchmark.Synthetic(memories, 42);
        embedder = DjlEmbedder.builder().model(DjlEmbedder.BuiltInModel.forModelId(model)).build();
        // The query texts are not looked up: each is embedded by the model.
        java.util.Map<String, float[]> memoryVectors = new java.util.HashMap<>();
        for (int i = 0; i < data.texts.size(); i++) {
            memoryVectors.put(data.texts.get(i), data.vectors.get(i));
        }
        curator = Memfas.newBuilder()
                .embedder(new CurationBenchmark.LookupEmbedder(memoryVectors, embedder))
                .clock(Clock.fixed(Instant.parse("2026-11-22T12:00:00Z"), ZoneOffset.UTC))
                .build();
        curator.rememberAll(data.memories());
        CurationBenchmark.collectSetUpGarbage();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        curator.close();
        embedder.close();
    }

    @Benchmark
    public ContextResponse d_getContextWithQueryEmbedding() {
        int i = next;
        next = (i + 1) % QUERIES.length;
        return curator.getContext(ContextRequest.builder(QUERIES[i]).tokenBudget(4000).build());
    }

    /**
     * A turn of a chat whose caller passes its latest six messages with each request, as the LangChain4j retriever and
     * the Spring AI advisor do: the history moves on by one question and one reply a turn.
     */
    @Benchmark
    public ContextResponse f_getContextInAChat() {
        int turn = chatTurn++;
        String query = QUERIES[turn % QUERIES.length];
        ContextResponse response = curator.getContext(ContextRequest.builder(query).sessionId("chat")
                .recentHistory(java.util.List.copyOf(chat)).tokenBudget(4000).build());
        chat.addLast(query);
        chat.addLast(reply(turn));
        while (chat.size() > 6) {
            chat.removeFirst();
        }
        return response;
    }
}
