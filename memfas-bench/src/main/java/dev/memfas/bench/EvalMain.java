package dev.memfas.bench;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.bgesmallenv15q.BgeSmallEnV15QuantizedEmbeddingModel;
import dev.memfas.ContextCurator;
import dev.memfas.ContextRequest;
import dev.memfas.ContextResponse;
import dev.memfas.Memory;
import dev.memfas.RecallRequest;
import dev.memfas.ScoringWeights;
import dev.memfas.core.Memfas;
import dev.memfas.djl.DjlEmbedder;
import dev.memfas.postgres.PostgresMemoryStore;
import dev.memfas.sqlite.SqliteMemoryStore;
import dev.memfas.upkeep.SummarizeRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Retrieval quality on conversations in the LoCoMo layout ({@code <split>/<conv>/memories.jsonl} and
 * {@code queries.jsonl}): for every question and budget, the share of the question's evidence turns that the curated
 * context includes. Runs memfas with its defaults through the public API (a SQLite store in a temporary file, the
 * default embedder) and, in the same run, the peers a developer would otherwise build ({@link RrfHybrid}: LangChain4j's
 * dense search, and that fused with BM25 by reciprocal rank) and two baselines: BM25 alone and the most recent turns.
 * Besides evidence recall it measures, for every system, the sessions its ranking finds (an evidence session among the
 * first 5 and 10 distinct sessions) and, with general questions no conversation answers, how much of the budget a
 * system fills when nothing is relevant.
 *
 * <pre>
 * java -cp memfas-bench/target/benchmarks.jar dev.memfas.bench.EvalMain DATA_DIR [--out DIR]
 *     [--budgets 512,1024,2048,4096] [--model bge-small-en-v1.5-q|bge-small-en-v1.5|all-minilm-l6-v2|none]
 *     [--peers rrf|none] [--cache DIR] [--variant NAME=semantic:0.6,recency:0,candidates:200 ...]
 *     [--history none|previous|follow-up|follow-up-previous|pronoun|follow-up-session|pronoun-session]
 * </pre>
 *
 * Writes {@code eval.json}, {@code eval.md}, {@code misses.jsonl} (every answerable question a system at a budget
 * did not find all the evidence of, and the evidence it missed) and {@code filled.jsonl} (the items of every filled
 * context, with their scores) to the output directory (default {@code target/eval})
 * and prints the
 * tables.
 */
public final class EvalMain {
    private static final Encoding TOKENS = Encodings.newDefaultEncodingRegistry().getEncoding(EncodingType.CL100K_BASE);
    static final List<String> BASELINES = List.of("bm25", "recent");
    /** The defaults asked to fill the budget ({@code ContextRequest.Builder#fillBudget}). */
    static final String FILLED = "filled";
    private static final List<String> PEERS = List.of("rrf", "dense");
    /** The peer's model, as LangChain4j names its artifact: the same int8 BGE-small as memfas's default. */
    private static final String PEER_MODEL = "bge-small-en-v15-q";
    /** How many ranked turns are read for the sessions they come from. */
    private static final int SESSION_DEPTH = 100;
    /** How many turns memfas curates, unmeasured, before the measured run (see {@link #run(Path, Options)}). */
    private static final int WARM_UP_TURNS = 1_000;

    private EvalMain() {}


    /**
     * One question answered by one system at one budget: the share of its evidence in the context (0 for a general
     * question), whether all of it is, the tokens the context used, and the share of the answer's words the context
     * shows (null when the evidence writes out none of them, {@link ShownAnswer}).
     */
    record Outcome(String system, int budget, String category, boolean answerable, double recall, boolean all,
            int tokens, double millis, String question, List<String> missing, Double shown) {}

    /** Whether an evidence session of a question is among the first 5 and the first 10 sessions a system ranks. */
    record SessionOutcome(String system, String category, boolean at5, boolean at10) {}

    /**
     * What a run measured; {@code filledItems} has a JSON line per filled context of an answerable question: its
     * items in context order, each with its score, tokens and whether it is evidence, for trying where relevance
     * could end without running again.
     */
    record Results(List<Outcome> outcomes, List<SessionOutcome> sessions, List<String> filledItems) {
        Results() {
            this(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        }
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 0 || args[0].startsWith("--")) {
            System.err.println("usage: EvalMain DATA_DIR [--out DIR] [--budgets 512,1024,2048,4096] [--model M]"
                    + " [--peers rrf|none] [--cache DIR] [--variant NAME=key:value,...] [--postgres URL|embedded]"
                    + " [--history none|previous|follow-up|follow-up-previous|pronoun|follow-up-session"
                    + "|pronoun-session]");
            System.exit(1);
        }
        Path data = Path.of(args[0]);
        Path out = Path.of("target/eval");
        int[] budgets = {512, 1024, 2048, 4096};
        String model = DjlEmbedder.DEFAULT_MODEL.modelId();
        boolean peers = true;
        Path cache = null;
        List<EvalVariant> variants = new ArrayList<>();
        String postgres = null;
        EvalHistory history = EvalHistory.NONE;
        for (int i = 1; i < args.length; i += 2) {
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("missing value after " + args[i]);
            }
            String value = args[i + 1];
            switch (args[i]) {
                case "--out" -> out = Path.of(value);
                case "--budgets" -> budgets = Arrays.stream(value.split(",")).mapToInt(Integer::parseInt).toArray();
                case "--model" -> model = value;
                case "--peers" -> peers = switch (value) {
                    case "rrf" -> true;
                    case "none" -> false;
                    default -> throw new IllegalArgumentException("--peers is rrf or none: '" + value + "'");
                };
                case "--cache" -> cache = Path.of(value);
                case "--variant" -> variants.add(EvalVariant.parse(value));
                case "--postgres" -> postgres = value;
                case "--history" -> history = EvalHistory.parse(value);
                default -> throw new IllegalArgumentException("unknown option: " + args[i]);
            }
        }
        System.out.println(run(data, new Options(out, budgets, model, peers, cache, variants, postgres,
                history)));
    }

    /**
     * How a run is made: where it writes, the budgets, the memfas model, whether the peers run, where embeddings are
     * cached between runs (null: nowhere), the variants, the PostgreSQL server (null: none) and what the questions are
     * asked with.
     */
    record Options(Path out, int[] budgets, String model, boolean peers, Path cache, List<EvalVariant> variants,
            String postgres, EvalHistory history) {
        /** Checks the budgets are positive and the variants' names distinct. */
        Options {
            for (int budget : budgets) {
                if (budget < 1) {
                    throw new IllegalArgumentException("a budget must be positive: " + budget);
                }
            }
            Set<String> names = new HashSet<>();
            for (EvalVariant v : variants) {
                if (!names.add(v.name())) {
                    throw new IllegalArgumentException("two variants are named '" + v.name() + "'");
                }
            }
            variants = List.copyOf(variants);
        }
    }

    private static long curated(Results results) {
        return results.outcomes().stream().filter(o -> o.system().equals("memfas")).count();
    }

    /** Runs the evaluation with the peers and no cache; writes eval.json and eval.md to {@code out}. */
    static String run(Path data, Path out, int[] budgets, String model, List<EvalVariant> variants)
            throws IOException {
        return run(data, new Options(out, budgets, model, true, null, variants, null, EvalHistory.NONE));
    }

    /** Runs the evaluation and writes eval.json and eval.md to the options' directory; returns the Markdown. */
    static String run(Path data, Options options) throws IOException {
        List<Path> conversations;
        try (Stream<Path> dirs = Files.walk(data)) {
            conversations = dirs.filter(d -> Files.isRegularFile(d.resolve("memories.jsonl"))
                    && Files.isRegularFile(d.resolve("queries.jsonl"))).sorted().toList();
        }
        if (conversations.isEmpty()) {
            throw new IllegalArgumentException("no conversations (memories.jsonl + queries.jsonl) under " + data);
        }
        Results results = new Results();
        String model = options.model();
        DjlEmbedder embedder = model.equals("none") ? null
                : DjlEmbedder.builder().model(DjlEmbedder.BuiltInModel.forModelId(model)).build();
        EmbeddingModel peerModel = options.peers() ? new BgeSmallEnV15QuantizedEmbeddingModel() : null;
        try {
            VectorCache memfasVectors = embedder == null ? null : VectorCache.open(options.cache(), model);
            VectorCache peerVectors = peerModel == null ? null
                    : VectorCache.open(options.cache(), "langchain4j-" + PEER_MODEL);
            // The first conversations run once unmeasured until memfas has curated WARM_UP_TURNS turns, so latency is
            // that of a warmed JVM, as in a running agent: cold, the first turns of the first six LongMemEval
            // haystacks took 20-56 ms while the JIT compiled (later ones at most 14 ms), and with 59 questions a
            // budget's p95 is its third-slowest turn.
            Results warmUp = new Results();
            for (int i = 0; i < conversations.size() && curated(warmUp) < WARM_UP_TURNS; i++) {
                evaluate(EvalData.load(conversations.get(i)), options, embedder, memfasVectors, peerModel,
                        peerVectors, warmUp);
            }
            for (Path conv : conversations) {
                evaluate(EvalData.load(conv), options, embedder, memfasVectors, peerModel, peerVectors, results);
            }
        } finally {
            if (embedder != null) {
                embedder.close();
            }
        }
        Path out = options.out();
        Files.createDirectories(out);
        List<String> systems = new ArrayList<>(List.of("memfas", FILLED));
        options.variants().forEach(v -> systems.add(v.name()));
        if (options.postgres() != null) {
            systems.add("memfas-pg");
        }
        if (options.peers()) {
            systems.addAll(PEERS);
        }
        systems.addAll(BASELINES);
        EvalReport report = new EvalReport(results, systems, options.budgets(), model, conversations.size(),
                options.history());
        String md = report.markdown();
        Files.writeString(out.resolve("eval.md"), md);
        Files.writeString(out.resolve("eval.json"), report.json(conversations));
        Files.writeString(out.resolve("misses.jsonl"), EvalReport.misses(results.outcomes()));
        Files.write(out.resolve("filled.jsonl"), results.filledItems());
        return md;
    }

    private static void evaluate(EvalData.Conversation c, Options options, DjlEmbedder embedder,
            VectorCache memfasVectors, EmbeddingModel peerModel, VectorCache peerVectors, Results results)
            throws IOException {
        List<EvalData.Turn> turns = c.turns();
        List<EvalData.Question> questions = new ArrayList<>(c.questions());
        questions.addAll(EvalData.generalQuestions());
        // The source says which conversation a turn came from and the author who said it, as an agent records them.
        List<Memory> memories = turns.stream().map(t -> Memory.builder(t.text()).id(t.id()).source(c.name())
                .author(t.speaker()).createdAt(t.createdAt()).kind("conversation_turn").build()).toList();
        Set<String> speakers = new HashSet<>();
        turns.forEach(t -> {
            if (t.speaker() != null) {
                speakers.add(t.speaker());
            }
        });
        Map<String, String> sessionOf = new HashMap<>();
        turns.forEach(t -> sessionOf.put(t.id(), t.session()));
        List<String> texts = turns.stream().map(EvalData.Turn::text).toList();
        Map<String, String> textOf = new HashMap<>();
        turns.forEach(t -> textOf.put(t.id(), t.text()));

        // The turns are embedded once and shared by every system; the defaults embed each question as it comes (so
        // their latency includes it), variants reuse the question vectors (their latency leaves it out).
        MemoEmbedder turnsOnly = null;
        MemoEmbedder everything = null;
        if (embedder != null) {
            List<String> distinct = texts.stream().distinct().toList();
            List<float[]> embedded = memfasVectors.embed(distinct, embedder::embedAll);
            Map<String, float[]> vectors = new HashMap<>();
            for (int i = 0; i < distinct.size(); i++) {
                vectors.put(distinct.get(i), embedded.get(i));
            }
            turnsOnly = new MemoEmbedder(embedder, new HashMap<>(vectors), false);
            everything = new MemoEmbedder(embedder, vectors, true);
        }
        // The peers rank every question before memfas curates any: LangChain4j's ONNX Runtime session lets its
        // threads spin on the cores after each call (the runtime's default), and a memfas turn measured right after a
        // peer's call shared the two cores with them: in a probe, memfas's query embedding alone read p95 12.0-12.7 ms,
        // and 13.1-14.6 ms right after a peer's call.
        Map<EvalData.Question, RrfHybrid.Rankings> peerRankings = new HashMap<>();
        if (peerModel != null) {
            RrfHybrid hybrid = new RrfHybrid(texts, peerModel, peerVectors);
            for (EvalData.Question q : questions) {
                peerRankings.put(q, hybrid.rank(q.text()));
            }
        }
        int[] tokens = turns.stream().mapToInt(t -> TOKENS.countTokensOrdinary(t.text()) + 1).toArray();
        // Every memfas system gets its own SQLite file, so variants differ from the defaults only in what they set.
        Path dbs = Files.createTempDirectory("memfas-eval");
        List<ContextCurator> curators = new ArrayList<>();
        List<String> names = new ArrayList<>();
        String postgresUrl = null;
        try {
            Memfas.Builder b = Memfas.newBuilder().store(SqliteMemoryStore.open(dbs.resolve("memfas.db")))
                    .clock(c.clock());
            if (embedder != null) {
                b.embedder(turnsOnly);
            }
            curators.add(b.build());
            names.add("memfas");
            for (int i = 0; i < options.variants().size(); i++) {
                EvalVariant v = options.variants().get(i);
                Memfas.Builder vb = v.configure(Memfas.newBuilder()
                        .store(SqliteMemoryStore.open(dbs.resolve("variant-" + i + ".db"))).clock(c.clock()));
                if (embedder != null) {
                    vb.embedder(everything);
                }
                curators.add(vb.build());
                names.add(v.name());
            }
            // Plain BM25: no neighbors, no other factor, no reading of times in the query.
            curators.add(Memfas.newBuilder().clock(c.clock()).neighborRadius(0).timeWindowWeight(0)
                    .weights(new ScoringWeights(0, 1, 0, 0, 0, 0, 0, 0))
                    .build());
            names.add("bm25");
            if (options.postgres() != null) {
                // The defaults again over PostgreSQL, in a schema of their own: the store is the only difference.
                postgresUrl = PostgresEval.newSchema(options.postgres());
                Memfas.Builder pb = Memfas.newBuilder().store(PostgresMemoryStore.open(postgresUrl)).clock(c.clock());
                if (embedder != null) {
                    pb.embedder(turnsOnly);
                }
                curators.add(pb.build());
                names.add("memfas-pg");
            }
            // The curators' ids read back as the turns' (a variant with unnamed:1 gives them its own).
            List<Map<String, String>> turnIdOf = new ArrayList<>();
            for (int i = 0; i < curators.size(); i++) {
                boolean variant = i >= 1 && i <= options.variants().size();
                Map<String, String> ids = new HashMap<>(EvalVariant.remember(curators.get(i), memories,
                        variant && options.variants().get(i - 1).unnamed()));
                int facts = variant ? options.variants().get(i - 1).facts() : 0;
                if (facts > 0) {
                    ids.putAll(EvalVariant.rememberFacts(curators.get(i), memories, facts == 2));
                }
                turnIdOf.add(ids);
            }
            // A summary in a context counts for an evidence turn only if it kept the turn's text whole.
            List<Map<String, List<String>>> keptIn = new ArrayList<>();
            for (int i = 0; i < curators.size(); i++) {
                Map<String, List<String>> kept = new HashMap<>();
                Map<String, String> turnId = turnIdOf.get(i);
                int days = i >= 1 && i <= options.variants().size() ? options.variants().get(i - 1).summarizeDays()
                        : 0;
                if (days > 0) {
                    for (Memory s : curators.get(i).upkeep().summarize(SummarizeRequest.of(Memory.DEFAULT_NAMESPACE,
                            Duration.ofDays(days))).summaries()) {
                        kept.put(s.id(), s.supersedes().stream().map(id -> turnId.getOrDefault(id, id))
                                .filter(id -> s.text().contains(textOf.get(id).strip())).toList());
                    }
                }
                keptIn.add(kept);
            }
            int n = 0;
            String previous = null;
            for (EvalData.Question q : questions) {
                Set<String> answer = ShownAnswer.of(q, textOf);
                RrfHybrid.Rankings ranked = peerRankings.get(q);
                if (q.answerable()) {
                    for (int i = 0; i < curators.size(); i++) {
                        Map<String, String> turnId = turnIdOf.get(i);
                        List<String> ids = curators.get(i)
                                .recall(RecallRequest.builder(q.text()).limit(SESSION_DEPTH).build()).stream()
                                .map(h -> turnId.getOrDefault(h.memory().id(), h.memory().id())).toList();
                        results.sessions().add(sessions(names.get(i), q, ids, sessionOf));
                    }
                    if (ranked != null) {
                        results.sessions().add(sessions("rrf", q, ids(ranked.fused(), turns), sessionOf));
                        results.sessions().add(sessions("dense", q, ids(ranked.dense(), turns), sessionOf));
                    }
                }
                for (int budget : options.budgets()) {
                    n++;
                    for (int i = 0; i < curators.size(); i++) {
                        // Access is not recorded: a question asked at four budgets would otherwise lift, at the
                        // later budgets, what the earlier ones included, and the order of questions would matter.
                        askBefore(curators.get(i), options.history(), q, speakers, "eval-" + n, budget);
                        ContextResponse r = curators.get(i).getContext(options.history()
                                .request(q.text(), previous, speakers)
                                .sessionId("eval-" + n).tokenBudget(budget).recordAccess(false).build());
                        Map<String, String> turnId = turnIdOf.get(i);
                        List<String> included = new ArrayList<>();
                        Map<String, List<String>> kept = keptIn.get(i);
                        for (String id : r.memoryIds()) {
                            included.add(turnId.getOrDefault(id, id));
                            included.addAll(kept.getOrDefault(id, List.of()));
                        }
                        Double shown = answer == null ? null
                                : ShownAnswer.shown(answer, ShownAnswer.unescape(r.context()));
                        results.outcomes().add(outcome(names.get(i), q, budget, included, r.tokensUsed(),
                                r.latency().toNanos() / 1e6, shown));
                        if (i == 0) {
                            // The defaults again with the budget as a target: every memory down to the minimum
                            // score that fits, as a caller who asks to fill it gets.
                            askBefore(curators.get(0), options.history(), q, speakers, "eval-" + n + "-filled",
                                    budget);
                            ContextResponse f = curators.get(0).getContext(options.history().request(q.text(),
                                    previous, speakers).sessionId("eval-" + n + "-filled").tokenBudget(budget)
                                    .recordAccess(false).fillBudget(true).build());
                            List<String> filledIds = f.memoryIds().stream().map(id -> turnId.getOrDefault(id, id))
                                    .toList();
                            if (q.answerable()) {
                                results.filledItems().add(EvalReport.filledLine(q, budget, f, turnId));
                            }
                            results.outcomes().add(outcome(FILLED, q, budget, filledIds, f.tokensUsed(),
                                    f.latency().toNanos() / 1e6, answer == null ? null
                                            : ShownAnswer.shown(answer, ShownAnswer.unescape(f.context()))));
                        }
                    }
                    if (ranked != null) {
                        results.outcomes().add(WholeTurns.packed("rrf", q, budget, ranked.fused(), turns, tokens,
                                ranked.millis(), answer));
                        results.outcomes().add(WholeTurns.packed("dense", q, budget, ranked.dense(), turns, tokens,
                                ranked.millis(), answer));
                    }
                    results.outcomes().add(WholeTurns.recent(turns, tokens, q, budget, answer));
                }
                previous = q.text();
            }
        } finally {
            for (ContextCurator curator : curators) {
                curator.close();
            }
            if (postgresUrl != null) {
                PostgresEval.dropSchema(postgresUrl);
            }
            try (Stream<Path> files = Files.list(dbs)) {
                for (Path f : files.toList()) {
                    Files.deleteIfExists(f);
                }
            }
            Files.deleteIfExists(dbs);
        }
    }

    private static List<String> ids(List<Integer> ranking, List<EvalData.Turn> turns) {
        return ranking.stream().limit(SESSION_DEPTH).map(i -> turns.get(i).id()).toList();
    }

    /** Where the question's evidence sessions are among the distinct sessions of a ranking of turn ids. */
    private static SessionOutcome sessions(String system, EvalData.Question q, List<String> ranked,
            Map<String, String> sessionOf) {
        LinkedHashSet<String> distinct = new LinkedHashSet<>();
        for (String id : ranked) {
            distinct.add(sessionOf.get(id));
            if (distinct.size() == 10) {
                break;
            }
        }
        List<String> order = new ArrayList<>(distinct);
        boolean at5 = order.stream().limit(5).anyMatch(q.evidenceSessions()::contains);
        boolean at10 = order.stream().anyMatch(q.evidenceSessions()::contains);
        return new SessionOutcome(system, q.category(), at5, at10);
    }

    /** Asks, in the question's session, the turn its follow-up leans on, if the history mode asks one first. */
    private static void askBefore(ContextCurator curator, EvalHistory history, EvalData.Question q,
            Set<String> speakers, String session, int budget) {
        String before = history.askedBefore(q.text(), speakers);
        if (before != null) {
            curator.getContext(ContextRequest.builder(before).sessionId(session).tokenBudget(budget)
                    .recordAccess(false).build());
        }
    }

    /** What a context of the given turn ids holds of the question's evidence. */
    static Outcome outcome(String system, EvalData.Question q, int budget, List<String> ids, int tokens,
            double millis, Double shown) {
        if (!q.answerable()) {
            return new Outcome(system, budget, q.category(), false, 0, false, tokens, millis, q.id(), List.of(),
                    null);
        }
        Set<String> got = new HashSet<>(ids);
        List<String> missing = q.evidence().stream().filter(id -> !got.contains(id)).toList();
        int hit = q.evidence().size() - missing.size();
        return new Outcome(system, budget, q.category(), true, (double) hit / q.evidence().size(),
                missing.isEmpty(), tokens, millis, q.id(), missing, shown);
    }
}
