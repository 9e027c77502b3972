package dev.memfas.bench;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import dev.memfas.ContextCurator;
import dev.memfas.ContextRequest;
import dev.memfas.ContextResponse;
import dev.memfas.Embedder;
import dev.memfas.Memory;
import dev.memfas.ScoringWeights;
import dev.memfas.core.Memfas;
import dev.memfas.djl.DjlEmbedder;
import dev.memfas.sqlite.SqliteMemoryStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Retrieval quality on conversations in the LoCoMo layout ({@code <split>/<conv>/memories.jsonl} and
 * {@code queries.jsonl}): for every question and budget, the share of the question's evidence turns that the curated
 * context includes. Runs memfas with its defaults through the public API (a SQLite store in a temporary file, the
 * default embedder) and, in the same run, two baselines: the most recent turns that fit, and BM25 alone.
 *
 * <pre>
 * java -cp memfas-bench/target/benchmarks.jar dev.memfas.bench.EvalMain DATA_DIR [--out DIR]
 *     [--budgets 512,1024,2048,4096] [--model bge-small-en-v1.5-q|bge-small-en-v1.5|all-minilm-l6-v2|none]
 *     [--variant NAME=semantic:0.6,recency:0,candidates:200 ...]
 * </pre>
 *
 * Writes {@code eval.json} and {@code eval.md} to the output directory (default {@code target/eval}) and prints the
 * table.
 */
public final class EvalMain {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Encoding TOKENS = Encodings.newDefaultEncodingRegistry().getEncoding(EncodingType.CL100K_BASE);
    private static final List<String> BASELINES = List.of("recent", "bm25");

    private EvalMain() {}

    record Turn(String id, String text, Instant createdAt, int order) {}

    record Question(String id, String text, Set<String> evidence, String category) {}

    /**
     * A configuration measured next to the defaults: a name and the settings it changes ({@code semantic:0.6,
     * recency:0,candidates:200}; weights by their {@link ScoringWeights} names, {@code candidates}, {@code minScore},
     * {@code duplicates}, {@code neighbors}).
     */
    record Variant(String name, Map<String, Double> settings) {
        static Variant parse(String spec) {
            int eq = spec.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("variant must be NAME=key:value,...: '" + spec + "'");
            }
            Map<String, Double> settings = new LinkedHashMap<>();
            for (String kv : spec.substring(eq + 1).split(",")) {
                String[] parts = kv.split(":");
                if (parts.length != 2) {
                    throw new IllegalArgumentException("variant setting must be key:value: '" + kv + "'");
                }
                settings.put(parts[0].trim(), Double.parseDouble(parts[1].trim()));
            }
            String name = spec.substring(0, eq);
            if (name.equals("memfas") || BASELINES.contains(name)) {
                throw new IllegalArgumentException("variant name '" + name + "' is taken by a system of the run");
            }
            Variant v = new Variant(name, settings);
            v.configure(Memfas.newBuilder());
            return v;
        }

        Memfas.Builder configure(Memfas.Builder b) {
            ScoringWeights d = ScoringWeights.DEFAULT;
            double[] w = {d.semantic(), d.lexical(), d.recency(), d.frequency(), d.topic(), d.scope(), d.priority(),
                d.hot()};
            List<String> names = List.of("semantic", "lexical", "recency", "frequency", "topic", "scope", "priority",
                    "hot");
            for (Map.Entry<String, Double> e : settings.entrySet()) {
                int i = names.indexOf(e.getKey());
                switch (e.getKey()) {
                    case "candidates" -> b.candidateLimit(e.getValue().intValue());
                    case "minScore" -> b.minScore(e.getValue());
                    case "duplicates" -> b.duplicateSimilarity(e.getValue());
                    case "neighbors" -> b.neighborRadius(e.getValue().intValue());
                    default -> {
                        if (i < 0) {
                            throw new IllegalArgumentException("unknown variant setting '" + e.getKey()
                                    + "'; use a weight name (" + names + "), candidates, minScore, duplicates or neighbors");
                        }
                        w[i] = e.getValue();
                    }
                }
            }
            return b.weights(new ScoringWeights(w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]));
        }
    }

    /** One question answered by one system at one budget. */
    record Outcome(String system, int budget, String category, double recall, boolean all, int tokens,
            double millis) {}

    public static void main(String[] args) throws Exception {
        if (args.length == 0 || args[0].startsWith("--")) {
            System.err.println("usage: EvalMain DATA_DIR [--out DIR] [--budgets 512,1024,2048,4096] [--model M]");
            System.exit(1);
        }
        Path data = Path.of(args[0]);
        Path out = Path.of("target/eval");
        int[] budgets = {512, 1024, 2048, 4096};
        String model = DjlEmbedder.DEFAULT_MODEL.modelId();
        List<Variant> variants = new ArrayList<>();
        for (int i = 1; i < args.length; i += 2) {
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("missing value after " + args[i]);
            }
            switch (args[i]) {
                case "--out" -> out = Path.of(args[i + 1]);
                case "--budgets" -> budgets = Arrays.stream(args[i + 1].split(",")).mapToInt(Integer::parseInt)
                        .toArray();
                case "--model" -> model = args[i + 1];
                case "--variant" -> {
                    Variant v = Variant.parse(args[i + 1]);
                    if (variants.stream().anyMatch(other -> other.name().equals(v.name()))) {
                        throw new IllegalArgumentException("two variants are named '" + v.name() + "'");
                    }
                    variants.add(v);
                }
                default -> throw new IllegalArgumentException("unknown option: " + args[i]);
            }
        }
        String table = run(data, out, budgets, model, variants);
        System.out.println(table);
    }

    /** Runs the evaluation and writes eval.json and eval.md to {@code out}; returns the Markdown. */
    static String run(Path data, Path out, int[] budgets, String model, List<Variant> variants) throws IOException {
        List<Path> conversations;
        try (Stream<Path> dirs = Files.walk(data)) {
            conversations = dirs.filter(d -> Files.isRegularFile(d.resolve("memories.jsonl"))
                    && Files.isRegularFile(d.resolve("queries.jsonl"))).sorted().toList();
        }
        if (conversations.isEmpty()) {
            throw new IllegalArgumentException("no conversations (memories.jsonl + queries.jsonl) under " + data);
        }
        List<Outcome> outcomes = new ArrayList<>();
        DjlEmbedder embedder = model.equals("none") ? null
                : DjlEmbedder.builder().model(DjlEmbedder.BuiltInModel.forModelId(model)).build();
        try {
            for (Path conv : conversations) {
                evaluate(conv, budgets, embedder, variants, outcomes);
            }
        } finally {
            if (embedder != null) {
                embedder.close();
            }
        }
        Files.createDirectories(out);
        List<String> systems = new ArrayList<>(List.of("memfas"));
        variants.forEach(v -> systems.add(v.name()));
        systems.addAll(BASELINES);
        String md = EvalReport.markdown(outcomes, systems, budgets, model, conversations.size());
        Files.writeString(out.resolve("eval.md"), md);
        Files.writeString(out.resolve("eval.json"), EvalReport.json(outcomes, systems, budgets, model, conversations));
        return md;
    }

    private static void evaluate(Path conv, int[] budgets, DjlEmbedder embedder, List<Variant> variants,
            List<Outcome> outcomes) throws IOException {
        List<Turn> turns = new ArrayList<>();
        for (String line : Files.readAllLines(conv.resolve("memories.jsonl"))) {
            if (line.isBlank()) {
                continue;
            }
            JsonNode j = JSON.readTree(line);
            Instant at = LocalDateTime.parse(j.get("timestamp").asString()).toInstant(ZoneOffset.UTC);
            turns.add(new Turn(j.get("id").asString(), j.get("text").asString(), at, turns.size()));
        }
        List<Question> questions = new ArrayList<>();
        for (String line : Files.readAllLines(conv.resolve("queries.jsonl"))) {
            if (line.isBlank()) {
                continue;
            }
            JsonNode q = JSON.readTree(line);
            Set<String> evidence = new HashSet<>();
            q.get("evidence").forEach(e -> evidence.add(e.asString()));
            if (!evidence.isEmpty()) {
                questions.add(new Question(q.get("id").asString(), q.get("question").asString(), evidence,
                        category(q.get("category"))));
            }
        }
        Instant last = turns.stream().map(Turn::createdAt).max(Instant::compareTo).orElseThrow();
        Clock clock = Clock.fixed(last.plusSeconds(60), ZoneOffset.UTC);
        // The source says which conversation a turn came from, as an agent would record it.
        String source = conv.getFileName().toString();
        List<Memory> memories = turns.stream().map(t -> Memory.builder(t.text()).id(t.id()).source(source)
                .createdAt(t.createdAt()).kind("conversation_turn").build()).toList();

        // The turns are embedded once and shared by every system; the defaults embed each question as it comes (so
        // their latency includes it), variants reuse the question vectors (their latency leaves it out).
        MemoEmbedder turnsOnly = null;
        MemoEmbedder everything = null;
        if (embedder != null) {
            Map<String, float[]> vectors = new HashMap<>();
            List<String> texts = turns.stream().map(Turn::text).distinct().toList();
            List<float[]> embedded = embedder.embedAll(texts);
            for (int i = 0; i < texts.size(); i++) {
                vectors.put(texts.get(i), embedded.get(i));
            }
            turnsOnly = new MemoEmbedder(embedder, new HashMap<>(vectors), false);
            everything = new MemoEmbedder(embedder, vectors, true);
        }
        // Every memfas system gets its own SQLite file, so variants differ from the defaults only in what they set.
        Path dbs = Files.createTempDirectory("memfas-eval");
        List<ContextCurator> curators = new ArrayList<>();
        List<String> names = new ArrayList<>();
        try {
            Memfas.Builder b = Memfas.newBuilder().store(SqliteMemoryStore.open(dbs.resolve("memfas.db"))).clock(clock);
            if (embedder != null) {
                b.embedder(turnsOnly);
            }
            curators.add(b.build());
            names.add("memfas");
            for (int i = 0; i < variants.size(); i++) {
                Variant v = variants.get(i);
                Memfas.Builder vb = v.configure(Memfas.newBuilder()
                        .store(SqliteMemoryStore.open(dbs.resolve("variant-" + i + ".db"))).clock(clock));
                if (embedder != null) {
                    vb.embedder(everything);
                }
                curators.add(vb.build());
                names.add(v.name());
            }
            curators.add(Memfas.newBuilder().clock(clock).neighborRadius(0)
                    .weights(new ScoringWeights(0, 1, 0, 0, 0, 0, 0, 0))
                    .build());
            names.add("bm25");
            for (ContextCurator c : curators) {
                c.rememberAll(memories);
            }
            int n = 0;
            for (Question q : questions) {
                for (int budget : budgets) {
                    n++;
                    for (int i = 0; i < curators.size(); i++) {
                        outcomes.add(score(names.get(i), q, budget, curators.get(i).getContext(
                                ContextRequest.builder(q.text()).sessionId("eval-" + n).tokenBudget(budget).build())));
                    }
                    outcomes.add(recent(turns, q, budget));
                }
            }
        } finally {
            for (ContextCurator c : curators) {
                c.close();
            }
            try (Stream<Path> files = Files.list(dbs)) {
                for (Path f : files.toList()) {
                    Files.deleteIfExists(f);
                }
            }
            Files.deleteIfExists(dbs);
        }
    }

    /** A question's category as text: LoCoMo numbers them (1 to 5), LongMemEval names them ("multi-session"). */
    private static String category(JsonNode category) {
        return category.isNumber() ? Integer.toString(category.asInt()) : category.asString();
    }

    private static Outcome score(String system, Question q, int budget, ContextResponse r) {
        Set<String> got = new HashSet<>(r.memoryIds());
        long hit = q.evidence().stream().filter(got::contains).count();
        return new Outcome(system, budget, q.category(), (double) hit / q.evidence().size(),
                hit == q.evidence().size(), r.tokensUsed(), r.latency().toNanos() / 1e6);
    }

    /** The baseline with no retrieval: the latest turns, newest first, while their text fits the budget. */
    private static Outcome recent(List<Turn> turns, Question q, int budget) {
        long start = System.nanoTime();
        Set<String> got = new HashSet<>();
        int used = 0;
        for (int i = turns.size() - 1; i >= 0; i--) {
            int t = TOKENS.countTokensOrdinary(turns.get(i).text()) + 1;
            if (used + t > budget) {
                break;
            }
            used += t;
            got.add(turns.get(i).id());
        }
        long hit = q.evidence().stream().filter(got::contains).count();
        return new Outcome("recent", budget, q.category(), (double) hit / q.evidence().size(),
                hit == q.evidence().size(), used, (System.nanoTime() - start) / 1e6);
    }

    /** Serves known texts from a map and embeds the rest, remembering them if asked to. Synchronized: curators share it. */
    private static final class MemoEmbedder implements Embedder {
        private final Embedder delegate;
        private final Map<String, float[]> known;
        private final boolean remember;

        MemoEmbedder(Embedder delegate, Map<String, float[]> known, boolean remember) {
            this.delegate = delegate;
            this.known = known;
            this.remember = remember;
        }

        @Override
        public synchronized List<float[]> embedAll(List<String> texts) {
            List<String> missing = texts.stream().filter(t -> !known.containsKey(t)).distinct().toList();
            Map<String, float[]> fresh = new HashMap<>();
            if (!missing.isEmpty()) {
                List<float[]> vectors = delegate.embedAll(missing);
                for (int i = 0; i < missing.size(); i++) {
                    fresh.put(missing.get(i), vectors.get(i));
                }
                if (remember) {
                    known.putAll(fresh);
                }
            }
            return texts.stream().map(t -> known.containsKey(t) ? known.get(t) : fresh.get(t)).toList();
        }

        @Override
        public int dimension() {
            return delegate.dimension();
        }

        @Override
        public String modelId() {
            return delegate.modelId();
        }
    }
}
